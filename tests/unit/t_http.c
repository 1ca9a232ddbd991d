/*
 * t_http.c: the API's edge without a request: query numbers, path ids,
 * bearer tokens and their scope, and refusals.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "http.h"
#include "test.h"

#define TOK_C	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define TOK_R	"fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static void
t_query(void)
{
	struct evkeyvalq	q;
	char			msg[128];
	double			x = 7;

	T_OK(evhttp_parse_query_str("interval=2.5&from=-60&bad=12x&inf=inf"
	    "&nan=nan&empty=", &q));
	T_OK(http_query_num(&q, "interval", &x, msg, sizeof msg));
	T_NEAR(x, 2.5, 1e-12);
	T_OK(http_query_num(&q, "from", &x, msg, sizeof msg));
	T_NEAR(x, -60, 1e-12);
	x = 7;
	T_OK(http_query_num(&q, "absent", &x, msg, sizeof msg));
	T_NEAR(x, 7, 0);
	T_TRUE(http_query_num(&q, "bad", &x, msg, sizeof msg) == -1 &&
	    strstr(msg, "bad") != NULL);
	T_TRUE(http_query_num(&q, "inf", &x, msg, sizeof msg) == -1);
	T_TRUE(http_query_num(&q, "nan", &x, msg, sizeof msg) == -1);
	T_TRUE(http_query_num(&q, "empty", &x, msg, sizeof msg) == -1);
	evhttp_clear_headers(&q);
}

static void
t_path_id(void)
{
	unsigned long	 id;
	const char	*end;

	T_TRUE(http_path_id("12/report", &id, &end) == 0 && id == 12 &&
	    strcmp(end, "/report") == 0);
	T_TRUE(http_path_id("0", &id, &end) == 0 && id == 0 && *end == '\0');
	T_TRUE(http_path_id("+1", &id, &end) == -1);
	T_TRUE(http_path_id("-1", &id, &end) == -1);
	T_TRUE(http_path_id("01", &id, &end) == -1);
	T_TRUE(http_path_id(" 1", &id, &end) == -1);
	T_TRUE(http_path_id("", &id, &end) == -1);
	T_TRUE(http_path_id("99999999999999999999999", &id, &end) == -1);
}

static void
t_bearer(void)
{
	T_TRUE(http_bearer_ok("Bearer " TOK_C, TOK_C));
	T_TRUE(http_bearer_ok("bearer  " TOK_C, TOK_C));
	T_TRUE(!http_bearer_ok(NULL, TOK_C));
	T_TRUE(!http_bearer_ok("Basic " TOK_C, TOK_C));
	T_TRUE(!http_bearer_ok("Bearer " TOK_C "0", TOK_C));
	T_TRUE(!http_bearer_ok("Bearer " TOK_R, TOK_C));
	T_TRUE(!http_bearer_ok("Bearer ", ""));
	T_EQ_INT(http_bearer_scope("Bearer " TOK_C, TOK_C, TOK_R),
	    HTTP_SCOPE_CONTROL);
	T_EQ_INT(http_bearer_scope("Bearer " TOK_R, TOK_C, TOK_R),
	    HTTP_SCOPE_READ);
	T_EQ_INT(http_bearer_scope("Bearer x", TOK_C, TOK_R), HTTP_SCOPE_NONE);
	T_EQ_INT(http_bearer_scope(NULL, TOK_C, TOK_R), HTTP_SCOPE_NONE);
	/* No read-only token: only the control one admits. */
	T_EQ_INT(http_bearer_scope("Bearer ", TOK_C, ""), HTTP_SCOPE_NONE);
	T_EQ_STR(http_scope_name(HTTP_SCOPE_READ), "read");
	T_EQ_STR(http_scope_name(HTTP_SCOPE_CONTROL), "control");
	T_EQ_STR(http_scope_name(HTTP_SCOPE_NONE), "none");
	T_TRUE(HTTP_SCOPE_NONE < HTTP_SCOPE_READ &&
	    HTTP_SCOPE_READ < HTTP_SCOPE_CONTROL);
}

static void
t_fail(void)
{
	struct http_err	e;

	T_TRUE(http_fail(&e, 409, "busy", "test %d running", 3) == -1 &&
	    e.status == 409 && strcmp(e.code, "busy") == 0 &&
	    strcmp(e.msg, "test 3 running") == 0);
	T_TRUE(http_fail(NULL, 400, "x", "y") == -1);
}

int
main(void)
{
	t_query();
	t_path_id();
	t_bearer();
	t_fail();
	return (t_done());
}
