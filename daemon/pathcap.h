/*
 * pathcap.h: the measured capacity of each client's network path.
 *
 * Each synthetic test that completes (synth.c) is kept per client address
 * and direction, in STATE_DIR/paths.json, as the capacity of that path; a
 * run's report asks for it (runs.c).  The last test of a client and
 * direction replaces the one before; past PATHCAP_MAX the oldest goes.
 */
#ifndef PATHCAP_H
#define PATHCAP_H

#include <stdint.h>

#define PATHCAP_FILE	"paths.json"
#define PATHCAP_MAX	256		/* clients and directions kept */

struct daemon;

/* Read STATE_DIR/paths.json when there is one; -1 only on ENOMEM. */
int	pathcap_init(struct daemon *, char **cause);
/* Forget the paths (they are on disk already). */
void	pathcap_shutdown(struct daemon *);
/*
 * Keep a completed test of addr (IPv4 or IPv6 text; an IPv4-mapped IPv6
 * address counts as its IPv4 one) in one direction (upload: client to
 * server): bytes moved in seconds by streams, and save the file.
 */
void	pathcap_record(struct daemon *, const char *addr, int upload,
	    uint64_t bytes, double seconds, unsigned streams);
/*
 * The capacity of the path to addr in one direction into *bytes_per_s,
 * and when it was measured (Unix seconds) into *when: 0, or -1 (ENOENT)
 * when none was measured.
 */
int	pathcap_get(const struct daemon *, const char *addr, int upload,
	    double *bytes_per_s, double *when);
/* An IPv4-mapped IPv6 address as IPv4 text, so that a client has one name. */
const char *pathcap_addr_norm(const char *addr);

#endif /* PATHCAP_H */
