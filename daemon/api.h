/*
 * api.h: nasperfd's HTTP API: routing, authentication, the allow-list,
 * limits, and the JSON error shape.
 */
#ifndef API_H
#define API_H

#include <jansson.h>

#include "cfg.h"
#include "snapshot.h"

struct daemon;
struct topology;
struct evhttp_request;
struct evkeyvalq;

/*
 * Start the HTTP server on the configured address; -1 with an allocated
 * *cause when it cannot bind.
 */
int	api_init(struct daemon *, char **cause);
/* Apply limits of a new configuration to the running server. */
void	api_reconfigure(struct daemon *);
/* Answer pending requests and stop the server. */
void	api_shutdown(struct daemon *);
/*
 * The snapshot options of the running configuration: groups and pats are
 * the caller's arrays that opts points into.
 */
void	api_snapshot_opts(struct daemon *, struct snapshot_opts *opts,
	    struct snapshot_group *groups,
	    const char *(*pats)[CFG_MAX_PATTERNS]);
/*
 * The client's address into out ("?" when unknown, and then -1).
 */
int	api_peer(struct evhttp_request *, char *out, size_t outsz);
/*
 * The box's topology, its Samba part from samba.config; caller frees with
 * topology_free().  NULL with errno on ENOMEM.
 */
struct topology *api_topology_read(struct daemon *);
/* Now on the real-time clock, in Unix seconds. */
double	api_now(void);
/*
 * Query parameter key of q as a number into *out, left as it is when
 * absent; -1 with a message in msg when it is not a number.
 */
int	api_query_num(struct evkeyvalq *q, const char *key, double *out,
	    char *msg, size_t msgsz);
/* Reply with a JSON body.  Steals the reference to body. */
void	api_reply(struct evhttp_request *, int status, json_t *body);
/* Reply {"error":{"code","message"}} with the status given. */
void	api_error(struct evhttp_request *, int status, const char *code,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif /* API_H */
