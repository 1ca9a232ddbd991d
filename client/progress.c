/*
 * progress.c: the progress line of a command that takes more than a
 * second, on a terminal only.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "client.h"

static int progress_on;		/* a progress line is drawn */

void
client_progress(const struct client *c, const char *fmt, ...)
{
	va_list	ap;

	if (fmt == NULL) {
		client_progress_clear();
		return;
	}
	if (c->json || !isatty(2))
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_on = 1;
}

void
client_progress_clear(void)
{
	if (!progress_on)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_on = 0;
}

int
client_progress_shown(void)
{
	return (progress_on);
}
