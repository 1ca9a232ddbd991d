/*
 * web.h: the page nasperfd serves at / on its API port, for a browser on
 * the reviewer's own machine.  Its files (web/src and the chart library)
 * are embedded at build time by scripts/embed-web.sh, each as it is and
 * gzip-compressed; the page asks for the token and calls the API itself,
 * so these routes need none.
 */
#ifndef WEB_H
#define WEB_H

#include <stddef.h>

struct daemon;
struct evhttp_request;

struct web_asset {
	const char		*path;		/* "/", "/ui/app.js" */
	const char		*type;		/* its Content-Type */
	const char		*etag;		/* quoted, from its SHA-256 */
	const unsigned char	*raw;
	size_t			 rawlen;
	const unsigned char	*gz;		/* gzip -9n of raw */
	size_t			 gzlen;
};

extern const struct web_asset	web_assets[];
extern const size_t		web_nassets;

/* The asset at an URL path, or NULL. */
const struct web_asset *web_find(const char *path);
/*
 * Whether an Accept-Encoding header's value (NULL when absent) takes
 * gzip: named, or "*", and not with q=0.
 */
int	web_accepts_gzip(const char *accept_encoding);
/*
 * The host of a Host or X-Forwarded-Host value (NULL: none) without its
 * port, into out: a name, an IPv4 address or a bracketed IPv6 one, and
 * nothing else (the first of a list).  -1 when it is none of those.
 */
int	web_host(const char *value, char *out, size_t outsz);
/*
 * The Content-Security-Policy of the page's files: its own origin, and
 * the data plane's port (when synth_port > 0) on the hosts of host and
 * fwd_host, the request's Host and X-Forwarded-Host, over https when
 * synth_tls (synth.tls), else http.
 */
void	web_policy(char *out, size_t outsz, const char *host,
	    const char *fwd_host, unsigned synth_port, int synth_tls);
/* GET / and /ui/...: the page's files, with ETag and a strict policy. */
void	api_web(struct daemon *, struct evhttp_request *);

#endif /* WEB_H */
