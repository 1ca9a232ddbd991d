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
/* GET / and /ui/...: the page's files, with ETag and a strict policy. */
void	api_web(struct daemon *, struct evhttp_request *);

#endif /* WEB_H */
