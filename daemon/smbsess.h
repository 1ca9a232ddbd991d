/*
 * smbsess.h: the SMB sessions smbd is serving, from smbstatus(1) run as a
 * child process off the event loop.
 *
 * smbstatus is run every samba.sessions_interval seconds and when a run
 * opens; its JSON form ("smbstatus -b --json", Samba 4.16 on) is used
 * where it works, its text table otherwise.  Sessions seen in the last
 * SMBSESS_KEEP seconds are remembered, so a run whose client has already
 * disconnected is still tied to the smbd process that served it.
 */
#ifndef SMBSESS_H
#define SMBSESS_H

#include <stddef.h>

#include <jansson.h>

#include "smbstatus.h"

#define SMBSESS_KEEP		900.0	/* seconds a gone session is kept */
#define SMBSESS_MAX_OUTPUT	(4U << 20)	/* bytes read from smbstatus */
#define SMBSESS_TIMEOUT		10.0	/* seconds before smbstatus is killed */

struct daemon;

/* Start polling (nothing when samba.sessions_interval is 0); -1 on ENOMEM. */
int	smbsess_init(struct daemon *, char **cause);
/* Stop polling and kill a running smbstatus. */
void	smbsess_shutdown(struct daemon *);
/* Poll as soon as the child running now, if any, has finished. */
void	smbsess_poll_now(struct daemon *);
/*
 * The session from client address addr seen between from and to (server
 * clock, with one polling interval of slack either side): one served by
 * one of the npids smbd pids if there is such (the run's path knows
 * them), else any from addr; the most recent if several.  0, or -1 when
 * none was seen.
 */
int	smbsess_find(const struct daemon *, const char *addr, const int *pids,
	    size_t npids, double from, double to,
	    struct smbstatus_session *out);
/*
 * The sessions for /v1/topology: {"available", "source", "polled",
 * "error", "sessions": [...]}.
 */
json_t	*smbsess_json(const struct daemon *);
/*
 * Parse "smbstatus -b --json" output into st (emptied first).  -1 with a
 * static *errstr and EINVAL when it is not JSON or has no "sessions",
 * ENOMEM.
 */
int	smbsess_parse_json(const char *buf, size_t len, struct smbstatus *st,
	    const char **errstr);

#endif /* SMBSESS_H */
