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
#endif /* API_H */
