/*
 * unraid.c: md_unraid's /proc/mdstat, the key=value form.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unraid.h"

/* Parse all of s as an int of at most 100000; -1 otherwise. */
static int
unraid_int(const char *s, int *v)
{
	uint64_t	u;

	if (probe_str_u64(s, &u) == -1 || u > 100000)
		return (-1);
	*v = (int)u;
	return (0);
}

/* Copy val into dst of size dstsz, or leave dst alone and -1 if too long. */
static int
unraid_str(char *dst, const char *val, size_t dstsz)
{
	if (strlen(val) >= dstsz)
		return (-1);
	strcpy(dst, val);
	return (0);
}

/* The operation an mdResyncAction names ("check P Q", "recon D5"). */
static enum unraid_op
unraid_op(const char *action)
{
	size_t	len = strcspn(action, " ");

	if (len == 0)
		return (UNRAID_OP_NONE);
	if (len == 5 && strncmp(action, "check", 5) == 0)
		return (UNRAID_OP_CHECK);
	if (len == 5 && strncmp(action, "recon", 5) == 0)
		return (UNRAID_OP_RECON);
	if (len == 5 && strncmp(action, "clear", 5) == 0)
		return (UNRAID_OP_CLEAR);
	return (UNRAID_OP_OTHER);
}

/* One array-wide key; 0 if understood, -1 if not. */
static int
unraid_array_key(struct unraid *u, const char *key, const char *val)
{
	static const struct {
		const char	*key;
		size_t		 off;
	} ints[] = {
		{ "mdNumDisks", offsetof(struct unraid, num_disks) },
		{ "mdNumDisabled", offsetof(struct unraid, num_disabled) },
		{ "mdNumInvalid", offsetof(struct unraid, num_invalid) },
		{ "mdNumMissing", offsetof(struct unraid, num_missing) },
		{ "mdResyncCorr", offsetof(struct unraid, correcting) },
	}, u64s[] = {
		{ "mdResyncSize", offsetof(struct unraid, resync_size) },
		{ "mdResyncPos", offsetof(struct unraid, resync_pos) },
		{ "mdResyncDt", offsetof(struct unraid, resync_dt) },
		{ "mdResyncDb", offsetof(struct unraid, resync_db) },
		{ "sbSynced2", offsetof(struct unraid, last_check) },
		{ "sbSyncErrs", offsetof(struct unraid, sync_errs) },
	};
	uint64_t	running;
	size_t		i;

	for (i = 0; i < NP_NITEMS(ints); i++)
		if (strcmp(key, ints[i].key) == 0)
			return (unraid_int(val, (int *)((char *)u +
			    ints[i].off)));
	for (i = 0; i < NP_NITEMS(u64s); i++)
		if (strcmp(key, u64s[i].key) == 0)
			return (probe_str_u64(val, (uint64_t *)((char *)u +
			    u64s[i].off)));
	if (strcmp(key, "mdVersion") == 0)
		return (unraid_str(u->md_version, val, sizeof u->md_version));
	if (strcmp(key, "mdState") == 0)
		return (unraid_str(u->state, val, sizeof u->state));
	if (strcmp(key, "mdResyncAction") == 0)
		return (unraid_str(u->action, val, sizeof u->action));
	if (strcmp(key, "mdResync") == 0) {
		if (probe_str_u64(val, &running) == -1)
			return (-1);
		u->running = running != 0;
		return (0);
	}
	/* The other sb* and md* keys are known and not needed. */
	return (strncmp(key, "sb", 2) == 0 || strncmp(key, "md", 2) == 0 ?
	    0 : -1);
}

