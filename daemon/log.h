/*
 * log.h: logging for nasperfd, in the manner of the OpenBSD daemons' log.c.
 *
 * In the foreground messages go to stderr, otherwise to syslog(3) with
 * LOG_DAEMON, which the journal collects.  libevent's own messages are
 * routed in.  Lowercase, no final period: "what: object: why".
 */
#ifndef LOG_H
#define LOG_H

#include "np.h"

/* Start logging as ident; foreground logs to stderr; verbose enables debug. */
void	log_init(const char *ident, int foreground, int verbose);
/* Turn debug messages on or off (a reload may change log.level). */
void	log_setverbose(int verbose);
/* A warning with ": strerror(errno)" appended. */
void	log_warn(const char *, ...) NP_PRINTF(1, 2);
/* A warning as given. */
void	log_warnx(const char *, ...) NP_PRINTF(1, 2);
/* Something an admin cares about: listening, reloaded, stopped. */
void	log_info(const char *, ...) NP_PRINTF(1, 2);
/* A normal but significant event (a failed authentication): notice. */
void	log_notice(const char *, ...) NP_PRINTF(1, 2);
/* Detail, shown only with -d or log.level debug. */
void	log_debug(const char *, ...) NP_PRINTF(1, 2);
/* Log with strerror(errno) and exit 1: start-up failures only. */
void	fatal(const char *, ...) NP_PRINTF(1, 2) __attribute__((noreturn));
/* Log and exit 1: start-up failures only. */
void	fatalx(const char *, ...) NP_PRINTF(1, 2) __attribute__((noreturn));

#endif /* LOG_H */
