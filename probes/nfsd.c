/*
 * nfsd.c: /proc/net/rpc/nfsd.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nfsd.h"

const char *const nfsd_proc3_names[NFSD3_NPROCS] = {
	"null", "getattr", "setattr", "lookup", "access", "readlink", "read",
	"write", "create", "mkdir", "symlink", "mknod", "remove", "rmdir",
	"rename", "link", "readdir", "readdirplus", "fsstat", "fsinfo",
	"pathconf", "commit"
};

/* Parse up to max numbers of a line into v; how many, or -1 on garbage. */
static int
nfsd_scan(const char *s, const char *eol, uint64_t *v, size_t max)
{
	size_t	n = 0;
	uint64_t discard;

	for (;;) {
		while (s < eol && *s == ' ')
			s++;
		if (s >= eol)
			break;
		if (probe_scan_u64(&s, n < max ? &v[n] : &discard) == -1 ||
		    (s < eol && *s != ' '))
			return (-1);
		n++;
	}
	return ((int)(n > max ? max : n));
}

/* Parse an op-count line: its declared count, then the counts. */
static int
nfsd_scan_ops(const char *s, const char *eol, struct nfsd_ops *o)
{
	uint64_t	decl;
	int		n;

	memset(o, 0, sizeof *o);
	if (probe_scan_u64(&s, &decl) == -1 || s > eol ||
	    (n = nfsd_scan(s, eol, o->v, NFSD_OPS_MAX)) == -1)
		return (-1);
	o->declared = decl > 4096 ? 4096 : (size_t)decl;
	o->n = (size_t)n < o->declared ? (size_t)n : o->declared;
	return (0);
}

/* Parse the "th" line: threads, fullcnt, then the old histogram. */
static int
nfsd_scan_th(const char *s, const char *eol, struct nfsd *nf)
{
	char	*ep;
	size_t	 i;

	if (probe_scan_u64(&s, &nf->th_threads) == -1 ||
	    probe_scan_u64(&s, &nf->th_fullcnt) == -1 || s > eol)
		return (-1);
	nf->th_nhist = 0;
	for (i = 0; i < NP_NITEMS(nf->th_hist); i++) {
		while (s < eol && *s == ' ')
			s++;
		if (s >= eol || *s < '0' || *s > '9')
			break;
		nf->th_hist[i] = strtod(s, &ep);
		/* "1e999" is infinity, which JSON cannot carry. */
		if (ep == s || ep > eol || !isfinite(nf->th_hist[i]))
			break;
		s = ep;
		nf->th_nhist++;
	}
	return (0);
}

/* Parse /proc/net/rpc/nfsd text into nf. */
int
nfsd_parse(const char *text, size_t len, struct nfsd *nf, const char **errstr)
{
	const char	*line, *eol, *end, *sp;
	uint64_t	 v[8];
	int		 n;

	if (errstr != NULL)
		*errstr = NULL;
	memset(nf, 0, sizeof *nf);
	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if ((sp = memchr(line, ' ', (size_t)(eol - line))) == NULL)
			continue;
		memset(v, 0, sizeof v);
#define NFSD_LABEL(l) ((size_t)(sp - line) == sizeof (l) - 1 &&	\
	    memcmp(line, (l), sizeof (l) - 1) == 0)
		if (NFSD_LABEL("rc")) {
			if (nfsd_scan(sp, eol, v, 3) == 3) {
				nf->rc_hits = v[0];
				nf->rc_misses = v[1];
				nf->rc_nocache = v[2];
				nf->has |= NFSD_HAS_RC;
			}
		} else if (NFSD_LABEL("fh")) {
			if (nfsd_scan(sp, eol, v, 5) >= 1) {
				nf->fh_stale = v[0];
				nf->has |= NFSD_HAS_FH;
			}
		} else if (NFSD_LABEL("io")) {
			if (nfsd_scan(sp, eol, v, 2) == 2) {
				nf->io_read = v[0];
				nf->io_write = v[1];
				nf->has |= NFSD_HAS_IO;
			}
		} else if (NFSD_LABEL("th")) {
			if (nfsd_scan_th(sp, eol, nf) == 0)
				nf->has |= NFSD_HAS_TH;
		} else if (NFSD_LABEL("ra")) {
			if (nfsd_scan(sp, eol, v, 1) >= 1) {
				nf->ra_size = v[0];
				nf->has |= NFSD_HAS_RA;
			}
		} else if (NFSD_LABEL("net")) {
			if ((n = nfsd_scan(sp, eol, v, 4)) >= 3) {
				nf->net_count = v[0];
				nf->net_udp = v[1];
				nf->net_tcp = v[2];
				nf->net_tcpconn = v[3];
				nf->has |= NFSD_HAS_NET;
			}
		} else if (NFSD_LABEL("rpc")) {
			if (nfsd_scan(sp, eol, v, 5) == 5) {
				nf->rpc_calls = v[0];
				nf->rpc_badcalls = v[1];
				nf->rpc_badfmt = v[2];
				nf->rpc_badauth = v[3];
				nf->rpc_badclnt = v[4];
				nf->has |= NFSD_HAS_RPC;
			}
		} else if (NFSD_LABEL("proc2")) {
			if (nfsd_scan_ops(sp, eol, &nf->proc2) == 0)
				nf->has |= NFSD_HAS_PROC2;
		} else if (NFSD_LABEL("proc3")) {
			if (nfsd_scan_ops(sp, eol, &nf->proc3) == 0)
				nf->has |= NFSD_HAS_PROC3;
		} else if (NFSD_LABEL("proc4")) {
			if (nfsd_scan_ops(sp, eol, &nf->proc4) == 0)
				nf->has |= NFSD_HAS_PROC4;
		} else if (NFSD_LABEL("proc4ops")) {
			if (nfsd_scan_ops(sp, eol, &nf->proc4ops) == 0)
				nf->has |= NFSD_HAS_PROC4OPS;
		}
#undef NFSD_LABEL
	}
	if (nf->has == 0) {
		if (errstr != NULL)
			*errstr = "no known line";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Read <root>/proc/net/rpc/nfsd. */
int
nfsd_read(const struct probe_root *root, struct probe_buf *b,
    struct nfsd *nf, const char **errstr)
{
	if (errstr != NULL)
		*errstr = NULL;
	memset(nf, 0, sizeof *nf);
	if (probe_read(root, PROBE_PROC, "net/rpc/nfsd", b) == -1)
		return (-1);
	return (nfsd_parse(b->p, b->len, nf, errstr));
}