/* One per-slot key ("rdevName" of "rdevName.3"); 0 if understood. */
static int
unraid_slot_key(struct unraid_slot *s, const char *key, const char *val)
{
	if (strcmp(key, "diskName") == 0)
		return (unraid_str(s->disk_name, val, sizeof s->disk_name));
	if (strcmp(key, "diskSize") == 0)
		return (probe_str_u64(val, &s->disk_size));
	if (strcmp(key, "diskState") == 0)
		return (unraid_int(val, &s->disk_state));
	if (strcmp(key, "diskId") == 0)
		return (unraid_str(s->disk_id, val, sizeof s->disk_id));
	if (strcmp(key, "rdevStatus") == 0)
		return (unraid_str(s->status, val, sizeof s->status));
	if (strcmp(key, "rdevName") == 0)
		return (unraid_str(s->dev, val, sizeof s->dev));
	if (strcmp(key, "rdevReads") == 0)
		return (probe_str_u64(val, &s->reads));
	if (strcmp(key, "rdevWrites") == 0)
		return (probe_str_u64(val, &s->writes));
	if (strcmp(key, "rdevNumErrors") == 0)
		return (probe_str_u64(val, &s->errors));
	/* diskNumber, rdevNumber, rdevOffset, rdevSize, rdevId, ... */
	return (0);
}

/* One "key=value" or "key.N=value" line (NUL-terminated, no newline). */
static int
unraid_line(struct unraid *u, char *line)
{
	char		*eq, *dot, *end;
	unsigned long	 n;

	if ((eq = strchr(line, '=')) == NULL || eq == line)
		return (-1);
	*eq = '\0';
	if ((dot = strchr(line, '.')) == NULL)
		return (unraid_array_key(u, line, eq + 1));
	*dot = '\0';
	errno = 0;
	n = strtoul(dot + 1, &end, 10);
	if (end == dot + 1 || *end != '\0' || errno != 0 ||
	    n >= UNRAID_SLOTS)
		return (-1);
	u->slots[n].seen = 1;
	return (unraid_slot_key(&u->slots[n], line, eq + 1));
}

/* Roles, counts, progress and speed from what the lines gave. */
static void
unraid_finish(struct unraid *u)
{
	struct unraid_slot	*s;
	size_t			 i;

	for (i = 0; i < UNRAID_SLOTS; i++) {
		s = &u->slots[i];
		/* A slot is assigned if a disk is there or was expected. */
		if (s->dev[0] == '\0' && s->disk_size == 0 &&
		    s->disk_id[0] == '\0')
			continue;
		if (i == UNRAID_SLOT_P || i == UNRAID_SLOT_Q) {
			s->role = UNRAID_PARITY;
			u->nparity++;
		} else {
			s->role = UNRAID_DATA;
			u->ndata++;
		}
	}
	u->op = unraid_op(u->action);
	if (u->running && u->resync_size > 0)
		u->resync_pct = 100.0 * (double)u->resync_pos /
		    (double)u->resync_size;
	if (u->running && u->resync_dt > 0)
		u->speed_kib = u->resync_db / u->resync_dt;
}

/* Parse md_unraid's key=value /proc/mdstat into u. */
int
unraid_parse(const char *buf, size_t len, struct unraid *u,
    const char **errstr)
{
	const char	*s = buf, *end = buf + len, *nl;
	char		 line[256];
	size_t		 n, i;

	memset(u, 0, sizeof *u);
	u->num_disks = u->num_disabled = u->num_invalid = u->num_missing = -1;
	u->resync_pct = -1;
	for (i = 0; i < UNRAID_SLOTS; i++)
		u->slots[i].disk_state = -1;
	if (errstr != NULL)
		*errstr = NULL;
	for (; s < end; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		n = (size_t)(nl - s);
		if (n == 0)
			continue;
		if (n >= sizeof line || memchr(s, '\0', n) != NULL) {
			u->skipped++;
			continue;
		}
		memcpy(line, s, n);
		line[n] = '\0';
		if (unraid_line(u, line) == -1)
			u->skipped++;
	}
	if (u->state[0] == '\0') {
		if (errstr != NULL)
			*errstr = "no mdState: not md_unraid's mdstat";
		errno = EINVAL;
		return (-1);
	}
	unraid_finish(u);
	return (0);
}

/* Read proc/mdstat; ENOENT unless md_unraid wrote it. */
int
unraid_read(const struct probe_root *root, struct probe_buf *b,
    struct unraid *u, const char **errstr)
{
	memset(u, 0, sizeof *u);
	if (errstr != NULL)
		*errstr = "cannot read /proc/mdstat";
	if (probe_read(root, PROBE_PROC, "mdstat", b) == -1)
		return (-1);
	if (unraid_parse(b->p, b->len, u, errstr) == -1) {
		errno = ENOENT;
		return (-1);
	}
	return (0);
}
