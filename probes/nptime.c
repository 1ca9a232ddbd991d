/*
 * nptime.c: the clocks in seconds as doubles.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "nptime.h"

double
nptime_real(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

double
nptime_mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

double
nptime_since(const struct timespec *t)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((double)(now.tv_sec - t->tv_sec) +
	    (double)(now.tv_nsec - t->tv_nsec) / 1e9);
}

char *
nptime_local(char *out, size_t outsz, const char *fmt, double t)
{
	time_t		tt = (time_t)t;
	struct tm	tm;

	if (localtime_r(&tt, &tm) == NULL || strftime(out, outsz, fmt,
	    &tm) == 0)
		snprintf(out, outsz, "%.0f", t);
	return (out);
}

struct timeval *
nptime_timeval(double secs, struct timeval *tv)
{
	tv->tv_sec = (time_t)secs;
	tv->tv_usec = (suseconds_t)((secs - (double)tv->tv_sec) * 1e6);
	return (tv);
}
