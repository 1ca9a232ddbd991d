/*
 * show.h: readable tables of the daemon's JSON answers for a terminal.
 *
 * Each function takes the parsed body of one endpoint (borrowed) and prints
 * aligned tables to fp.  Fields that are null print as "-".  Units: MB/s is
 * 10^6 bytes per second; sizes say GB (10^9) or GiB where they say so.
 */
#ifndef SHOW_H
#define SHOW_H

#include <stdio.h>

#include <jansson.h>

/*
 * The string at key of o with its control characters escaped (no escape
 * sequence from the network reaches the terminal), or "-" when it is
 * missing, null or empty; it lives until 16 more calls (show.c).
 */
const char	*show_str(const json_t *o, const char *key);
/*
 * Who made run (a run or transfer summary), as its SMB session names
 * them: "user@machine" in out, escaped; NULL when no session told.
 */
const char	*show_who(const json_t *run, char *out, size_t outsz);

/* GET /v1/counters, optionally with the "rates" object of ?interval= (show_counters.c). */
void	show_counters(FILE *fp, json_t *body);
/* GET /v1/topology (show_topology.c). */
void	show_topology(FILE *fp, json_t *body);

#endif /* SHOW_H */
