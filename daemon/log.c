/*
 * log.c: stderr or syslog, with libevent's messages routed in.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include <event2/event.h>

#include "log.h"

static int		 log_foreground = 1;
static int		 log_verbose;
static const char	*log_ident = "nasperfd";

/* Write one message at priority pri, with an optional errno text. */
static void
log_vwrite(int pri, const char *emsg, const char *fmt, va_list ap)
{
	char	msg[1024];

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (log_foreground) {
		if (emsg != NULL)
			fprintf(stderr, "%s: %s: %s\n", log_ident, msg, emsg);
		else
			fprintf(stderr, "%s: %s\n", log_ident, msg);
		fflush(stderr);
		return;
	}
	if (emsg != NULL)
		syslog(pri, "%s: %s", msg, emsg);
	else
		syslog(pri, "%s", msg);
}

/* libevent's log callback: its warnings and errors are ours. */
static void
log_event_cb(int severity, const char *msg)
{
	if (severity == EVENT_LOG_DEBUG)
		log_debug("libevent: %s", msg);
	else if (severity == EVENT_LOG_MSG)
		log_info("libevent: %s", msg);
	else
		log_warnx("libevent: %s", msg);
}

void
log_init(const char *ident, int foreground, int verbose)
{
	log_ident = ident;
	log_foreground = foreground;
	log_verbose = verbose;
	if (!foreground)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
	event_set_log_callback(log_event_cb);
}

void
log_setverbose(int verbose)
{
	log_verbose = verbose;
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;
	int	oerrno = errno;

	va_start(ap, fmt);
	log_vwrite(LOG_WARNING, strerror(oerrno), fmt, ap);
	va_end(ap);
	errno = oerrno;
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_WARNING, NULL, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_INFO, NULL, fmt, ap);
	va_end(ap);
}

void
log_notice(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_NOTICE, NULL, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	log_vwrite(LOG_DEBUG, NULL, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;
	int	oerrno = errno;

	va_start(ap, fmt);
	log_vwrite(LOG_CRIT, strerror(oerrno), fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_CRIT, NULL, fmt, ap);
	va_end(ap);
	exit(1);
}
