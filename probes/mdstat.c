/*
 * mdstat.c: /proc/mdstat and the md sysfs attributes.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdstat.h"

#define MDSTAT_LINE_MAX	4096

/* Parse "sda1[26](S)(W)" into m; -1 when it is not a member. */
static int
mdstat_member(const char *tok, struct mdstat_member *m)
{
	const char	*br, *p;
	char		*endp;
	size_t		 len;
	long		 idx;

	if ((br = strchr(tok, '[')) == NULL || br == tok)
		return (-1);
	len = (size_t)(br - tok);
	if (len >= sizeof m->name)
		return (-1);
	errno = 0;
	idx = strtol(br + 1, &endp, 10);
	if (endp == br + 1 || *endp != ']' || errno != 0 || idx < 0 ||
	    idx > 100000)
		return (-1);
	memset(m, 0, sizeof *m);
	memcpy(m->name, tok, len);
	m->index = (int)idx;
	m->slot = -1;
	for (p = endp + 1; *p == '('; p += 3) {
		if (p[1] == '\0' || p[2] != ')')
			return (-1);
		switch (p[1]) {
		case 'F':
			m->flags |= MDSTAT_F_FAULTY;
			break;
		case 'S':
			m->flags |= MDSTAT_F_SPARE;
			break;
		case 'W':
			m->flags |= MDSTAT_F_WRITEMOSTLY;
			break;
		case 'R':
			m->flags |= MDSTAT_F_REPLACEMENT;
			break;
		case 'E':
			m->flags |= MDSTAT_F_ERROR;
			break;
		case 'J':
			m->flags |= MDSTAT_F_JOURNAL;
			break;
		default:
			return (-1);
		}
	}
	return (*p == '\0' ? 0 : -1);
}

