/*
 * baseline.c: the box's capability baseline, merged from finished disk
 * tests' documents and read back for the verdict engine.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "baseline.h"
#include "jsonget.h"
#include "log.h"
#include "state.h"

/* Set key of object o to x when x was measured. */
static void
bl_set_pos(json_t *o, const char *key, double x)
{
	if (isfinite(x) && x > 0)
		json_object_set_new(o, key, json_real(x));
}

/* The entry called key of object o, made when missing; NULL on ENOMEM. */
static json_t *
bl_child(json_t *o, const char *key)
{
	json_t	*c = json_object_get(o, key);

	if (!json_is_object(c)) {
		if ((c = json_object()) == NULL ||
		    json_object_set_new(o, key, c) == -1)
			return (NULL);
	}
	return (c);
}

/* Copy member key of from to to, when it is there. */
static void
bl_copy(json_t *to, const json_t *from, const char *key, const char *as)
{
	json_t	*v = json_object_get(from, key);

	if (v != NULL)
		json_object_set(to, as, v);
}

/*
 * The entry called name of parent (a disk or a volume), made when
 * missing, with the date and the test of its figures; NULL on ENOMEM.
 */
static json_t *
bl_entry(json_t *parent, const char *name, json_t *date, json_t *test)
{
	json_t	*e;

	if ((e = bl_child(parent, name)) == NULL)
		return (NULL);
	json_object_set(e, "date", date);
	json_object_set(e, "test", test);
	return (e);
}

/* Merge one disk of a test's document. */
static int
bl_disk(json_t *disks, const json_t *k, json_t *date, json_t *test)
{
	static const char *const zones[] = { "outer", "middle", "inner" };
	const json_t	*zs = json_object_get(k, "zones");
	const char	*name = json_string_value(json_object_get(k, "name"));
	json_t		*e, *z;
	size_t		 i;

	if (name == NULL)
		return (0);
	if ((e = bl_entry(disks, name, date, test)) == NULL)
		return (-1);
	bl_copy(e, k, "model", "model");
	bl_copy(e, k, "serial", "serial");
	bl_copy(e, k, "firmware", "firmware");
	bl_copy(e, k, "size_bytes", "size_bytes");
	if (jget_num(json_object_get(zs, "outer"), "bytes_per_s") > 0) {
		if ((z = bl_child(e, "seq_read_bytes_per_s")) == NULL)
			return (-1);
		for (i = 0; i < sizeof zones / sizeof zones[0]; i++)
			bl_set_pos(z, zones[i], jget_num(json_object_get(zs,
			    zones[i]), "bytes_per_s"));
	}
	bl_set_pos(e, "concurrent_read_bytes_per_s",
	    jget_num(json_object_get(k, "concurrent"), "bytes_per_s"));
	bl_set_pos(e, "rand_read_iops_qd1", jget_num(json_object_get(k,
	    "rand_qd1"), "iops"));
	bl_set_pos(e, "rand_read_iops_qd32", jget_num(json_object_get(k,
	    "rand_qd32"), "iops"));
	/* Figures that cannot be the disk's own say so where they stay. */
	if (json_array_size(json_object_get(k, "implausible")) > 0)
		bl_copy(e, k, "implausible", "implausible");
	else
		json_object_del(e, "implausible");
	return (0);
}

