/*
 * np.h: the few definitions every part of nasperf shares.
 */
#ifndef NP_H
#define NP_H

/* Marks an unused parameter (tmux says __unused; musl's struct stat has it). */
#define NP_UNUSED	__attribute__((unused))

/* Checks printf-style arguments. */
#define NP_PRINTF(f, a)	__attribute__((format(printf, f, a)))

/* Number of elements of an array. */
#define NP_NITEMS(a)	(sizeof (a) / sizeof (a)[0])

#endif /* NP_H */