/* "md2 : active (auto-read-only) raid5 sda5[0] ...": a new array. */
static int
mdstat_header(char *line, struct mdstat_array *a)
{
	char	*save = NULL, *tok;
	int	 n = 0;

	memset(a, 0, sizeof *a);
	a->raid_disks = a->active_disks = a->degraded = -1;
	a->sync_pct = a->sync_finish_min = -1;
	for (tok = strtok_r(line, " \t", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t", &save), n++) {
		if (n == 0) {
			if (strlen(tok) >= sizeof a->name)
				return (-1);
			strcpy(a->name, tok);
		} else if (n == 1) {
			if (strcmp(tok, ":") != 0)
				return (-1);
		} else if (n == 2) {
			if (strcmp(tok, "active") == 0)
				a->active = 1;
			else if (strcmp(tok, "inactive") != 0)
				return (-1);
		} else if (tok[0] == '(' && a->nmembers == 0) {
			snprintf(a->readonly, sizeof a->readonly, "%.*s",
			    (int)strcspn(tok + 1, ")"), tok + 1);
		} else if (strchr(tok, '[') == NULL && a->nmembers == 0 &&
		    a->level[0] == '\0') {
			snprintf(a->level, sizeof a->level, "%s", tok);
		} else if (a->nmembers < MDSTAT_MAX_MEMBERS) {
			if (mdstat_member(tok, &a->members[a->nmembers]) == 0)
				a->nmembers++;
		}
	}
	return (n >= 3 ? 0 : -1);
}

/* "8776306368 blocks super 1.2 level 5, 64k chunk, ... [4/4] [UUUU]". */
static void
mdstat_geometry(char *line, struct mdstat_array *a)
{
	char		*save = NULL, *tok, *prev = NULL, *endp;
	unsigned long	 n, m;
	size_t		 i, len;

	for (tok = strtok_r(line, " \t,", &save); tok != NULL;
	    prev = tok, tok = strtok_r(NULL, " \t,", &save)) {
		if (strcmp(tok, "blocks") == 0 && prev != NULL)
			a->blocks = strtoull(prev, NULL, 10);
		else if (prev != NULL && strcmp(prev, "super") == 0)
			snprintf(a->super, sizeof a->super, "%s", tok);
		else if ((strcmp(tok, "chunk") == 0 ||
		    strcmp(tok, "chunks") == 0) && prev != NULL)
			a->chunk_kib = strtoull(prev, NULL, 10);
		else if (tok[0] == '[' && strchr(tok, '/') != NULL) {
			n = strtoul(tok + 1, &endp, 10);
			if (*endp != '/')
				continue;
			m = strtoul(endp + 1, &endp, 10);
			if (*endp != ']' || n > 100000 || m > 100000)
				continue;
			a->raid_disks = (int)n;
			a->active_disks = (int)m;
		} else if (tok[0] == '[' && strspn(tok + 1, "U_E") > 0 &&
		    tok[strlen(tok) - 1] == ']') {
			len = strlen(tok) - 2;
			if (len >= sizeof a->status)
				len = sizeof a->status - 1;
			memcpy(a->status, tok + 1, len);
			a->status[len] = '\0';
			for (i = 0; i < len; i++)
				if (a->status[i] != 'U' && a->status[i] != 'E' &&
				    a->status[i] != '_')
					a->status[0] = '\0';
		}
	}
}

/*
 * The number md prints at s ("11.7", "0.3"), or -1.  strtod() alone takes
 * "nan", "inf" and "1e999" too, which JSON cannot carry.
 */
static double
mdstat_decimal(const char *s)
{
	double	v;

	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return (-1);
	v = strtod(s, NULL);
	return (isfinite(v) ? v : -1);
}

/*
 * "[==>...]  recovery = 11.7% (985024/8388544) finish=0.3min speed=3K/sec"
 * or "resync=DELAYED": 1 if the line was one of those.
 */
static int
mdstat_progress(const char *line, struct mdstat_array *a)
{
	static const char *const actions[] = {
		"recovery", "resync", "check", "reshape", "repair"
	};
	const char	*p, *q;
	size_t		 i, len;
	uint64_t	 done, total;

	for (p = line; *p == ' ' || *p == '\t'; p++)
		;
	for (i = 0; i < sizeof actions / sizeof actions[0]; i++) {
		len = strlen(actions[i]);
		/* "resync=DELAYED" and "resync=PENDING" */
		if (strncmp(p, actions[i], len) == 0 && p[len] == '=') {
			snprintf(a->sync_action, sizeof a->sync_action, "%s",
			    actions[i]);
			snprintf(a->sync_wait, sizeof a->sync_wait, "%.*s",
			    (int)strcspn(p + len + 1, " \t"), p + len + 1);
			return (1);
		}
		if ((q = strstr(p, actions[i])) == NULL || (q != p &&
		    q[-1] != ' '))
			continue;
		q += len;
		while (*q == ' ')
			q++;
		if (*q != '=')
			continue;
		snprintf(a->sync_action, sizeof a->sync_action, "%s",
		    actions[i]);
		a->sync_pct = mdstat_decimal(q + 1);
		/* "(799180032/2925434432)" */
		if ((q = strchr(q, '(')) != NULL && (q++,
		    probe_scan_u64(&q, &done) == 0) && *q++ == '/' &&
		    probe_scan_u64(&q, &total) == 0 && *q == ')') {
			a->sync_done = done;
			a->sync_total = total;
		}
		if ((q = strstr(p, "finish=")) != NULL)
			a->sync_finish_min = mdstat_decimal(q + 7);
		if ((q = strstr(p, "speed=")) != NULL)
			a->sync_speed_kib = strtoull(q + 6, NULL, 10);
		return (1);
	}
	return (0);
}

/*
 * QNAP's system arrays are RAID1 with 24 or 32 slots of which the disks
 * present use the first few: "[24/4] [UUUU____...]".  They were made that
 * way and are whole, though md (and sysfs "degraded", 20 here) counts the
 * empty slots as missing.  1 for such an array.
 */
static int
mdstat_slotted(const struct mdstat_array *a)
{
	size_t	u;

	if (strcmp(a->level, "raid1") != 0 || a->raid_disks < 16 ||
	    a->active_disks < 2 || a->status[0] == '\0')
		return (0);
	u = strspn(a->status, "U");
	return (u == (size_t)a->active_disks &&
	    a->status[u + strspn(a->status + u, "_")] == '\0');
}

/* Missing members: slots minus working ones, but see mdstat_slotted(). */
static void
mdstat_degraded(struct mdstat_array *a)
{
	if (a->raid_disks < 0 || a->active_disks < 0)
		return;
	if (mdstat_slotted(a) || a->active_disks >= a->raid_disks)
		a->degraded = 0;
	else
		a->degraded = a->raid_disks - a->active_disks;
}

/* Parse /proc/mdstat text into md, one array per "mdN :" line. */
int
mdstat_parse(const char *buf, size_t len, struct mdstat *md,
    const char **errstr)
{
	const char		*s = buf, *end = buf + len;
	char			 line[MDSTAT_LINE_MAX];
	struct mdstat_array	*a = NULL;

	memset(md, 0, sizeof *md);
	if (errstr != NULL)
		*errstr = NULL;
	while (probe_line(&s, end, line, sizeof line) == 0) {
		if (strncmp(line, "Personalities", 13) == 0) {
			snprintf(md->personalities, sizeof md->personalities,
			    "%s", strchr(line, ':') != NULL ?
			    strchr(line, ':') + 1 : "");
			continue;
		}
		if (strncmp(line, "unused devices", 14) == 0 ||
		    strspn(line, " \t") == strlen(line))
			continue;
		if (line[0] != ' ' && line[0] != '\t') {
			if (a != NULL)
				mdstat_degraded(a);
			a = NULL;
			if (md->narrays == MDSTAT_MAX_ARRAYS ||
			    mdstat_header(line, &md->arrays[md->narrays]) ==
			    -1) {
				md->skipped++;
				continue;
			}
			a = &md->arrays[md->narrays++];
			continue;
		}
		if (a == NULL) {
			md->skipped++;
			continue;
		}
		if (strstr(line, "blocks") != NULL)
			mdstat_geometry(line, a);
		else if (strstr(line, "bitmap:") != NULL)
			a->bitmap = 1;
		else if (!mdstat_progress(line, a))
			md->skipped++;
	}
	if (a != NULL)
		mdstat_degraded(a);
	if (md->personalities[0] == '\0' && md->narrays == 0) {
		if (errstr != NULL)
			*errstr = "no Personalities line and no arrays";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Merge <root>/sys/block/<md>/md/ into a; nothing changes where absent. */
static void
mdstat_sysfs(const struct probe_root *root, struct mdstat_array *a)
{
	char		 rel[160], v[64];
	uint64_t	 u;
	size_t		 i;
	const char	*s;

	snprintf(rel, sizeof rel, "block/%s/md/level", a->name);
	if (probe_read_attr(root, PROBE_SYS, rel, v, sizeof v) == -1)
		return;
	a->from_sysfs = 1;
	if (v[0] != '\0')
		(void)probe_strlcpy(a->level, v, sizeof a->level);
	snprintf(rel, sizeof rel, "block/%s/md/raid_disks", a->name);
	if (probe_attr_u64(root, PROBE_SYS, rel, &u) == 0 && u < 100000)
		a->raid_disks = (int)u;
	snprintf(rel, sizeof rel, "block/%s/md/chunk_size", a->name);
	if (probe_attr_u64(root, PROBE_SYS, rel, &u) == 0 && u > 0)
		a->chunk_kib = u / 1024;
	snprintf(rel, sizeof rel, "block/%s/md/array_state", a->name);
	(void)probe_read_attr(root, PROBE_SYS, rel, a->array_state,
	    sizeof a->array_state);
	snprintf(rel, sizeof rel, "block/%s/md/sync_action", a->name);
	if (probe_read_attr(root, PROBE_SYS, rel, v, sizeof v) == 0 &&
	    v[0] != '\0' && (strcmp(v, "idle") != 0 ||
	    a->sync_action[0] == '\0'))
		(void)probe_strlcpy(a->sync_action, v, sizeof a->sync_action);
	/* sysfs "degraded" is right but for QNAP's slotted arrays. */
	snprintf(rel, sizeof rel, "block/%s/md/degraded", a->name);
	if (probe_attr_u64(root, PROBE_SYS, rel, &u) == 0 && u < 100000)
		a->degraded = mdstat_slotted(a) ? 0 : (int)u;
	for (i = 0; i < a->nmembers; i++) {
		snprintf(rel, sizeof rel, "block/%s/md/dev-%s/state", a->name,
		    a->members[i].name);
		(void)probe_read_attr(root, PROBE_SYS, rel,
		    a->members[i].state, sizeof a->members[i].state);
		snprintf(rel, sizeof rel, "block/%s/md/dev-%s/slot", a->name,
		    a->members[i].name);
		if (probe_read_attr(root, PROBE_SYS, rel, v, sizeof v) == 0 &&
		    (s = v, probe_scan_u64(&s, &u) == 0) && u < 100000)
			a->members[i].slot = (int)u;
	}
}

/* Read proc/mdstat and merge each array's sysfs md directory. */
int
mdstat_read(const struct probe_root *root, struct probe_buf *b,
    struct mdstat *md, const char **errstr)
{
	size_t	i;

	if (probe_read(root, PROBE_PROC, "mdstat", b) == -1) {
		memset(md, 0, sizeof *md);
		if (errstr != NULL)
			*errstr = "cannot read /proc/mdstat";
		return (-1);
	}
	if (mdstat_parse(b->p, b->len, md, errstr) == -1)
		return (-1);
	for (i = 0; i < md->narrays; i++)
		mdstat_sysfs(root, &md->arrays[i]);
	return (0);
}

/* Find an array by name. */
const struct mdstat_array *
mdstat_find(const struct mdstat *md, const char *name)
{
	size_t	i;

	for (i = 0; i < md->narrays; i++)
		if (strcmp(md->arrays[i].name, name) == 0)
			return (&md->arrays[i]);
	return (NULL);
}
