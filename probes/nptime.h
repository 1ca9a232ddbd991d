/*
 * nptime.h: the clocks, as every part of nasperf reads them.
 */
#ifndef NPTIME_H
#define NPTIME_H

#include <sys/time.h>

#include <stddef.h>
#include <time.h>

/* Now on the real-time clock, in Unix seconds. */
double	nptime_real(void);
/* Now on CLOCK_MONOTONIC, in seconds. */
double	nptime_mono(void);
/* Seconds from t (a CLOCK_MONOTONIC reading) to now. */
double	nptime_since(const struct timespec *t);
/*
 * Unix time t in local time as strftime(3) fmt gives it ("%Y-%m-%d
 * %H:%M:%S"), or as whole Unix seconds when it cannot be.  Returns out.
 */
char	*nptime_local(char *out, size_t outsz, const char *fmt, double t);
/* secs (>= 0) as a timeval for a timer, into tv; returns tv. */
struct timeval *nptime_timeval(double secs, struct timeval *tv);

#endif /* NPTIME_H */
