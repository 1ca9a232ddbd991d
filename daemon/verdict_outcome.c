/*
 * verdict_outcome.c: the verdict classes' names, and what a report
 * decided as C values (struct verdict_outcome), for the code that keeps
 * runs: from the engine as it makes a report, or from a saved report.
 * Pure: the unit tests and the fuzz target of a run link it alone.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "verdict_outcome.h"

static const char *const verdict_class_names[VERDICT_NCLASSES] = {
	"unknown", "disk", "network", "cpu", "contention", "cache", "latency",
	"client"
};

const char *
verdict_class_name(enum verdict_class c)
{
	return ((unsigned)c < VERDICT_NCLASSES ? verdict_class_names[c] :
	    "unknown");
}

enum verdict_class
verdict_class_parse(const char *s)
{
	size_t	i;

	for (i = 0; s != NULL && i < VERDICT_NCLASSES; i++)
		if (strcmp(s, verdict_class_names[i]) == 0)
			return ((enum verdict_class)i);
	return (VERDICT_UNKNOWN);
}

void
verdict_outcome_words(const json_t *ver, const json_t *hints,
    struct verdict_outcome *out)
{
	const json_t	*hint;
	const char	*s;
	size_t		 i;

	s = json_string_value(json_object_get(ver, "summary"));
	snprintf(out->summary, sizeof out->summary, "%s", s != NULL ? s : "");
	out->nhint = 0;
	json_array_foreach(hints, i, hint) {
		s = json_string_value(json_object_get(hint, "kind"));
		if (s != NULL && out->nhint < VERDICT_HINTS_MAX)
			snprintf(out->hint[out->nhint++], VERDICT_KIND_MAX,
			    "%s", s);
	}
}

void
verdict_outcome_read(const json_t *report, struct verdict_outcome *out)
{
	const json_t	*ver = json_object_get(report, "verdict");
	const json_t	*rate = json_object_get(report, "client_rate");

	memset(out, 0, sizeof *out);
	out->cls = verdict_class_parse(json_string_value(json_object_get(ver,
	    "class")));
	out->client_rate = json_is_number(rate) ? json_number_value(rate) :
	    NAN;
	verdict_outcome_words(ver, json_object_get(report, "hints"), out);
}

