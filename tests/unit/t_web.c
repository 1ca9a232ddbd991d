/*
 * t_web.c: the page's files as nasperfd embeds them, and the
 * Accept-Encoding rules that choose the compressed copy.
 */
#include "config.h"

#include <string.h>

#include "test.h"
#include "web.h"

static void
t_gzip(void)
{
	T_TRUE(!web_accepts_gzip(NULL));
	T_TRUE(!web_accepts_gzip(""));
	T_TRUE(web_accepts_gzip("gzip"));
	T_TRUE(web_accepts_gzip("gzip, deflate, br, zstd"));
	T_TRUE(web_accepts_gzip("br;q=1.0, GZip;q=0.5"));
	T_TRUE(web_accepts_gzip("x-gzip"));
	T_TRUE(web_accepts_gzip("*"));
	T_TRUE(!web_accepts_gzip("gzip;q=0"));
	T_TRUE(!web_accepts_gzip("gzip; q=0.000, *"));
	T_TRUE(!web_accepts_gzip("identity"));
	T_TRUE(!web_accepts_gzip("deflate, br"));
	T_TRUE(!web_accepts_gzip("*;q=0"));
	T_TRUE(!web_accepts_gzip("gzipx, xgzip"));
	T_TRUE(web_accepts_gzip("br,gzip"));
	T_TRUE(!web_accepts_gzip("gzip;q=0,*;q=1"));
}

static void
t_assets(void)
{
	const struct web_asset	*a;
	size_t			 i;
	int			 whole = 1;

	T_TRUE(web_nassets >= 5);
	T_TRUE((a = web_find("/")) != NULL &&
	    strncmp(a->type, "text/html", 9) == 0);
	T_TRUE((a = web_find("/ui/app.js")) != NULL &&
	    strncmp(a->type, "text/javascript", 15) == 0);
	T_TRUE(web_find("/ui/uplot.js") != NULL);
	T_TRUE(web_find("/ui/app.css") != NULL);
	T_TRUE(web_find("/ui/uplot.css") != NULL);
	T_TRUE(web_find("/ui/") == NULL);
	T_TRUE(web_find("/ui/app.js/") == NULL);
	T_TRUE(web_find("/index.html") == NULL);
	for (i = 0; i < web_nassets; i++) {
		a = &web_assets[i];
		/* A quoted ETag; gzip's magic; the raw and gz both there. */
		if (a->etag[0] != '"' || a->etag[strlen(a->etag) - 1] != '"' ||
		    a->gzlen < 18 || a->gz[0] != 0x1f || a->gz[1] != 0x8b ||
		    a->rawlen == 0)
			whole = 0;
	}
	T_TRUE(whole);
	/* The page loads its files by relative URLs, no inline script. */
	a = web_find("/");
	T_TRUE(a != NULL && memmem(a->raw, a->rawlen, "src=\"ui/app.js\"",
	    15) != NULL);
	T_TRUE(a != NULL && memmem(a->raw, a->rawlen, "<script>", 8) == NULL);
}

static void
t_policy(void)
{
	char	h[64], p[1024];

	T_TRUE(web_host("nas:9631", h, sizeof h) == 0 && strcmp(h, "nas") == 0);
	T_TRUE(web_host("192.168.1.5", h, sizeof h) == 0 &&
	    strcmp(h, "192.168.1.5") == 0);
	T_TRUE(web_host("[fe80::1]:9631", h, sizeof h) == 0 &&
	    strcmp(h, "[fe80::1]") == 0);
	T_TRUE(web_host("nas.example.com, proxy", h, sizeof h) == 0 &&
	    strcmp(h, "nas.example.com") == 0);
	T_TRUE(web_host(NULL, h, sizeof h) == -1);
	T_TRUE(web_host("", h, sizeof h) == -1);
	T_TRUE(web_host("nas;script-src *", h, sizeof h) == -1);
	T_TRUE(web_host("nas' 'unsafe-inline", h, sizeof h) == -1);
	T_TRUE(web_host("[::1 ]", h, sizeof h) == -1);
	T_TRUE(web_host("a/b", h, sizeof h) == -1);
	web_policy(p, sizeof p, "nas:9631", NULL, 9632, 0);
	T_TRUE(strstr(p, "connect-src 'self' http://nas:9632;") != NULL);
	T_TRUE(strstr(p, "frame-ancestors 'none'") != NULL);
	web_policy(p, sizeof p, "localhost:9631", "nas.example.com", 9632, 0);
	T_TRUE(strstr(p, "connect-src 'self' http://localhost:9632 "
	    "http://nas.example.com:9632;") != NULL);
	web_policy(p, sizeof p, "nas;evil", "nas", 9632, 0);
	T_TRUE(strstr(p, "connect-src 'self' http://nas:9632;") != NULL);
	web_policy(p, sizeof p, "nas", NULL, 0, 0);
	T_TRUE(strstr(p, "connect-src 'self';") != NULL);
	/* synth.tls: the data port over https, never http. */
	web_policy(p, sizeof p, "nas:9631", "nas.example.com", 9632, 1);
	T_TRUE(strstr(p, "connect-src 'self' https://nas:9632 "
	    "https://nas.example.com:9632;") != NULL);
	T_TRUE(strstr(p, "http://") == NULL);
}

int
main(void)
{
	t_gzip();
	t_assets();
	t_policy();
	return (t_done());
}
