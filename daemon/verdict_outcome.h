/*
 * verdict_outcome.h: a verdict's classes, and what a report decided as C
 * values, for the code that keeps runs (run.c, runs.c) without the
 * engine itself.
 */
#ifndef VERDICT_OUTCOME_H
#define VERDICT_OUTCOME_H

#include <stddef.h>

#include <jansson.h>

/* What held a run back: a verdict's class, and an observation's. */
enum verdict_class {
	VERDICT_UNKNOWN, VERDICT_DISK, VERDICT_NETWORK, VERDICT_CPU,
	VERDICT_CONTENTION, VERDICT_CACHE, VERDICT_LATENCY, VERDICT_CLIENT
};
#define VERDICT_NCLASSES	8

/* What a report decided, for the code that keeps runs. */
#define VERDICT_HINTS_MAX	16
#define VERDICT_KIND_MAX	24
struct verdict_outcome {
	enum verdict_class cls;
	double		 client_rate;	/* bytes/s, NAN unknown */
	char		 summary[300];	/* the verdict's sentence */
	char		 hint[VERDICT_HINTS_MAX][VERDICT_KIND_MAX];	/* kinds */
	size_t		 nhint;
};

/* "disk", "network", ... as reports and the API name a class. */
const char *verdict_class_name(enum verdict_class);
/* The class s names; VERDICT_UNKNOWN for any other string or NULL. */
enum verdict_class verdict_class_parse(const char *s);
/* What a report (verdict_report's, saved and read back) decided. */
void	verdict_outcome_read(const json_t *report, struct verdict_outcome *out);
/* The sentence of a verdict and the kinds of its hints into out. */
void	verdict_outcome_words(const json_t *verdict, const json_t *hints,
	    struct verdict_outcome *out);

#endif /* VERDICT_OUTCOME_H */
