/*
 * nptime.h: the clocks, as every part of nasperf reads them.
 */
#ifndef NPTIME_H
#define NPTIME_H

#include <time.h>

/* Now on the real-time clock, in Unix seconds. */
double	nptime_real(void);
/* Now on CLOCK_MONOTONIC, in seconds. */
double	nptime_mono(void);
/* Seconds from t (a CLOCK_MONOTONIC reading) to now. */
double	nptime_since(const struct timespec *t);

#endif /* NPTIME_H */
