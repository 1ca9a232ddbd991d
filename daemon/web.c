/*
 * web.c: the page's files over the API port.
 *
 * Every answer carries a policy that lets the page load only its own
 * files and talk only to its own origin and to the synthetic data port on
 * the host it was asked for (Host, and X-Forwarded-Host behind a reverse
 * proxy), for the network test from the browser: no inline script,
 * nothing from elsewhere, no framing.  The files change only with the binary, so an
 * ETag from their content lets a browser revalidate in one round trip.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "cfg.h"
#include "daemon.h"
#include "http.h"
#include "np.h"
#include "web.h"

#define WEB_POLICY_HEAD \
	"default-src 'none'; script-src 'self'; style-src 'self'; " \
	"img-src 'self' data:; connect-src 'self'"
#define WEB_POLICY_TAIL \
	"; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const struct web_asset *
web_find(const char *path)
{
	size_t	i;

	for (i = 0; i < web_nassets; i++)
		if (strcmp(web_assets[i].path, path) == 0)
			return (&web_assets[i]);
	return (NULL);
}

/* The q of one "coding;q=0.5" element (1 when not given). */
static double
web_q(const char *params, size_t len)
{
	const char	*q;
	char		 buf[16];
	size_t		 n;

	for (q = params; q < params + len; q++) {
		if (*q != 'q' && *q != 'Q')
			continue;
		q++;
		while (q < params + len && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= params + len || *q != '=')
			continue;
		n = (size_t)(params + len - q - 1);
		if (n >= sizeof buf)
			n = sizeof buf - 1;
		memcpy(buf, q + 1, n);
		buf[n] = '\0';
		return (strtod(buf, NULL));
	}
	return (1);
}

int
web_accepts_gzip(const char *ae)
{
	const char	*p, *end, *semi;
	size_t		 len, clen;
	double		 gzip = -1, star = -1, q;

	if (ae == NULL)
		return (0);
	for (p = ae; *p != '\0'; p = *end == ',' ? end + 1 : end) {
		while (*p == ' ' || *p == '\t')
			p++;
		if ((end = strchr(p, ',')) == NULL)
			end = p + strlen(p);
		len = (size_t)(end - p);
		semi = memchr(p, ';', len);
		clen = semi != NULL ? (size_t)(semi - p) : len;
		while (clen > 0 && (p[clen - 1] == ' ' || p[clen - 1] == '\t'))
			clen--;
		q = semi != NULL ? web_q(semi + 1, (size_t)(end - semi - 1)) : 1;
		if ((clen == 4 && strncasecmp(p, "gzip", 4) == 0) ||
		    (clen == 6 && strncasecmp(p, "x-gzip", 6) == 0))
			gzip = q;
		else if (clen == 1 && *p == '*')
			star = q;
	}
	return (gzip >= 0 ? gzip > 0 : star > 0);
}

/* Whether an If-None-Match value names etag (or is "*"). */
static int
web_etag_matches(const char *inm, const char *etag)
{
	const char	*p;
	size_t		 n = strlen(etag);

	if (inm == NULL)
		return (0);
	for (p = inm;;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '\0')
			return (0);
		if (*p == '*')
			return (1);
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		if (strncmp(p, etag, n) == 0)
			return (1);
		if ((p = strchr(p, ',')) == NULL)
			return (0);
	}
}

int
web_host(const char *value, char *out, size_t outsz)
{
	const char	*p = value, *end;
	size_t		 n;

	if (value == NULL)
		return (-1);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '[') {
		if ((end = strchr(p, ']')) == NULL)
			return (-1);
		end++;
		if (strspn(p + 1, "0123456789abcdefABCDEF:.") !=
		    (size_t)(end - p - 2))
			return (-1);
	} else {
		n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789.-");
		end = p + n;
	}
	n = (size_t)(end - p);
	if (n == 0 || n >= outsz || (*end != '\0' && *end != ':' &&
	    *end != ',' && *end != ' '))
		return (-1);
	memcpy(out, p, n);
	out[n] = '\0';
	return (0);
}

void
web_policy(char *out, size_t outsz, const char *host, const char *fwd_host,
    unsigned synth_port, int synth_tls)
{
	const char	*sch = synth_tls ? " https://" : " http://";
	char		 h[256], f[256], port[16];
	int		 hok, fok;

	hok = synth_port > 0 && web_host(host, h, sizeof h) == 0;
	fok = synth_port > 0 && web_host(fwd_host, f, sizeof f) == 0 &&
	    (!hok || strcmp(f, h) != 0);
	snprintf(port, sizeof port, ":%u", synth_port);
	snprintf(out, outsz, WEB_POLICY_HEAD "%s%s%s%s%s%s" WEB_POLICY_TAIL,
	    hok ? sch : "", hok ? h : "", hok ? port : "",
	    fok ? sch : "", fok ? f : "", fok ? port : "");
}

void
api_web(struct daemon *d, struct evhttp_request *req)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	struct evkeyvalq	*in = evhttp_request_get_input_headers(req);
	struct evkeyvalq	*out = evhttp_request_get_output_headers(req);
	const struct web_asset	*a;
	const char		*path;
	struct evbuffer		*evb;
	char			 policy[1024];
	int			 gz;

	path = uri != NULL ? evhttp_uri_get_path(uri) : NULL;
	if (path == NULL || *path == '\0')
		path = "/";
	if ((a = web_find(path)) == NULL) {
		http_error(req, HTTP_NOTFOUND, "not_found", "no such file: "
		    "%.200s", path);
		return;
	}
	web_policy(policy, sizeof policy, evhttp_find_header(in, "Host"),
	    evhttp_find_header(in, "X-Forwarded-Host"), d->synth_port,
	    DAEMON_TLS(d, 1));
	evhttp_add_header(out, "Content-Security-Policy", policy);
	evhttp_add_header(out, "X-Content-Type-Options", "nosniff");
	evhttp_add_header(out, "Referrer-Policy", "no-referrer");
	evhttp_add_header(out, "X-Frame-Options", "DENY");
	evhttp_add_header(out, "Cache-Control", "no-cache");
	evhttp_add_header(out, "Vary", "Accept-Encoding");
	evhttp_add_header(out, "ETag", a->etag);
	if (web_etag_matches(evhttp_find_header(in, "If-None-Match"),
	    a->etag)) {
		evhttp_send_reply(req, HTTP_NOTMODIFIED, NULL, NULL);
		return;
	}
	gz = web_accepts_gzip(evhttp_find_header(in, "Accept-Encoding"));
	if ((evb = evbuffer_new()) == NULL || evbuffer_add_reference(evb,
	    gz ? a->gz : a->raw, gz ? a->gzlen : a->rawlen, NULL,
	    NULL) == -1) {
		if (evb != NULL)
			evbuffer_free(evb);
		http_error(req, HTTP_INTERNAL, "internal", "out of memory");
		return;
	}
	evhttp_add_header(out, "Content-Type", a->type);
	if (gz)
		evhttp_add_header(out, "Content-Encoding", "gzip");
	evhttp_send_reply(req, HTTP_OK, NULL, evb);
	evbuffer_free(evb);
}
