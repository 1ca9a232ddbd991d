/*
 * softirqs.h: softirq counts per core from /proc/softirqs.
 *
 * The header names the CPU columns ("CPU0 CPU1 ..."); each row is one
 * softirq (HI, TIMER, NET_TX, NET_RX, BLOCK, ...), whatever the kernel has.
 */
#ifndef SOFTIRQS_H
#define SOFTIRQS_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define SOFTIRQS_NAME_MAX	16
#define SOFTIRQS_MAX_CPUS	1024

struct softirqs_row {
	char		name[SOFTIRQS_NAME_MAX];	/* "NET_RX" */
};

struct softirqs {
	size_t		 ncpus;		/* columns */
	int		*cpus;		/* column i is CPU cpus[i] */
	size_t		 cpucap;
	size_t		 nrows;
	struct softirqs_row *rows;
	uint64_t	*counts;	/* nrows * ncpus, row-major */
	size_t		 rowcap;
	size_t		 skipped;	/* malformed rows */
};

/* Initialise an empty table. */
void	softirqs_init(struct softirqs *);
/* Release its memory; sq may be reused after softirqs_init. */
void	softirqs_clear(struct softirqs *);
/* Read <root>/proc/softirqs; -1 and errno (ENOENT: not available). */
int	softirqs_read(const struct probe_root *, struct probe_buf *,
	    struct softirqs *, const char **errstr);
/* Parse softirqs text; EINVAL when the CPU header is missing or bad. */
int	softirqs_parse(const char *, size_t, struct softirqs *,
	    const char **);
/* The count of softirq name on column col, or -1 (and *v untouched). */
int	softirqs_get(const struct softirqs *, const char *name, size_t col,
	    uint64_t *v);

#endif /* SOFTIRQS_H */