/* Merge one volume of a test's document. */
static int
bl_volume(json_t *vols, const json_t *v, json_t *date, json_t *test)
{
	const json_t	*ex = json_object_get(v, "expected");
	const char	*path = json_string_value(json_object_get(v, "path"));
	json_t		*e;

	if (path == NULL)
		return (0);
	if ((e = bl_entry(vols, path, date, test)) == NULL)
		return (-1);
	bl_copy(e, v, "layout", "layout");
	bl_copy(e, v, "fstype", "fstype");
	json_object_set_new(e, "direct",
	    json_boolean(json_is_true(json_object_get(v, "direct"))));
	bl_set_pos(e, "seq_write_bytes_per_s", jget_num(json_object_get(v,
	    "write"), "bytes_per_s"));
	bl_set_pos(e, "seq_read_bytes_per_s", jget_num(json_object_get(v,
	    "read"), "bytes_per_s"));
	bl_set_pos(e, "rand_read_iops_qd32", jget_num(json_object_get(v,
	    "rand_read"), "iops"));
	bl_set_pos(e, "rand_write_iops_qd32", jget_num(json_object_get(v,
	    "rand_write"), "iops"));
	bl_set_pos(e, "expected_read_bytes_per_s", jget_num(ex,
	    "read_bytes_per_s"));
	bl_set_pos(e, "expected_write_bytes_per_s", jget_num(ex,
	    "write_bytes_per_s"));
	return (0);
}

/* Merge a finished test's figures into b; see baseline.h. */
int
baseline_merge(json_t *b, const json_t *doc)
{
	json_t		*date = json_object_get(doc, "ended");
	json_t		*test = json_object_get(doc, "id");
	const json_t	*a;
	json_t		*disks, *vols;
	size_t		 i;

	if (date == NULL || test == NULL)
		return (0);
	json_object_set(b, "updated", date);
	bl_copy(b, doc, "kernel", "kernel");
	bl_copy(b, doc, "firmware", "firmware");
	bl_copy(b, doc, "box", "box");
	if ((disks = bl_child(b, "disks")) == NULL ||
	    (vols = bl_child(b, "volumes")) == NULL)
		return (-1);
	a = json_object_get(doc, "disks");
	for (i = 0; i < json_array_size(a); i++)
		if (bl_disk(disks, json_array_get(a, i), date, test) == -1)
			return (-1);
	a = json_object_get(doc, "volumes");
	for (i = 0; i < json_array_size(a); i++)
		if (bl_volume(vols, json_array_get(a, i), date, test) == -1)
			return (-1);
	return (0);
}

/* Read DIR/baseline.json; see baseline.h. */
json_t *
baseline_load(const char *dir)
{
	json_error_t	 jerr;
	json_t		*b;
	char		 path[4200];

	snprintf(path, sizeof path, "%s/%s", dir, BASELINE_FILE);
	if ((b = json_load_file(path, 0, &jerr)) == NULL) {
		if (access(path, F_OK) == 0)
			log_warnx("disktest: %s: %s; starting a new baseline",
			    path, jerr.text);
		return (NULL);
	}
	if (!json_is_object(b)) {
		log_warnx("disktest: %s: not a JSON object; starting a new "
		    "baseline", path);
		json_decref(b);
		return (NULL);
	}
	return (b);
}

/* Write b to DIR/baseline.json; see baseline.h. */
int
baseline_save(const char *dir, const json_t *b)
{
	char	*s;
	int	 rc;

	if ((s = json_dumps(b, JSON_INDENT(1) | JSON_SORT_KEYS)) == NULL) {
		errno = ENOMEM;
		return (-1);
	}
	rc = state_write(dir, BASELINE_FILE, s, strlen(s), 0600);
	free(s);
	return (rc);
}

/* A disk's or a volume's figures; see baseline.h. */
int
baseline_get(const json_t *b, const char *name, double *rd, double *wr,
    double *iops, double *when)
{
	const json_t	*e;

	*rd = *wr = *iops = 0;
	if (when != NULL)
		*when = 0;
	if ((e = json_object_get(json_object_get(b, "volumes"), name)) !=
	    NULL) {
		*rd = jget_num(e, "seq_read_bytes_per_s");
		*wr = jget_num(e, "seq_write_bytes_per_s");
	} else if ((e = json_object_get(json_object_get(b, "disks"), name)) !=
	    NULL)
		*rd = jget_num(json_object_get(e, "seq_read_bytes_per_s"),
		    "outer");
	else {
		errno = ENOENT;
		return (-1);
	}
	*iops = jget_num(e, "rand_read_iops_qd32");
	if (when != NULL)
		*when = jget_num(e, "date");
	return (0);
}
