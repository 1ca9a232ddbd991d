/*
 * t_http.c: the API's edge: query numbers, path ids, bearer tokens and
 * their scope, and refusals; and, over a real evhttp on loopback, the
 * replies: JSON, and a 500 in the same shape when the body could not be
 * made.
 */
#include "config.h"

#include <netinet/in.h>

#include <math.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/event.h>
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

/* What the client got. */
struct t_got {
	struct event_base	*base;
	int			 status;
	char			 type[64];
	char			 body[256];
};

/* The server: /null replies with no body, the rest with {"a":1}. */
static void
t_serve_cb(struct evhttp_request *req, NP_UNUSED void *arg)
{
	if (strcmp(evhttp_request_get_uri(req), "/null") == 0)
		http_reply(req, 200, NULL);
	else
		http_reply(req, 200, json_pack("{s:i}", "a", 1));
}

static void
t_got_cb(struct evhttp_request *req, void *arg)
{
	struct t_got	*g = arg;
	const char	*type;
	size_t		 n;

	if (req != NULL) {
		g->status = evhttp_request_get_response_code(req);
		type = evhttp_find_header(evhttp_request_get_input_headers(req),
		    "Content-Type");
		snprintf(g->type, sizeof g->type, "%s", type != NULL ? type :
		    "");
		n = evbuffer_remove(evhttp_request_get_input_buffer(req),
		    g->body, sizeof g->body - 1);
		g->body[n > 0 ? n : 0] = '\0';
	}
	event_base_loopexit(g->base, NULL);
}

/* GET uri from an evhttp on loopback that replies through http.c. */
static void
t_get(const char *uri, struct t_got *g)
{
	struct evhttp			*http;
	struct evhttp_bound_socket	*sock;
	struct evhttp_connection	*evcon;
	struct evhttp_request		*req;
	struct sockaddr_in		 sin;
	socklen_t			 len = sizeof sin;

	memset(g, 0, sizeof *g);
	g->base = event_base_new();
	http = evhttp_new(g->base);
	evhttp_set_gencb(http, t_serve_cb, NULL);
	sock = evhttp_bind_socket_with_handle(http, "127.0.0.1", 0);
	if (sock == NULL || getsockname(evhttp_bound_socket_get_fd(sock),
	    (struct sockaddr *)&sin, &len) == -1) {
		evhttp_free(http);
		event_base_free(g->base);
		return;
	}
	evcon = evhttp_connection_base_new(g->base, NULL, "127.0.0.1",
	    ntohs(sin.sin_port));
	req = evhttp_request_new(t_got_cb, g);
	evhttp_make_request(evcon, req, EVHTTP_REQ_GET, uri);
	event_base_dispatch(g->base);
	evhttp_connection_free(evcon);
	evhttp_free(http);
	event_base_free(g->base);
}

static void
t_replies(void)
{
	struct t_got	g;

	t_get("/", &g);
	T_EQ_INT(g.status, 200);
	T_EQ_STR(g.type, "application/json");
	T_EQ_STR(g.body, "{\"a\":1}\n");
	t_get("/null", &g);
	T_EQ_INT(g.status, 500);
	T_EQ_STR(g.type, "application/json");
	T_TRUE(strstr(g.body, "{\"error\":{\"code\":\"internal\"") == g.body);
}

int
main(void)
{
	t_replies();
	t_query();
	t_path_id();
	t_bearer();
	t_fail();
	return (t_done());
}
