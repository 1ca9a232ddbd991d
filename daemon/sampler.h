/*
 * sampler.h: the counter snapshot taken at a fixed interval, into the
 * history, whatever clients do.
 *
 * One EV_PERSIST timer; each tick reads /proc and /sys (a millisecond or
 * two) and records the snapshot in the history.  Every
 * sampler.interval_ms, and every sampler.run_interval_ms while a run is
 * open, so that a copy of a few seconds has samples enough for a verdict.  The history is written
 * to STATE_DIR/history.jsonl at shutdown and every few minutes, and read
 * back at start: the first sample after a restart is marked as a gap.
 */
#ifndef SAMPLER_H
#define SAMPLER_H

#include <stddef.h>

struct daemon;
struct history;

struct sampler_stats {
	double		interval;	/* seconds, configured */
	unsigned long	ticks;		/* timer ticks so far */
	double		jitter_mean_ms;	/* |actual - planned| start of a tick */
	double		jitter_max_ms;
	double		cost_mean_ms;	/* time one snapshot took */
	double		cost_max_ms;
	size_t		memory_bytes;	/* the history and both snapshots */
	size_t		full, coarse;	/* samples held */
	double		oldest, newest;	/* Unix seconds, 0 when empty */
	double		loaded_until;	/* newest sample read back at start */
};

/* Load the saved history and start the timer; -1 with an allocated *cause. */
int	sampler_init(struct daemon *, char **cause);
/* Take a sample now, out of schedule (a run begins or ends); -1 on ENOMEM. */
int	sampler_now(struct daemon *);
/*
 * Sample every sampler.run_interval_ms while fast (a run is open), else
 * every sampler.interval_ms; the change applies at once.
 */
void	sampler_pace(struct daemon *, int fast);
/* Apply a reloaded configuration's interval (sizes take effect at restart). */
void	sampler_reconfigure(struct daemon *);
/* Save the history and stop the timer. */
void	sampler_shutdown(struct daemon *);
/* The history; borrowed. */
const struct history *sampler_history(const struct daemon *);
/* Timing and memory figures. */
void	sampler_stats(const struct daemon *, struct sampler_stats *);
/* Write the history to the state directory now; -1 and errno. */
int	sampler_save(struct daemon *);

#endif /* SAMPLER_H */
