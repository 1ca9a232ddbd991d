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

int
main(void)
{
	t_gzip();
	t_assets();
	return (t_done());
}
