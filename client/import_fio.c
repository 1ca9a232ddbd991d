/*
 * import_fio.c: fio's JSON output (--output-format=json or json+).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "importers.h"
#include "importers_lex.h"
#include "np.h"

#define IMP_FIO_GROUPS	64	/* stonewalled groups told apart */
#define IMP_FIO_START_WINDOW	(7 * 86400.0)	/* s a job_start may lie back */

/* Get key of o as a non-negative number; -1 when missing or not one. */
static int
imp_json_u64(json_t *o, const char *key, uint64_t *v)
{
	json_t	*j;

	if ((j = json_object_get(o, key)) == NULL)
		return (-1);
	if (json_is_integer(j) && json_integer_value(j) >= 0) {
		*v = (uint64_t)json_integer_value(j);
		return (0);
	}
	if (json_is_real(j) && json_real_value(j) >= 0 &&
	    json_real_value(j) < 1.8e19) {
		*v = (uint64_t)json_real_value(j);
		return (0);
	}
	return (-1);
}

/* Bytes one side of a fio job moved: io_bytes, else io_kbytes; or -1. */
static int
imp_fio_io(json_t *side, uint64_t *io)
{
	if (imp_json_u64(side, "io_bytes", io) == 0)
		return (0);
	if (imp_json_u64(side, "io_kbytes", io) == -1 ||
	    *io > UINT64_MAX / 1024)
		return (-1);
	*io *= 1024;
	return (0);
}

/* Append s to the label, separated by ", ". */
static void
imp_label_add(struct importers_result *r, const char *s)
{
	size_t	n = strlen(r->label);

	if (n + 1 >= sizeof r->label)
		return;
	snprintf(r->label + n, sizeof r->label - n, "%s%s",
	    n > 0 ? ", " : "", s);
}

/* Parse fio's JSON output. */
int
importers_fio_json(const char *text, size_t len, struct importers_result *r,
    const char **errstr)
{
	static const char	*sides[] = { "read", "write" };
	const char		*p, *end, *name;
	json_t			*root = NULL, *jobs, *job, *side, *jv;
	json_error_t		 jerr;
	struct {
		long long	id;
		uint64_t	ms;
	}			 groups[IMP_FIO_GROUPS];
	size_t			 ngroups = 0, i, g, s;
	uint64_t		 io, ms, ios, bw, ts, start_ms = 0, total_ms;
	uint64_t		 rbytes = 0, wbytes = 0, bs = 0;
	long long		 gid;
	int			 rc = -1, mixed_bs = 0, have_rate = 0;

	if (errstr != NULL)
		*errstr = NULL;
	if (text == NULL) {
		text = "";
		len = 0;
	}
	end = text + len;
	imp_clear(r, "fio");
	for (p = text; p < end; p++)
		if (*p == '{' && (p == text || p[-1] == '\n'))
			break;
	if (p >= end) {
		rc = imp_fail(errstr, ENOENT, "no fio JSON output found");
		goto out;
	}
	root = json_loadb(p, (size_t)(end - p), JSON_DISABLE_EOF_CHECK, &jerr);
	if (root == NULL) {
		rc = imp_fail(errstr, EINVAL, "fio JSON is truncated or "
		    "malformed");
		goto out;
	}
	if (!json_is_object(root) ||
	    !json_is_array(jobs = json_object_get(root, "jobs"))) {
		rc = imp_fail(errstr, EINVAL, "fio JSON without a jobs array");
		goto out;
	}
	if (json_array_size(jobs) == 0) {
		rc = imp_fail(errstr, EINVAL, "fio JSON with no jobs");
		goto out;
	}
	for (i = 0; i < json_array_size(jobs); i++) {
		job = json_array_get(jobs, i);
		if (!json_is_object(job)) {
			rc = imp_fail(errstr, EINVAL, "fio job is not an "
			    "object");
			goto out;
		}
		if ((name = json_string_value(json_object_get(job,
		    "jobname"))) != NULL)
			imp_label_add(r, name);
		jv = json_object_get(job, "groupid");
		gid = json_is_integer(jv) ? json_integer_value(jv) : 0;
		for (g = 0; g < ngroups && groups[g].id != gid; g++)
			;
		if (g == ngroups) {
			if (ngroups < IMP_FIO_GROUPS) {
				groups[ngroups].id = gid;
				groups[ngroups++].ms = 0;
			} else
				g = ngroups - 1;	/* fold the rest */
		}
		if (imp_json_u64(job, "job_start", &ms) == 0 && ms > 0 &&
		    (start_ms == 0 || ms < start_ms))
			start_ms = ms;
		for (s = 0; s < NP_NITEMS(sides); s++) {
			side = json_object_get(job, sides[s]);
			if (side == NULL)
				continue;
			if (!json_is_object(side)) {
				rc = imp_fail(errstr, EINVAL, "fio job side "
				    "is not an object");
				goto out;
			}
			if (imp_fio_io(side, &io) == -1) {
				rc = imp_fail(errstr, EINVAL, "fio job without "
				    "io_bytes");
				goto out;
			}
			if (s == 0)
				rbytes += io;
			else
				wbytes += io;
			if (io == 0)
				continue;
			if (imp_json_u64(side, "runtime", &ms) == 0 &&
			    ms > groups[g].ms)
				groups[g].ms = ms;
			if (imp_json_u64(side, "total_ios", &ios) == 0) {
				r->has_ops = 1;
				r->ops += ios;
				if (ios == 0 || io % ios != 0 ||
				    (bs != 0 && bs != io / ios))
					mixed_bs = 1;
				else
					bs = io / ios;
			} else
				mixed_bs = 1;
			if (imp_json_u64(side, "bw_bytes", &bw) == 0) {
				have_rate = 1;
				r->rate += (double)bw;
			}
		}
	}
	r->has_bytes = 1;
	r->bytes = rbytes + wbytes;
	if (rbytes > 0 && wbytes > 0)
		r->op = IMPORTERS_OP_MIXED;
	else if (rbytes > 0)
		r->op = IMPORTERS_OP_READ;
	else if (wbytes > 0)
		r->op = IMPORTERS_OP_WRITE;
	if (bs != 0 && !mixed_bs) {
		r->has_block_size = 1;
		r->block_size = bs;
	}
	r->has_rate = have_rate && r->rate > 0;
	for (total_ms = 0, g = 0; g < ngroups; g++)
		total_ms += groups[g].ms;
	if (total_ms > 0) {
		r->has_seconds = 1;
		r->seconds = (double)total_ms / 1000;
	}
	if (imp_json_u64(root, "timestamp_ms", &ts) == 0) {
		r->has_end = 1;
		r->end = (double)ts / 1000;
	} else if (imp_json_u64(root, "timestamp", &ts) == 0) {
		r->has_end = 1;
		r->end = (double)ts;
	}
	/*
	 * job_start (fio 3.36 on) is read from job_start_clock_id, which need
	 * not be the wall clock: only a start in the week before the end is.
	 */
	if (start_ms > 0 && r->has_end && (double)start_ms / 1000 <= r->end &&
	    (double)start_ms / 1000 >= r->end - IMP_FIO_START_WINDOW) {
		r->has_start = 1;
		r->start = (double)start_ms / 1000;
	} else if (r->has_end && r->has_seconds) {
		r->has_start = 1;
		r->start = r->end - r->seconds;
	}
	rc = 0;
out:
	if (rc == -1)
		imp_clear(r, "fio");
	json_decref(root);
	return (rc);
}
