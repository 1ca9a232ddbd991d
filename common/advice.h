/*
 * advice.h: what to try next after a verdict, for a NAS reviewer: one
 * table, by verdict class and by the kind of a likely cause, that the
 * text and HTML run reports and nasperf diagnose all read.
 */
#ifndef ADVICE_H
#define ADVICE_H

#include <jansson.h>

/* The advice for a verdict class ("disk", "network"...), or NULL. */
const char	*advice_class(const char *);

/* The advice for a likely cause's kind ("smb_signing"...), or NULL. */
const char	*advice_hint(const char *);

/*
 * Append to next (an array of strings) what to try next after a verdict
 * of class cls (may be NULL) with the likely causes hints (borrowed; an
 * array of objects with a "kind", may be NULL): each cause's advice, then
 * the class's, every text only once in next.  0, or -1 (ENOMEM).
 */
int		 advice_add(json_t *next, const char *cls,
		    const json_t *hints);

#endif /* ADVICE_H */
