/*
 * runpath.c: a run's connections and serving processes, from sock_diag
 * and /proc, and what they did between two snapshots.
 */
#include "config.h"

#include <sys/socket.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <ifaddrs.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cfg.h"
#include "daemon.h"
#include "inetdiag.h"
#include "jsonget.h"
#include "np.h"
#include "nptime.h"
#include "pidfiles.h"
#include "pidstat.h"
#include "procgroup.h"
#include "runpath.h"
#include "smbconf.h"
#include "sockowner.h"
#include "topology.h"
#include "verdict.h"

#define RUNPATH_MAX_PORTS	RUNPATH_PORTS_MAX
#define RUNPATH_MAX_PROCS	16	/* processes read per snapshot */
#define RUNPATH_MAX_OTHERS	4	/* busiest processes off the path */
#define RUNPATH_MAX_FILES	32	/* open files kept per snapshot */
#define RUNPATH_MAX_VOLUMES	4	/* volumes named in a report */
#define RUNPATH_CLOSED		256	/* destroyed connections remembered */
#define RUNPATH_CLOSED_SECS	120.0	/* for so long */

/* A connection whose socket was destroyed, and its last counters. */
struct runpath_gone {
	char		local[INET6_ADDRSTRLEN], remote[INET6_ADDRSTRLEN];
	unsigned	lport, rport;
	uint64_t	acked, received;
	double		when;		/* Unix seconds */
};

struct runpath_closed {
	struct runpath_gone	v[RUNPATH_CLOSED];	/* a ring */
	size_t			n;			/* written so far */
};

/* Whether port is one of smbd's. */
static int
runpath_smb_port(const struct daemon *d, unsigned port)
{
	size_t	i;

	for (i = 0; i < d->nsmb_ports; i++)
		if (d->smb_ports[i] == port)
			return (1);
	return (port == 445 || port == 139);
}

size_t
runpath_file_ports(const struct daemon *d, unsigned *ports)
{
	static const unsigned	 fixed[] = RUNPATH_PORTS;
	size_t			 n, i;

	for (n = 0; n < NP_NITEMS(fixed); n++)
		ports[n] = fixed[n];
	for (i = 0; i < d->nsmb_ports && n < RUNPATH_MAX_PORTS - 1; i++)
		if (d->smb_ports[i] != 445 && d->smb_ports[i] != 139)
			ports[n++] = d->smb_ports[i];
	return (n);
}

/* The service ports, smbd's own and the data port when it listens. */
static size_t
runpath_ports(const struct daemon *d, unsigned *ports)
{
	size_t	n = runpath_file_ports(d, ports);

	if (d->synth_port != 0)
		ports[n++] = d->synth_port;
	return (n);
}

void
runpath_refresh(struct daemon *d)
{
	struct smbconf	*sc;
	const char	*errstr;
	size_t		 i;

	if ((sc = calloc(1, sizeof *sc)) == NULL)
		return;
	if (smbconf_read(&d->root, d->cfg->samba_config, sc, &errstr) == 0) {
		for (i = 0; i < sc->nports && i < NP_NITEMS(d->smb_ports); i++)
			d->smb_ports[i] = sc->ports[i];
		d->nsmb_ports = i;
	} else
		d->nsmb_ports = 0;	/* 445 and 139 */
	free(sc);
}

const char *
runpath_service(const struct daemon *d, unsigned port)
{
	if (d->synth_port != 0 && port == d->synth_port)
		return ("synth");
	if (runpath_smb_port(d, port))
		return ("smb");
	switch (port) {
	case 2049:
		return ("nfs");
	case 548:
		return ("afp");
	case 3260:
		return ("iscsi");
	}
	return ("other");
}

/*
 * The interface holding local address addr (text), into out; "" when no
 * interface has it.
 */
static void
runpath_addr_nic(const char *addr, char *out, size_t outsz)
{
	struct ifaddrs		*ifs, *i;
	struct in6_addr		 a6;
	struct in_addr		 a4;
	int			 v6;

	out[0] = '\0';
	if (inet_pton(AF_INET, addr, &a4) == 1)
		v6 = 0;
	else if (inet_pton(AF_INET6, addr, &a6) == 1) {
		v6 = 1;
		/* A v4-mapped address is the v4 address's interface's. */
		if (IN6_IS_ADDR_V4MAPPED(&a6)) {
			memcpy(&a4, &a6.s6_addr[12], sizeof a4);
			v6 = 0;
		}
	} else
		return;
	if (getifaddrs(&ifs) == -1)
		return;
	for (i = ifs; i != NULL; i = i->ifa_next) {
		if (i->ifa_addr == NULL)
			continue;
		if ((!v6 && i->ifa_addr->sa_family == AF_INET &&
		    memcmp(&((struct sockaddr_in *)(void *)i->ifa_addr)->
		    sin_addr, &a4, sizeof a4) == 0) ||
		    (v6 && i->ifa_addr->sa_family == AF_INET6 &&
		    memcmp(&((struct sockaddr_in6 *)(void *)i->ifa_addr)->
		    sin6_addr, &a6, sizeof a6) == 0)) {
			snprintf(out, outsz, "%s", i->ifa_name);
			break;
		}
	}
	freeifaddrs(ifs);
}

/*
 * The interface a connection from local to remote goes over, into out:
 * the one holding local, but the loopback one when the client is the box
 * itself (remote is an address of its own), whichever address it used.
 */
static void
runpath_nic(const char *local, const char *remote, char *out, size_t outsz)
{
	struct ifaddrs	*ifs, *i;

	runpath_addr_nic(remote, out, outsz);
	if (out[0] == '\0') {
		runpath_addr_nic(local, out, outsz);
		return;
	}
	out[0] = '\0';
	if (getifaddrs(&ifs) == -1)
		return;
	for (i = ifs; i != NULL; i = i->ifa_next)
		if (i->ifa_flags & IFF_LOOPBACK) {
			snprintf(out, outsz, "%s", i->ifa_name);
			break;
		}
	freeifaddrs(ifs);
}

/*
 * Every process's CPU ticks now, as [[pid, ticks, processor, comm], ...],
 * to find the busiest processes off the path between two snapshots.
 */
static json_t *
runpath_box(const struct daemon *d, struct probe_buf *b)
{
	static const char *const	 all[] = { "*" };
	const struct procgroup_spec	 spec = { "all", all, 1, 0 };
	const struct procgroup_proc	*p;
	struct procgroup		 pg;
	const char			*errstr;
	json_t				*a;
	size_t				 i;

	procgroup_init(&pg);
	if (procgroup_read(&d->root, b, &spec, 1, &pg, &errstr) == -1 ||
	    pg.ngroups < 1 || (a = json_array()) == NULL) {
		procgroup_clear(&pg);
		return (NULL);
	}
	for (i = 0; i < pg.groups[0].nprocs; i++) {
		p = &pg.groups[0].procs[i];
		json_array_append_new(a, json_pack("[i,I,i,s]", p->pid,
		    (json_int_t)p->ticks, p->processor, p->comm));
	}
	procgroup_clear(&pg);
	return (a);
}

/* Whether files holds an entry for path. */
static int
runpath_has_file(const json_t *files, const char *path)
{
	const json_t	*f;
	size_t		 i;

	json_array_foreach(files, i, f)
		if (json_is_string(json_object_get(f, "path")) &&
		    strcmp(json_string_value(json_object_get(f, "path")),
		    path) == 0)
			return (1);
	return (0);
}

/*
 * Whether a file a server holds open may be data rather than its own
 * state: not Samba's tdb and ldb files, logs, pid and lock files, not
 * under /var/log, /var/lib, /var/cache or /run, not a memfd or a file of
 * /proc, /sys or /dev.
 */
static int
runpath_not_state(const char *path)
{
	static const char *const ext[] = { ".tdb", ".ldb", ".log", ".pid",
	    ".lock" };
	static const char *const dirs[] = { "/var/log/", "/var/lib/",
	    "/var/cache/", "/var/run/", "/run/", "/proc/", "/sys/", "/dev/",
	    "/memfd:" };
	const char	*dot, *slash;
	size_t		 i;

	for (i = 0; i < NP_NITEMS(dirs); i++)
		if (strncmp(path, dirs[i], strlen(dirs[i])) == 0)
			return (0);
	slash = strrchr(path, '/');
	if ((dot = strrchr(path, '.')) != NULL && (slash == NULL ||
	    dot > slash))
		for (i = 0; i < NP_NITEMS(ext); i++)
			if (strcmp(dot, ext[i]) == 0)
				return (0);
	/* Samba's messaging locks: lock/msg.lock/PID */
	return (strstr(path, "/msg.lock/") == NULL);
}

/*
 * While runpath_snaps() builds several paths from one reading, what each
 * process is read as (its counters, its open files) is read once: the
 * same smbd, ganesha.nfsd or nfsd threads often serve every client.  The
 * daemon is one thread; the cache lives for one runpath_snaps() call.
 */
static struct {
	int		 on;
	json_t		*procs;		/* "pid" -> the process's JSON */
	struct runpath_pf {
		int		 pid, ok;
		struct pidfiles	 pf;
	}		*files;
	size_t		 nfiles, capfiles;
} runpath_cache;

/* Read pid's open files into pf, once per runpath_snaps() call. */
static int
runpath_pidfiles(const struct daemon *d, int pid, struct pidfiles *pf)
{
	struct runpath_pf	*c;
	size_t			 i, ncap;
	int			 ok;

	for (i = 0; runpath_cache.on && i < runpath_cache.nfiles; i++)
		if (runpath_cache.files[i].pid == pid) {
			*pf = runpath_cache.files[i].pf;
			return (runpath_cache.files[i].ok ? 0 : -1);
		}
	ok = pidfiles_read(&d->root, pid, runpath_not_state, pf) == 0;
	if (!runpath_cache.on)
		return (ok ? 0 : -1);
	if (runpath_cache.nfiles == runpath_cache.capfiles) {
		ncap = runpath_cache.capfiles == 0 ? 8 :
		    runpath_cache.capfiles * 2;
		if ((c = reallocarray(runpath_cache.files, ncap,
		    sizeof *c)) == NULL)
			return (ok ? 0 : -1);
		runpath_cache.files = c;
		runpath_cache.capfiles = ncap;
	}
	c = &runpath_cache.files[runpath_cache.nfiles++];
	c->pid = pid;
	c->ok = ok;
	c->pf = *pf;
	return (ok ? 0 : -1);
}

/*
 * The regular files the serving processes hold open, into files as
 * {"pid", "dev" ("major:minor"), "path"}: what the transfer reads or
 * writes is among them, but for a server's standard streams.
 */
static void
runpath_files(const struct daemon *d, const json_t *procs, json_t *files)
{
	struct pidfiles	 pf;
	const json_t	*p;
	size_t		 i, j;
	char		 dev[32];
	int		 pid, wrapped;

	json_array_foreach(procs, i, p) {
		pid = (int)json_integer_value(json_object_get(p, "pid"));
		if (runpath_pidfiles(d, pid, &pf) == -1)
			continue;
		wrapped = json_is_true(json_object_get(p, "wrapped"));
		for (j = 0; j < pf.n; j++) {
			if (json_array_size(files) >= RUNPATH_MAX_FILES)
				return;
			/*
			 * A server's standard streams are its log, wherever
			 * they were sent; a wrapped command's may be its data
			 * (dd <file).
			 */
			if ((pf.v[j].fd <= 2 && !wrapped) ||
			    runpath_has_file(files, pf.v[j].path))
				continue;
			snprintf(dev, sizeof dev, "%u:%u", pf.v[j].major,
			    pf.v[j].minor);
			json_array_append_new(files, json_pack("{s:i,s:s,s:s,"
			    "s:b}", "pid", pid, "dev", dev, "path",
			    pf.v[j].path, "block", pf.v[j].block));
		}
	}
}

/* Set key to v, a number, when have says the kernel gave it. */
static void
runpath_set_u64(json_t *o, const char *key, int have, uint64_t v)
{
	if (have)
		json_object_set_new(o, key, json_integer((json_int_t)v));
}

/* One connection's tcp_info counters as JSON. */
static json_t *
runpath_tcp(const struct inetdiag_conn *c)
{
	json_t	*o;

	if ((o = json_object()) == NULL)
		return (NULL);
	runpath_set_u64(o, "rtt_us", c->have & INETDIAG_HAVE_RTT, c->rtt_us);
	runpath_set_u64(o, "rttvar_us", c->have & INETDIAG_HAVE_RTT,
	    c->rttvar_us);
	runpath_set_u64(o, "total_retrans", c->have & INETDIAG_HAVE_RTT,
	    c->total_retrans);
	runpath_set_u64(o, "bytes_acked", c->have & INETDIAG_HAVE_BYTES,
	    c->bytes_acked);
	runpath_set_u64(o, "bytes_received", c->have & INETDIAG_HAVE_BYTES,
	    c->bytes_received);
	runpath_set_u64(o, "delivery_rate", c->have & INETDIAG_HAVE_DELIVERY,
	    c->delivery_rate);
	runpath_set_u64(o, "busy_us", c->have & INETDIAG_HAVE_BUSY,
	    c->busy_time_us);
	runpath_set_u64(o, "rwnd_limited_us", c->have & INETDIAG_HAVE_BUSY,
	    c->rwnd_limited_us);
	runpath_set_u64(o, "sndbuf_limited_us", c->have & INETDIAG_HAVE_BUSY,
	    c->sndbuf_limited_us);
	return (o);
}

/* One process's counters as JSON. */
static json_t *
runpath_proc(const struct pidstat *ps)
{
	json_t	*o, *un;

	o = json_pack("{s:i,s:s,s:I,s:I,s:i}", "pid", ps->pid, "comm",
	    ps->comm, "ticks", (json_int_t)ps->ticks, "threads",
	    (json_int_t)ps->threads, "processor", ps->processor);
	if (o == NULL || (un = json_array()) == NULL) {
		json_decref(o);
		return (NULL);
	}
	if (ps->has_sched) {
		json_object_set_new(o, "run_ns", json_integer(
		    (json_int_t)ps->run_ns));
		json_object_set_new(o, "wait_ns", json_integer(
		    (json_int_t)ps->wait_ns));
	} else
		json_array_append_new(un, json_sprintf("schedstat: %s",
		    strerror(ps->sched_errno)));
	if (ps->has_io) {
		json_object_set_new(o, "rchar", json_integer(
		    (json_int_t)ps->rchar));
		json_object_set_new(o, "wchar", json_integer(
		    (json_int_t)ps->wchar));
		json_object_set_new(o, "syscr", json_integer(
		    (json_int_t)ps->syscr));
		json_object_set_new(o, "syscw", json_integer(
		    (json_int_t)ps->syscw));
		json_object_set_new(o, "read_bytes", json_integer(
		    (json_int_t)ps->read_bytes));
		json_object_set_new(o, "write_bytes", json_integer(
		    (json_int_t)ps->write_bytes));
	} else
		json_array_append_new(un, json_sprintf("io: %s",
		    strerror(ps->io_errno)));
	if (ps->has_cgroup) {
		json_object_set_new(o, "cgroup", json_pack("{s:i,s:s,s:o,s:o,"
		    "s:o,s:o}", "version", ps->cgroup.version, "path",
		    ps->cgroup.path, "quota_cores", ps->cgroup.has_quota &&
		    !ps->cgroup.unlimited ? json_real(ps->cgroup.quota_cores) :
		    json_null(), "throttled_ns", ps->cgroup.has_stat ?
		    json_integer((json_int_t)ps->cgroup.throttled_ns) :
		    json_null(), "nr_periods", ps->cgroup.has_stat ?
		    json_integer((json_int_t)ps->cgroup.nr_periods) :
		    json_null(), "nr_throttled", ps->cgroup.has_stat ?
		    json_integer((json_int_t)ps->cgroup.nr_throttled) :
		    json_null()));
		if (!ps->cgroup.has_quota)
			json_array_append_new(un, json_sprintf("cgroup %s: "
			    "its CPU quota could not be read",
			    ps->cgroup.path));
	} else
		json_array_append_new(un, json_sprintf("cgroup: %s",
		    strerror(ps->cgroup_errno)));
	json_object_set_new(o, "unavailable", un);
	return (o);
}

/* Add process pid to procs once. */
static void
runpath_add_proc(const struct daemon *d, struct probe_buf *b, json_t *procs,
    int pid)
{
	struct pidstat	 ps;
	const json_t	*p;
	json_t		*o;
	size_t		 i;
	char		 key[16];

	json_array_foreach(procs, i, p)
		if (json_integer_value(json_object_get(p, "pid")) == pid)
			return;
	if (json_array_size(procs) >= RUNPATH_MAX_PROCS)
		return;
	snprintf(key, sizeof key, "%d", pid);
	if (runpath_cache.on && (p = json_object_get(runpath_cache.procs,
	    key)) != NULL) {
		json_array_append_new(procs, json_deep_copy(p));
		return;
	}
	if (pidstat_read(&d->root, b, pid, &ps) == -1 ||
	    (o = runpath_proc(&ps)) == NULL)
		return;
	if (runpath_cache.on)
		json_object_set_new(runpath_cache.procs, key,
		    json_deep_copy(o));
	json_array_append_new(procs, o);
}

/*
 * Add process pid and its descendants (from each thread's children list,
 * /proc/PID/task/TID/children) to procs, up to RUNPATH_MAX_PROCS.
 */
static void
runpath_tree(const struct daemon *d, struct probe_buf *b, json_t *procs,
    int pid, int depth)
{
	struct dirent	*de;
	DIR		*dir;
	char		 rel[64], *p, *end;
	long		 kids[RUNPATH_MAX_PROCS];
	size_t		 n = 0, i;

	runpath_add_proc(d, b, procs, pid);
	snprintf(rel, sizeof rel, "%d/task", pid);
	if (depth > 8 || (dir = probe_opendir(&d->root, PROBE_PROC, rel)) ==
	    NULL)
		return;
	while ((de = readdir(dir)) != NULL && n < NP_NITEMS(kids)) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(rel, sizeof rel, "%d/task/%.20s/children", pid,
		    de->d_name);
		if (probe_read(&d->root, PROBE_PROC, rel, b) == -1)
			continue;
		for (p = b->p; n < NP_NITEMS(kids); p = end) {
			kids[n] = strtol(p, &end, 10);
			if (end == p || kids[n] <= 0)
				break;
			n++;
		}
	}
	closedir(dir);
	for (i = 0; i < n && json_array_size(procs) < RUNPATH_MAX_PROCS; i++)
		runpath_tree(d, b, procs, (int)kids[i], depth + 1);
}

/* Add b's counters to a (a sum of kernel threads). */
static void
runpath_sum(struct pidstat *a, const struct pidstat *b)
{
	a->ticks += b->ticks;
	a->threads++;
	a->has_sched = a->has_sched && b->has_sched;
	a->run_ns += b->run_ns;
	a->wait_ns += b->wait_ns;
	a->timeslices += b->timeslices;
	a->has_io = a->has_io && b->has_io;
	a->rchar += b->rchar;
	a->wchar += b->wchar;
	a->syscr += b->syscr;
	a->syscw += b->syscw;
	a->read_bytes += b->read_bytes;
	a->write_bytes += b->write_bytes;
}

/*
 * The kernel NFS server's threads, as one process of procs: "nfsd" kernel
 * threads hold no socket a process owns, so the connections to port 2049
 * that no process holds are theirs.  Their counters are summed, its pid is
 * the lowest thread's (a steady key while the pool keeps its size),
 * "threads" says how many, "kernel" that it is the kernel's.  0 when the
 * box runs none.
 */
int
runpath_knfsd(const struct daemon *d, struct probe_buf *b, json_t *procs)
{
	static const char *const	 pats[] = { "nfsd" };
	const struct procgroup_spec	 spec = { "nfsd", pats, 1, 0 };
	const struct procgroup_group	*g;
	struct procgroup		 pg;
	struct pidstat			 sum, ps;
	const char			*errstr;
	json_t				*o;
	size_t				 i, n = 0;

	procgroup_init(&pg);
	if (procgroup_read(&d->root, b, &spec, 1, &pg, &errstr) == -1 ||
	    pg.ngroups < 1) {
		procgroup_clear(&pg);
		return (0);
	}
	g = &pg.groups[0];
	memset(&sum, 0, sizeof sum);
	for (i = 0; i < g->nprocs; i++) {
		if (!g->procs[i].kthread ||
		    pidstat_read(&d->root, b, g->procs[i].pid, &ps) == -1)
			continue;
		if (n++ == 0) {
			sum = ps;	/* its pid, comm, cgroup and errnos */
			sum.threads = 0;
			sum.processor = -1;
		}
		runpath_sum(&sum, &ps);
	}
	procgroup_clear(&pg);
	if (n == 0 || (o = runpath_proc(&sum)) == NULL)
		return (0);
	json_object_set_new(o, "kernel", json_true());
	json_array_append_new(procs, o);
	return (1);
}

/*
 * One reading of the file services' connections (every client's, or
 * client's alone) and of the processes holding their sockets, which the
 * snapshots of the runs open at once share: a scan of every process's
 * descriptors is the costly part.
 */
struct runpath_reading {
	struct inetdiag		 diag;
	struct sockowner	 own;
	int			 diag_errno;	/* 0: the dump was read */
	int			 own_errno;	/* 0: the owners were read */
};

/*
 * The owners of the sockets last looked up for every client, and when: a
 * reading whose sockets they all hold, within RUNPATH_OWNERS_SECS, takes
 * them without scanning every process's descriptors again (a socket
 * rarely changes hands; a new one is looked up at once).
 */
#define RUNPATH_OWNERS_SECS	5.0
static struct {
	struct sockowner	own;
	double			when;
} runpath_owners;

/* Whether runpath_owners holds an owner of every socket of diag. */
static int
runpath_owners_cover(const struct inetdiag *diag, double now)
{
	size_t	i, j;

	if (runpath_owners.when <= 0 || now - runpath_owners.when >
	    RUNPATH_OWNERS_SECS)
		return (0);
	for (i = 0; i < diag->n; i++) {
		if (diag->v[i].inode == 0)
			continue;
		for (j = 0; j < runpath_owners.own.n; j++)
			if (runpath_owners.own.v[j].inode == diag->v[i].inode)
				break;
		if (j == runpath_owners.own.n)
			return (0);
	}
	return (1);
}

/* Copy the owners of src into dst (emptied first); -1 ENOMEM. */
static int
runpath_owners_copy(struct sockowner *dst, const struct sockowner *src)
{
	sockowner_clear(dst);
	if (src->n == 0)
		return (0);
	if ((dst->v = calloc(src->n, sizeof *dst->v)) == NULL)
		return (-1);
	memcpy(dst->v, src->v, src->n * sizeof *dst->v);
	dst->n = dst->cap = src->n;
	dst->unreadable = src->unreadable;
	return (0);
}

/*
 * Read the connections to client (NULL: every client's) and their owners;
 * every client's reading keeps its owners for the next.
 */
static void
runpath_read(struct daemon *d, const char *client, const struct inetdiag *w,
    struct runpath_reading *rd)
{
	unsigned		 ports[RUNPATH_MAX_PORTS];
	uint64_t		*inodes;
	size_t			 nports, i;
	double			 now = nptime_mono();

	memset(rd, 0, sizeof *rd);
	nports = runpath_ports(d, ports);
	/* A reading made already (each dump walks the whole TCP table). */
	if (client == NULL && w != NULL) {
		if (w->n > 0 && (rd->diag.v = calloc(w->n,
		    sizeof *rd->diag.v)) == NULL) {
			rd->diag_errno = ENOMEM;
			return;
		}
		if (w->n > 0)
			memcpy(rd->diag.v, w->v, w->n * sizeof *w->v);
		rd->diag.n = rd->diag.cap = w->n;
	} else if (inetdiag_read(&rd->diag, ports, nports, client) == -1) {
		rd->diag_errno = errno;
		return;
	}
	if (rd->diag.n == 0)
		return;
	if (client == NULL && runpath_owners_cover(&rd->diag, now)) {
		if (runpath_owners_copy(&rd->own, &runpath_owners.own) == -1)
			rd->own_errno = ENOMEM;
		return;
	}
	if ((inodes = calloc(rd->diag.n, sizeof *inodes)) == NULL) {
		rd->own_errno = ENOMEM;
		return;
	}
	for (i = 0; i < rd->diag.n; i++)
		inodes[i] = rd->diag.v[i].inode;
	if (sockowner_read(&d->root, inodes, rd->diag.n, &rd->own) == -1)
		rd->own_errno = errno;
	else if (client == NULL &&
	    runpath_owners_copy(&runpath_owners.own, &rd->own) == 0)
		runpath_owners.when = now;
	free(inodes);
}

/* Free a reading. */
static void
runpath_read_clear(struct runpath_reading *rd)
{
	sockowner_clear(&rd->own);
	inetdiag_clear(&rd->diag);
}

/* Whether text addresses a and b are the same (IPv4-mapped as IPv4). */
static int
runpath_same_addr(const char *a, const char *b)
{
	unsigned char	x[16], y[16];

	if (strcmp(a, b) == 0)
		return (1);
	memset(x, 0, sizeof x);
	memset(y, 0, sizeof y);
	if (strncmp(a, "::ffff:", 7) == 0 && strchr(a + 7, '.') != NULL)
		a += 7;
	if (strncmp(b, "::ffff:", 7) == 0 && strchr(b + 7, '.') != NULL)
		b += 7;
	if (inet_pton(AF_INET, a, x) == 1)
		return (inet_pton(AF_INET, b, y) == 1 && memcmp(x, y, 4) == 0);
	return (inet_pton(AF_INET6, a, x) == 1 && inet_pton(AF_INET6, b, y) ==
	    1 && memcmp(x, y, 16) == 0);
}

/* The snapshot of client's path from a reading; see runpath_snap. */
static json_t *
runpath_snap_of(struct daemon *d, const struct runpath_reading *rd,
    const char *client_addr, int box, int pid)
{
	const struct inetdiag	*diag = &rd->diag;
	const struct sockowner	*own = &rd->own;
	struct probe_buf	 b;
	const struct sockowner_hit *h;
	json_t			*snap, *conns, *procs, *un, *c;
	size_t			 i, j;
	char			 nic[64];
	int			 knfsd = 0;

	snap = json_pack("{s:f,s:s?,s:[],s:[],s:[],s:[]}", "time",
	    nptime_real(), "client", client_addr, "connections", "processes",
	    "files", "unavailable");
	if (snap == NULL)
		return (NULL);
	probe_buf_init(&b);
	if (box)
		json_object_set_new(snap, "box", runpath_box(d, &b));
	probe_buf_free(&b);
	conns = json_object_get(snap, "connections");
	procs = json_object_get(snap, "processes");
	un = json_object_get(snap, "unavailable");
	/* A local run's own process and what it started. */
	if (pid > 0) {
		probe_buf_init(&b);
		runpath_tree(d, &b, procs, pid, 0);
		probe_buf_free(&b);
		json_array_foreach(procs, i, c)
			json_object_set_new(c, "wrapped", json_true());
	}
	if (client_addr == NULL || *client_addr == '\0') {
		json_array_append_new(un, json_string("the client's address "
		    "is unknown"));
		runpath_files(d, procs, json_object_get(snap, "files"));
		return (snap);
	}
	if (rd->diag_errno != 0) {
		json_array_append_new(un, json_sprintf("sock_diag: %s",
		    strerror(rd->diag_errno)));
		return (snap);
	}
	if (rd->own_errno != 0)
		json_array_append_new(un, json_sprintf("socket owners: %s",
		    strerror(rd->own_errno)));
	else if (own->unreadable > 0)
		json_array_append_new(un, json_sprintf("socket owners: %zu "
		    "processes' descriptors could not be read",
		    own->unreadable));
	probe_buf_init(&b);
	for (i = 0; i < diag->n; i++) {
		/*
		 * A time-wait socket (a closing FIN_WAIT2 one) has neither an
		 * inode nor counters: it is the connection already seen, not
		 * another.  A shared reading holds every client's.
		 */
		if ((diag->v[i].inode == 0 && diag->v[i].have == 0) ||
		    !runpath_same_addr(diag->v[i].remote, client_addr))
			continue;
		h = NULL;
		for (j = 0; j < own->n; j++)
			if (own->v[j].inode == diag->v[i].inode) {
				h = &own->v[j];
				break;
			}
		c = json_pack("{s:s,s:i,s:s,s:s,s:i,s:I,s:o,s:o,s:o}", "local",
		    diag->v[i].local, "lport", (int)diag->v[i].lport, "service",
		    runpath_service(d, diag->v[i].lport), "remote",
		    diag->v[i].remote, "rport", (int)diag->v[i].rport, "inode",
		    (json_int_t)diag->v[i].inode, "pid", h != NULL ?
		    json_integer(h->pid) : json_null(), "comm", h != NULL ?
		    json_string(h->comm) : json_null(), "tcp",
		    runpath_tcp(&diag->v[i]));
		json_array_append_new(conns, c);
		if (h != NULL)
			runpath_add_proc(d, &b, procs, h->pid);
		else if (diag->v[i].inode != 0 && strcmp(runpath_service(d,
		    diag->v[i].lport), "nfs") == 0 && knfsd == 0)
			knfsd = runpath_knfsd(d, &b, procs) ? 1 : -1;
		if (h == NULL && knfsd == 1)
			json_object_set_new(c, "kernel", json_true());
		if (json_object_get(snap, "nic") == NULL) {
			runpath_nic(diag->v[i].local, diag->v[i].remote, nic,
			    sizeof nic);
			if (nic[0] != '\0')
				json_object_set_new(snap, "nic",
				    json_string(nic));
		}
	}
	probe_buf_free(&b);
	runpath_files(d, procs, json_object_get(snap, "files"));
	return (snap);
}

json_t *
runpath_snap(struct daemon *d, const char *client_addr, int box, int pid)
{
	struct runpath_reading	 rd;
	json_t			*snap;

	memset(&rd, 0, sizeof rd);
	if (client_addr != NULL && *client_addr != '\0')
		runpath_read(d, client_addr, NULL, &rd);
	snap = runpath_snap_of(d, &rd, client_addr, box, pid);
	runpath_read_clear(&rd);
	return (snap);
}

void
runpath_snaps(struct daemon *d, const char *const *clients, const int *pids,
    size_t n, const struct inetdiag *reading, json_t **snaps)
{
	struct runpath_reading	 rd;
	size_t			 i;

	memset(&rd, 0, sizeof rd);
	if (n > 0)
		runpath_read(d, NULL, reading, &rd);
	runpath_cache.procs = json_object();
	runpath_cache.on = runpath_cache.procs != NULL;
	for (i = 0; i < n; i++)
		snaps[i] = runpath_snap_of(d, &rd, clients[i], 0, pids[i]);
	runpath_cache.on = 0;
	json_decref(runpath_cache.procs);
	runpath_cache.procs = NULL;
	runpath_cache.nfiles = 0;
	runpath_read_clear(&rd);
}

/* A counter's growth from a to b (b alone when a lacks it); -1: unknown. */
static double
runpath_delta(const json_t *a, const json_t *b, const char *key)
{
	const json_t	*vb = json_object_get(b, key), *va;

	if (!json_is_integer(vb))
		return (-1);
	va = a != NULL ? json_object_get(a, key) : NULL;
	if (json_is_integer(va) && json_integer_value(va) <=
	    json_integer_value(vb))
		return ((double)(json_integer_value(vb) -
		    json_integer_value(va)));
	return ((double)json_integer_value(vb));
}

/* The element of array a whose key is the integer v, or NULL. */
static const json_t *
runpath_find(const json_t *a, const char *key, json_int_t v)
{
	const json_t	*e;
	size_t		 i;

	json_array_foreach(a, i, e)
		if (json_integer_value(json_object_get(e, key)) == v)
			return (e);
	return (NULL);
}

/* Set key to v when it is known (v >= 0), else leave it out. */
static void
runpath_put(json_t *o, const char *key, double v)
{
	if (v >= 0 && isfinite(v))
		json_object_set_new(o, key, json_real(v));
}

/*
 * The service ("smb", "nfs", "afp"; runpath_service) of a run's declared
 * protocol ("smb3", "nfs4", ...), or NULL when it names none of them.
 */
static const char *
runpath_protocol_service(const char *protocol)
{
	static const char *const svc[] = { "smb", "nfs", "afp", "iscsi" };
	size_t			 i;

	if (protocol == NULL)
		return (NULL);
	if (strncmp(protocol, "cifs", 4) == 0)
		return ("smb");
	for (i = 0; i < NP_NITEMS(svc); i++)
		if (strncmp(protocol, svc[i], strlen(svc[i])) == 0)
			return (svc[i]);
	return (NULL);
}

/*
 * Whether connection c is another file protocol's than svc's (a run over
 * SMB while the same client reads an NFS export): not the run's.
 */
static int
runpath_other_service(const char *svc, const json_t *c)
{
	const char	*cs = json_string_value(json_object_get(c, "service"));

	if (svc == NULL || cs == NULL || strcmp(cs, svc) == 0)
		return (0);
	return (runpath_protocol_service(cs) != NULL);
}

/*
 * Whether the process of p (a process or a file, by its "pid") holds only
 * connections set aside: a server of another protocol, whose time and
 * files are not the run's.
 */
static int
runpath_aside_pid(const json_t *aside, const json_t *conns, const json_t *p)
{
	json_int_t	pid = json_integer_value(json_object_get(p, "pid"));

	return (json_array_size(aside) > 0 &&
	    runpath_find(aside, "pid", pid) != NULL &&
	    runpath_find(conns, "pid", pid) == NULL);
}

/* {"connections", "services", "why"} of the connections set aside. */
static json_t *
runpath_aside_note(const json_t *aside, const char *protocol)
{
	const json_t	*c;
	json_t		*svcs = json_array(), *s;
	size_t		 i, j;

	json_array_foreach(aside, i, c) {
		json_array_foreach(svcs, j, s)
			if (json_equal(s, json_object_get(c, "service")))
				break;
		if (j == json_array_size(svcs))
			json_array_append(svcs, json_object_get(c, "service"));
	}
	return (json_pack("{s:I,s:o,s:s+}", "connections",
	    (json_int_t)json_array_size(aside), "services", svcs, "why",
	    "the same client's connections of another protocol than the "
	    "run's ", protocol));
}

/* A connection over the window. */
static json_t *
runpath_conn(const json_t *a, const json_t *b, double secs)
{
	const json_t	*ta = a != NULL ? json_object_get(a, "tcp") : NULL;
	const json_t	*tb = json_object_get(b, "tcp");
	json_t		*o;
	double		 v;

	o = json_pack("{s:O,s:O,s:O?,s:O,s:O,s:O,s:O,s:b}", "local",
	    json_object_get(b, "local"), "lport", json_object_get(b, "lport"),
	    "service", json_object_get(b, "service"), "remote", json_object_get(b, "remote"), "rport",
	    json_object_get(b, "rport"), "pid", json_object_get(b, "pid"),
	    "comm", json_object_get(b, "comm"), "opened_in_run", a == NULL);
	if (o == NULL)
		return (NULL);
	runpath_put(o, "sent_bytes", runpath_delta(ta, tb, "bytes_acked"));
	runpath_put(o, "received_bytes", runpath_delta(ta, tb,
	    "bytes_received"));
	runpath_put(o, "retransmits", runpath_delta(ta, tb, "total_retrans"));
	if (json_is_integer(json_object_get(tb, "rtt_us")))
		runpath_put(o, "rtt_ms", (double)json_integer_value(
		    json_object_get(tb, "rtt_us")) / 1000);
	if (json_is_integer(json_object_get(tb, "rttvar_us")))
		runpath_put(o, "rttvar_ms", (double)json_integer_value(
		    json_object_get(tb, "rttvar_us")) / 1000);
	if (json_is_integer(json_object_get(tb, "delivery_rate")))
		runpath_put(o, "delivery_rate_bytes_per_s", (double)
		    json_integer_value(json_object_get(tb, "delivery_rate")));
	if (secs > 0) {
		if ((v = runpath_delta(ta, tb, "busy_us")) >= 0)
			runpath_put(o, "sending_pct", fmin(100, v / 1e4 / secs));
		if ((v = runpath_delta(ta, tb, "rwnd_limited_us")) >= 0)
			runpath_put(o, "receive_window_limited_pct", fmin(100,
			    v / 1e4 / secs));
		if ((v = runpath_delta(ta, tb, "sndbuf_limited_us")) >= 0)
			runpath_put(o, "send_buffer_limited_pct", fmin(100,
			    v / 1e4 / secs));
	}
	return (o);
}

/* A process over the window. */
static json_t *
runpath_procdelta(const json_t *a, const json_t *b, double secs)
{
	const json_t	*cg = json_object_get(b, "cgroup"), *acg;
	json_t		*o;
	long		 hz = sysconf(_SC_CLK_TCK);
	double		 v, calls, periods;

	o = json_pack("{s:O,s:O,s:O,s:O?,s:O}", "pid", json_object_get(b,
	    "pid"), "comm", json_object_get(b, "comm"), "threads",
	    json_object_get(b, "threads"), "core", json_object_get(b,
	    "processor"), "unavailable", json_object_get(b, "unavailable"));
	if (o != NULL && json_is_true(json_object_get(b, "kernel")))
		json_object_set_new(o, "kernel", json_true());
	if (o != NULL && json_is_true(json_object_get(b, "wrapped")))
		json_object_set_new(o, "wrapped", json_true());
	if (o == NULL || !(secs > 0))
		return (o);
	if ((v = runpath_delta(a, b, "ticks")) >= 0 && hz > 0)
		runpath_put(o, "cpu_pct", v / (double)hz / secs * 100);
	if ((v = runpath_delta(a, b, "wait_ns")) >= 0)
		runpath_put(o, "cpu_wait_pct", fmin(100, v / 1e9 / secs * 100));
	if ((v = runpath_delta(a, b, "rchar")) >= 0) {
		runpath_put(o, "read_call_bytes", v);
		calls = runpath_delta(a, b, "syscr");
		if (calls > 0)
			runpath_put(o, "read_calls", calls);
	}
	/* What the process made the storage read and write (not the cache). */
	runpath_put(o, "storage_read_bytes", runpath_delta(a, b,
	    "read_bytes"));
	runpath_put(o, "storage_write_bytes", runpath_delta(a, b,
	    "write_bytes"));
	if ((v = runpath_delta(a, b, "wchar")) >= 0) {
		runpath_put(o, "write_call_bytes", v);
		calls = runpath_delta(a, b, "syscw");
		if (calls > 0)
			runpath_put(o, "write_calls", calls);
	}
	if (json_is_object(cg)) {
		json_object_set_new(o, "cgroup", json_pack("{s:O,s:O}", "path",
		    json_object_get(cg, "path"), "quota_cores",
		    json_object_get(cg, "quota_cores")));
		acg = a != NULL ? json_object_get(a, "cgroup") : NULL;
		if ((v = runpath_delta(acg, cg, "throttled_ns")) >= 0)
			runpath_put(json_object_get(o, "cgroup"),
			    "throttled_pct", fmin(100, v / 1e9 / secs * 100));
		/* As a process group's: the share of quota periods throttled. */
		if ((v = runpath_delta(acg, cg, "nr_throttled")) >= 0 &&
		    (periods = runpath_delta(acg, cg, "nr_periods")) > 0)
			runpath_put(json_object_get(o, "cgroup"),
			    "throttled_periods_pct", fmin(100, 100 * v /
			    periods));
	}
	return (o);
}

/*
 * The busiest processes between box snapshots a and b that are not in
 * procs (the path's), most CPU first: [{"pid", "comm", "cpu_pct",
 * "core"}], at most RUNPATH_MAX_OTHERS.
 */
static json_t *
runpath_others(const json_t *a, const json_t *b, const json_t *procs,
    double secs)
{
	const json_t	*e, *o;
	json_t		*out;
	long		 hz = sysconf(_SC_CLK_TCK);
	double		 best[RUNPATH_MAX_OTHERS], d;
	size_t		 bi[RUNPATH_MAX_OTHERS], n = 0, i, j, k, lo = 0;
	json_int_t	 pid;

	if ((out = json_array()) == NULL || !json_is_array(a) ||
	    !json_is_array(b) || !(secs > 0) || hz <= 0)
		return (out);
	/* Both lists are sorted by pid: walk them together. */
	json_array_foreach(b, i, e) {
		pid = json_integer_value(json_array_get(e, 0));
		if (runpath_find(procs, "pid", pid) != NULL)
			continue;
		for (; lo < json_array_size(a) && json_integer_value(
		    json_array_get(json_array_get(a, lo), 0)) < pid; lo++)
			;
		o = json_array_get(a, lo);
		if (o == NULL || json_integer_value(json_array_get(o, 0)) !=
		    pid)
			continue;	/* born in the window: not known */
		d = (double)(json_integer_value(json_array_get(e, 1)) -
		    json_integer_value(json_array_get(o, 1)));
		if (d <= 0)
			continue;
		/* Keep the RUNPATH_MAX_OTHERS largest, sorted. */
		for (k = 0; k < n && best[k] >= d; k++)
			;
		if (k == RUNPATH_MAX_OTHERS)
			continue;
		if (n < RUNPATH_MAX_OTHERS)
			n++;
		for (j = n - 1; j > k; j--) {
			best[j] = best[j - 1];
			bi[j] = bi[j - 1];
		}
		best[k] = d;
		bi[k] = i;
	}
	for (k = 0; k < n; k++) {
		e = json_array_get(b, bi[k]);
		json_array_append_new(out, json_pack("{s:O,s:O,s:f,s:O}", "pid",
		    json_array_get(e, 0), "comm", json_array_get(e, 3),
		    "cpu_pct", best[k] / (double)hz / secs * 100, "core",
		    json_array_get(e, 2)));
	}
	return (out);
}

/*
 * Whether a connection of a snapshot's was read with its socket (an
 * inode), not only as it closed, when no process holds it any more.
 */
static int
runpath_held(const json_t *conns)
{
	const json_t	*c;
	size_t		 i;

	json_array_foreach(conns, i, c)
		if (json_integer_value(json_object_get(c, "inode")) != 0)
			return (1);
	return (0);
}

/*
 * One sentence for people: who served the run, over what.  held: a
 * connection was read with its socket, so that no owner means the kernel
 * holds it; else it was read only as it closed.
 */
static json_t *
runpath_summary(const json_t *conns, const json_t *procs, int held)
{
	const json_t	*c, *p;
	char		 s[512], port[32];
	size_t		 i, n = json_array_size(conns), off;
	double		 sent = 0, recv = 0, rtt = -1, retr = 0;

	if (n == 0 && json_array_size(procs) == 0)
		return (json_string("no connection from the client to a file "
		    "service was seen"));
	if (n == 0) {
		/* A run on this box: its own process and what it started. */
		p = json_array_get(procs, 0);
		snprintf(s, sizeof s, "a run on this box, by %s %lld%s",
		    json_string_value(json_object_get(p, "comm")),
		    json_integer_value(json_object_get(p, "pid")),
		    json_array_size(procs) > 1 ? " and the processes it "
		    "started" : "");
		return (json_string(s));
	}
	snprintf(port, sizeof port, "%lld", json_integer_value(
	    json_object_get(json_array_get(conns, 0), "lport")));
	json_array_foreach(conns, i, c) {
		sent += json_number_value(json_object_get(c, "sent_bytes"));
		recv += json_number_value(json_object_get(c,
		    "received_bytes"));
		retr += json_number_value(json_object_get(c, "retransmits"));
		if (json_is_number(json_object_get(c, "rtt_ms")))
			rtt = fmax(rtt, json_number_value(json_object_get(c,
			    "rtt_ms")));
	}
	off = (size_t)snprintf(s, sizeof s, "%zu connection%s from %s to port "
	    "%s", n, n == 1 ? "" : "s", json_string_value(json_object_get(
	    json_array_get(conns, 0), "remote")), port);
	if (json_array_size(procs) == 0 && held)
		off += (size_t)snprintf(s + off, sizeof s - off, ", served by "
		    "the kernel (no process holds the sockets)");
	else if (json_array_size(procs) == 0)
		off += (size_t)snprintf(s + off, sizeof s - off, ", no process "
		    "seen holding it (read only as it closed)");
	json_array_foreach(procs, i, p) {
		if (off >= sizeof s)
			break;
		if (json_is_true(json_object_get(p, "kernel")))
			off += (size_t)snprintf(s + off, sizeof s - off, "%s the "
			    "kernel's %s (%lld threads", i == 0 ? ", served by" :
			    ",", json_string_value(json_object_get(p, "comm")),
			    json_integer_value(json_object_get(p, "threads")));
		else
			off += (size_t)snprintf(s + off, sizeof s - off,
			    "%s %s %lld", i == 0 ? ", served by" : ",",
			    json_string_value(json_object_get(p, "comm")),
			    json_integer_value(json_object_get(p, "pid")));
		if (off < sizeof s && json_is_true(json_object_get(p, "kernel")))
			off += (size_t)snprintf(s + off, sizeof s - off, "%s",
			    json_is_number(json_object_get(p, "cpu_pct")) ?
			    ", " : ")");
		if (off < sizeof s && json_is_number(json_object_get(p,
		    "cpu_pct")))
			off += (size_t)snprintf(s + off, sizeof s - off, "%s%.0f "
			    "%% of a core", json_is_true(json_object_get(p,
			    "kernel")) ? "" : " (", json_number_value(
			    json_object_get(p, "cpu_pct")));
		if (off < sizeof s && json_is_number(json_object_get(p,
		    "cpu_wait_pct")))
			off += (size_t)snprintf(s + off, sizeof s - off, ", "
			    "waited for a CPU %.0f %% of the window",
			    json_number_value(json_object_get(p,
			    "cpu_wait_pct")));
		if (off < sizeof s && json_is_number(json_object_get(p,
		    "cpu_pct")))
			off += (size_t)snprintf(s + off, sizeof s - off, ")");
	}
	if (off < sizeof s)
		off += (size_t)snprintf(s + off, sizeof s - off, "; %.1f MB "
		    "sent, %.1f MB received, %.0f retransmit%s", sent / 1e6,
		    recv / 1e6, retr, retr == 1 ? "" : "s");
	if (off < sizeof s && rtt >= 0)
		snprintf(s + off, sizeof s - off, ", round trip %.2f ms", rtt);
	return (json_string(s));
}

void
runpath_merge(json_t *seen, const json_t *snap)
{
	static const char *const keys[][2] = {
		{ "connections", "inode" }, { "processes", "pid" }
	};
	const json_t	*e, *old;
	json_t		*a, *copy, *val;
	const char	*key;
	size_t		 k, i, j;

	for (k = 0; k < NP_NITEMS(keys); k++) {
		if ((a = json_object_get(seen, keys[k][0])) == NULL)
			continue;
		json_array_foreach(a, i, e)
			if (runpath_find(json_object_get(snap, keys[k][0]),
			    keys[k][1], json_integer_value(json_object_get(e,
			    keys[k][1]))) == NULL)
				json_object_set_new((json_t *)e, "gone",
				    json_true());
		json_array_foreach(json_object_get(snap, keys[k][0]), i, e) {
			old = runpath_find(a, keys[k][1], json_integer_value(
			    json_object_get(e, keys[k][1])));
			if ((copy = json_deep_copy(e)) == NULL)
				continue;
			/*
			 * A process first seen after the run opened keeps
			 * that first reading: its counters count from there,
			 * not from its start.
			 */
			if (k == 1 && old == NULL) {
				json_object_set_new(copy, "first",
				    json_deep_copy(e));
				json_object_set(copy, "first_time",
				    json_object_get(snap, "time"));
			} else if (k == 0 && json_is_null(json_object_get(copy,
			    "pid")) && json_is_integer(json_object_get(old,
			    "pid"))) {
				/*
				 * A socket read as its server let it go (a
				 * copy's last reading) keeps the owner it was
				 * read with before.
				 */
				json_object_set(copy, "pid",
				    json_object_get(old, "pid"));
				json_object_set(copy, "comm",
				    json_object_get(old, "comm"));
			} else if (k == 1) {
				/*
				 * A process exiting as it is read may lose a
				 * file (io, schedstat): keep what was read.
				 */
				json_object_foreach((json_t *)old, key, val)
					if (json_object_get(copy, key) == NULL &&
					    strcmp(key, "gone") != 0)
						json_object_set(copy, key, val);
			}
			if (old == NULL) {
				json_array_append_new(a, copy);
				continue;
			}
			json_array_foreach(a, j, old)
				if (json_equal(json_object_get(old, keys[k][1]),
				    json_object_get(e, keys[k][1])))
					break;
			json_array_set_new(a, j, copy);
		}
	}
	json_object_set(seen, "time", json_object_get(snap, "time"));
	if (!json_is_array(json_object_get(seen, "files")))
		json_object_set_new(seen, "files", json_array());
	json_array_foreach(json_object_get(snap, "files"), i, e)
		if (json_array_size(json_object_get(seen, "files")) <
		    RUNPATH_MAX_FILES && !runpath_has_file(json_object_get(seen,
		    "files"), json_string_value(json_object_get(e, "path"))))
			json_array_append_new(json_object_get(seen, "files"),
			    json_deep_copy(e));
	if (json_is_array(json_object_get(snap, "box")))
		json_object_set(seen, "box", json_object_get(snap, "box"));
	if (json_is_string(json_object_get(snap, "nic")))
		json_object_set(seen, "nic", json_object_get(snap, "nic"));
	if (json_is_array(json_object_get(snap, "unavailable")))
		json_object_set(seen, "unavailable", json_object_get(snap,
		    "unavailable"));
}

/* Remember a destroyed connection's last counters; see runpath.h. */
void
runpath_closed_note(struct daemon *d, const struct inetdiag_conn *k)
{
	struct runpath_gone	*g;

	if (!(k->have & INETDIAG_HAVE_BYTES) || (d->closed == NULL &&
	    (d->closed = calloc(1, sizeof *d->closed)) == NULL))
		return;
	g = &d->closed->v[d->closed->n++ % RUNPATH_CLOSED];
	snprintf(g->local, sizeof g->local, "%s", k->local);
	snprintf(g->remote, sizeof g->remote, "%s", k->remote);
	g->lport = k->lport;
	g->rport = k->rport;
	g->acked = k->bytes_acked;
	g->received = k->bytes_received;
	g->when = nptime_real();
}

/* The last counters noted for a connection, newest first; NULL none. */
static const struct runpath_gone *
runpath_closed_find(const struct runpath_closed *rc, const json_t *c)
{
	const struct runpath_gone	*g;
	const char			*local, *remote;
	double				 now = nptime_real();
	size_t				 i, n;

	local = json_string_value(json_object_get(c, "local"));
	remote = json_string_value(json_object_get(c, "remote"));
	if (rc == NULL || local == NULL || remote == NULL)
		return (NULL);
	n = rc->n < RUNPATH_CLOSED ? rc->n : RUNPATH_CLOSED;
	for (i = 0; i < n; i++) {
		g = &rc->v[(rc->n - 1 - i) % RUNPATH_CLOSED];
		if (now - g->when > RUNPATH_CLOSED_SECS)
			break;
		if (g->lport == json_integer_value(json_object_get(c,
		    "lport")) && g->rport == json_integer_value(
		    json_object_get(c, "rport")) && strcmp(g->local,
		    local) == 0 && strcmp(g->remote, remote) == 0)
			return (g);
	}
	return (NULL);
}

/* Gone connections take their last counters; see runpath.h. */
void
runpath_closed_apply(const struct daemon *d, json_t *seen)
{
	const struct runpath_gone	*g;
	json_t				*c, *tcp;
	size_t				 i;

	json_array_foreach(json_object_get(seen, "connections"), i, c) {
		tcp = json_object_get(c, "tcp");
		if (!json_is_true(json_object_get(c, "gone")) ||
		    !json_is_integer(json_object_get(tcp, "bytes_acked")) ||
		    (g = runpath_closed_find(d->closed, c)) == NULL ||
		    (json_int_t)g->acked < json_integer_value(
		    json_object_get(tcp, "bytes_acked")))
			continue;
		json_object_set_new(tcp, "bytes_acked",
		    json_integer((json_int_t)g->acked));
		json_object_set_new(tcp, "bytes_received",
		    json_integer((json_int_t)g->received));
	}
}

json_t *
runpath_report(const json_t *start, const json_t *end, double secs,
    const char *protocol)
{
	const json_t	*c, *p, *ac, *ap;
	json_t		*conns, *procs = NULL, *aside = NULL, *un, *o;
	json_t		*files, *rep;
	const char	*svc = runpath_protocol_service(protocol);
	double		 t0, t1, ft, psecs;
	size_t		 i;

	if (start == NULL || !json_is_object(start))
		return (json_pack("{s:b,s:s}", "observed", 0, "why", "the "
		    "path is seen only for a run opened live (POST /v1/runs, "
		    "then /end), not for one recorded afterwards"));
	/* Rates over the snapshots' own span, which holds their counters. */
	t0 = json_number_value(json_object_get(start, "time"));
	t1 = json_number_value(json_object_get(end, "time"));
	if (t0 > 0 && t1 > t0)
		secs = t1 - t0;
	if ((conns = json_array()) == NULL || (procs = json_array()) ==
	    NULL || (aside = json_array()) == NULL || (un = json_deep_copy(
	    json_object_get(end, "unavailable"))) == NULL) {
		json_decref(conns);
		json_decref(procs);
		json_decref(aside);
		return (NULL);
	}
	json_array_foreach(json_object_get(end, "connections"), i, c) {
		if (runpath_other_service(svc, c)) {
			json_array_append(aside, (json_t *)c);
			continue;
		}
		ac = runpath_find(json_object_get(start, "connections"),
		    "inode", json_integer_value(json_object_get(c, "inode")));
		o = runpath_conn(ac, c, secs);
		/* Seen last before it closed: its counters up to then. */
		if (json_is_true(json_object_get(c, "gone")))
			json_object_set_new(o, "closed_in_run", json_true());
		json_array_append_new(conns, o);
	}
	json_array_foreach(json_object_get(end, "processes"), i, p) {
		if (runpath_aside_pid(aside, conns, p))
			continue;
		ap = runpath_find(json_object_get(start, "processes"), "pid",
		    json_integer_value(json_object_get(p, "pid")));
		psecs = secs;
		/* Seen first after the run opened: from that reading on. */
		if (ap == NULL && json_is_object(json_object_get(p, "first"))) {
			ap = json_object_get(p, "first");
			ft = json_number_value(json_object_get(p, "first_time"));
			if (ft > 0 && t1 > ft)
				psecs = t1 - ft;
		}
		json_array_append_new(procs, runpath_procdelta(ap, p, psecs));
	}
	if ((files = json_deep_copy(json_object_get(end, "files"))) == NULL ||
	    !json_is_array(files)) {
		json_decref(files);
		files = json_array();
	}
	json_array_foreach(json_object_get(start, "files"), i, p)
		if (!runpath_has_file(files, json_string_value(json_object_get(p,
		    "path"))))
			json_array_append_new(files, json_deep_copy(p));
	/* The files of the processes set aside are not the run's. */
	for (i = 0; i < json_array_size(files);)
		if (runpath_aside_pid(aside, conns, json_array_get(files, i)))
			json_array_remove(files, i);
		else
			i++;
	rep = json_pack("{s:b,s:O,s:o,s:O?,s:o,s:o,s:o,s:o,s:o}", "observed",
	    1, "client", json_object_get(end, "client"), "files", files,
	    "interface",
	    json_object_get(end, "nic") != NULL ? json_object_get(end, "nic") :
	    json_object_get(start, "nic"), "summary", runpath_summary(conns,
	    procs, runpath_held(json_object_get(end, "connections"))),
	    "connections", conns, "processes", procs, "others",
	    runpath_others(json_object_get(start, "box"), json_object_get(end,
	    "box"), procs, secs), "unavailable", un);
	if (rep != NULL && json_array_size(aside) > 0)
		json_object_set_new(rep, "set_aside", runpath_aside_note(aside,
		    protocol));
	json_decref(aside);
	return (rep);
}

/* The larger of a and b, where either may be NAN. */
static double
runpath_max(double a, double b)
{
	return (isnan(a) ? b : isnan(b) ? a : fmax(a, b));
}

/* One process of a path report into the verdict's shape. */
static void
runpath_view_proc(const json_t *o, struct verdict_proc *p)
{
	const json_t	*cg = json_object_get(o, "cgroup");

	memset(p, 0, sizeof *p);
	p->pid = (int)json_integer_value(json_object_get(o, "pid"));
	snprintf(p->comm, sizeof p->comm, "%s",
	    json_is_string(json_object_get(o, "comm")) ?
	    json_string_value(json_object_get(o, "comm")) : "?");
	p->core = json_is_integer(json_object_get(o, "core")) ?
	    (int)json_integer_value(json_object_get(o, "core")) : -1;
	p->threads = (int)json_integer_value(json_object_get(o, "threads"));
	p->kernel = json_is_true(json_object_get(o, "kernel"));
	p->cpu_pct = jget_real(o, "cpu_pct");
	p->wait_pct = jget_real(o, "cpu_wait_pct");
	p->quota_cores = json_is_object(cg) ? (json_is_number(json_object_get(
	    cg, "quota_cores")) ? jget_real(cg, "quota_cores") : 0) : NAN;
	p->throttled_pct = json_is_object(cg) ? jget_real(cg,
	    "throttled_pct") : NAN;
	p->throttled_periods_pct = json_is_object(cg) ? jget_real(cg,
	    "throttled_periods_pct") : NAN;
	p->storage_read = jget_real(o, "storage_read_bytes");
}

void
runpath_view(const json_t *rep, struct verdict_path *p)
{
	const json_t	*c, *o;
	const char	*svc;
	double		 cmd;
	size_t		 i, j;

	memset(p, 0, sizeof *p);
	p->retransmits = p->rtt_ms = p->rwnd_limited_pct = NAN;
	p->sndbuf_limited_pct = p->sending_pct = NAN;
	if (!json_is_true(json_object_get(rep, "observed")))
		return;
	p->observed = 1;
	p->synth = json_array_size(json_object_get(rep, "connections")) > 0;
	json_array_foreach(json_object_get(rep, "connections"), i, c) {
		p->nconn++;
		p->sent += fmax(0, jget_real(c, "sent_bytes"));
		p->received += fmax(0, jget_real(c, "received_bytes"));
		if (!isnan(jget_real(c, "retransmits")))
			p->retransmits = (isnan(p->retransmits) ? 0 :
			    p->retransmits) + jget_real(c, "retransmits");
		p->rtt_ms = runpath_max(p->rtt_ms, jget_real(c, "rtt_ms"));
		p->rwnd_limited_pct = runpath_max(p->rwnd_limited_pct,
		    jget_real(c, "receive_window_limited_pct"));
		p->sndbuf_limited_pct = runpath_max(p->sndbuf_limited_pct,
		    jget_real(c, "send_buffer_limited_pct"));
		p->sending_pct = runpath_max(p->sending_pct,
		    jget_real(c, "sending_pct"));
		svc = json_string_value(json_object_get(c, "service"));
		if (svc == NULL || strcmp(svc, "synth") != 0)
			p->synth = 0;
	}
	if (json_is_string(json_object_get(rep, "interface")))
		snprintf(p->nic, sizeof p->nic, "%s", json_string_value(
		    json_object_get(rep, "interface")));
	json_array_foreach(json_object_get(rep, "volumes"), i, o) {
		if (!p->volume_seen)
			snprintf(p->volume, sizeof p->volume, "%s",
			    json_string_value(json_object_get(o, "mount")));
		p->volume_seen = 1;
		if (json_is_string(json_object_get(o, "pool")) &&
		    p->pool[0] == '\0') {
			p->zfs = 1;
			snprintf(p->pool, sizeof p->pool, "%s",
			    json_string_value(json_object_get(o, "pool")));
			snprintf(p->dataset, sizeof p->dataset, "%s",
			    json_string_value(json_object_get(o, "dataset")));
		}
		json_array_foreach(json_object_get(o, "devices"), j, c)
			if (p->ndisks < VERDICT_PATH_DISKS &&
			    json_is_string(c))
				snprintf(p->disks[p->ndisks++],
				    sizeof p->disks[0], "%s",
				    json_string_value(c));
	}
	/*
	 * What the serving processes read from storage, when all tell; for
	 * a wrapped command that told its own count as it ended, that count
	 * (its processes' last readings miss up to half a second).
	 */
	cmd = jget_real(json_object_get(rep, "command"),
	    "storage_read_bytes");
	p->storage_read = json_array_size(json_object_get(rep, "processes")) >
	    0 || !isnan(cmd) ? 0 : NAN;
	json_array_foreach(json_object_get(rep, "processes"), i, o) {
		if (p->nproc < VERDICT_PATH_PROCS)
			runpath_view_proc(o, &p->proc[p->nproc++]);
		if (isnan(cmd) || !json_is_true(json_object_get(o, "wrapped")))
			p->storage_read += jget_real(o,
			    "storage_read_bytes");
	}
	if (!isnan(cmd))
		p->storage_read += cmd;
	json_array_foreach(json_object_get(rep, "others"), i, o)
		if (p->nother < VERDICT_PATH_OTHERS)
			runpath_view_proc(o, &p->other[p->nother++]);
}

/* Whether path is dir or below it. */
static int
runpath_under(const char *path, const char *dir)
{
	size_t	len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	return (len > 0 && strncmp(path, dir, len) == 0 &&
	    (path[len] == '/' || path[len] == '\0' || len == 1));
}

/*
 * Whether an open file is data the transfer may move: under a share's
 * path when smb.conf names shares for an SMB run, under an export's path
 * when /etc/exports or ganesha.conf names exports for an NFS run, else any
 * that is not the servers' own state.
 */
static int
runpath_data_file(const struct topology *t, const char *protocol,
    const char *path)
{
	size_t	i, n = 0;

	if (!runpath_not_state(path))
		return (0);
	if (t != NULL && protocol != NULL && strncmp(protocol, "nfs", 3) ==
	    0) {
		for (i = 0; (t->have & TOPOLOGY_EXPORTS) && i < t->exports.n;
		    i++, n++)
			if (runpath_under(path, t->exports.v[i].path))
				return (1);
		for (i = 0; (t->have & TOPOLOGY_GANESHA) && i <
		    t->ganesha.n; i++) {
			if (t->ganesha.exports[i].path[0] == '\0')
				continue;
			n++;
			if (runpath_under(path, t->ganesha.exports[i].path))
				return (1);
		}
		return (n == 0);
	}
	if (t != NULL && (t->have & TOPOLOGY_SMB) && protocol != NULL &&
	    strncmp(protocol, "smb", 3) == 0) {
		for (i = 0; i < t->smb.nshares; i++) {
			if (t->smb.shares[i].path[0] == '\0')
				continue;
			n++;
			if (runpath_under(path, t->smb.shares[i].path))
				return (1);
		}
		if (n > 0)
			return (0);
	}
	return (1);
}

/*
 * The mount a file at path is on, on device dev ("major:minor"; NULL: any
 * device): the one with the longest mount point holding it, or NULL.
 */
static const struct mounts_entry *
runpath_mount(const struct topology *t, const char *dev, const char *path)
{
	const struct mounts_entry	*m, *best = NULL;
	unsigned			 maj = 0, min = 0;
	size_t				 i;

	if (dev != NULL && probe_scan_devno(dev, &maj, &min) == -1)
		return (NULL);
	for (i = 0; i < t->mounts.n; i++) {
		m = &t->mounts.v[i];
		if ((dev != NULL && (!m->has_dev || m->major != maj ||
		    m->minor != min)) || !runpath_under(path, m->mountpoint))
			continue;
		if (best == NULL ||
		    strlen(m->mountpoint) > strlen(best->mountpoint))
			best = m;
	}
	return (best);
}

/*
 * Unraid's user shares: a file under /mnt/user (fuse.shfs, which merges
 * the array's disks and the pools) is on the one of them that holds
 * the same path.  That filesystem's mount, or NULL.
 */
static const struct mounts_entry *
runpath_user_share(const struct topology *t, const struct mounts_entry *m,
    const char *path)
{
	const struct mounts_entry	*e;
	const char			*rest = path + strlen(m->mountpoint);
	char				 rel[4096];
	size_t				 i;

	if (strcmp(m->fstype, "fuse.shfs") != 0 || t->root == NULL ||
	    *rest != '/')
		return (NULL);
	for (i = 0; i < t->mounts.n; i++) {
		e = &t->mounts.v[i];
		/* /mnt/disk1 .. /mnt/diskN and the pools: /mnt/cache ... */
		if (strncmp(e->mountpoint, "/mnt/", 5) != 0 ||
		    strchr(e->mountpoint + 5, '/') != NULL ||
		    strncmp(e->fstype, "fuse", 4) == 0 ||
		    strcmp(e->fstype, "tmpfs") == 0)
			continue;
		if (snprintf(rel, sizeof rel, "%s%s", e->mountpoint + 1, rest) <
		    (int)sizeof rel && probe_exists(t->root, PROBE_ROOT, rel))
			return (e);
	}
	return (NULL);
}

/* Set key to s, or to null when s is empty. */
static void
runpath_put_str(json_t *o, const char *key, const char *s)
{
	json_t	*j = s[0] != '\0' ? json_string(s) : NULL;

	json_object_set_new(o, key, j != NULL ? j : json_null());
}

/*
 * One volume of a path: where it is (a mount point, or a raw device's
 * path), its filesystem (NULL for a raw device), its device and every
 * device of the stack below it, and a sentence.
 */
static json_t *
runpath_volume(const struct topology *t, const char *where,
    const char *fstype, const char *dev)
{
	struct topology_layer	 layers[TOPOLOGY_STACK_MAX];
	json_t			*devs;
	const struct zfs_dataset *ds;
	json_t			*v;
	char			 text[512], pool[64];
	size_t			 j, k, nl, off;
	int			 zfs;

	nl = topology_stack(t, dev, fstype, layers, TOPOLOGY_STACK_MAX);
	if ((devs = json_array()) == NULL)
		return (NULL);
	zfs = fstype != NULL && strcmp(fstype, "zfs") == 0 && dev != NULL;
	if (zfs)
		snprintf(pool, sizeof pool, "%.*s", (int)strcspn(dev, "/"),
		    dev);
	/* "/mnt/tank/share (zfs tank/share of pool tank) on zfs raidz2 ..." */
	off = (size_t)snprintf(text, sizeof text, "%s (%s%s%s%s", where,
	    fstype != NULL ? fstype : "raw", zfs ? " " : "", zfs ? dev : "",
	    zfs ? " of pool " : "");
	if (zfs && off < sizeof text)
		off += (size_t)snprintf(text + off, sizeof text - off, "%s",
		    pool);
	/* "/srv (btrfs) on btrfs raid0 loop3 loop4; loop loop3 ..." */
	for (j = 0; j < nl; j++) {
		if (off < sizeof text)
			off += (size_t)snprintf(text + off, sizeof text - off,
			    "%s %s", j == 0 ? ") on" : ";", layers[j].kind);
		for (k = 0; k < layers[j].n; k++) {
			json_array_append_new(devs,
			    json_string(layers[j].devices[k]));
			if (off < sizeof text)
				off += (size_t)snprintf(text + off, sizeof text -
				    off, " %s", layers[j].devices[k]);
		}
	}
	/* A ZFS dataset: "tank/share", of pool "tank". */
	if (zfs) {
		if (nl == 0 && off < sizeof text)
			snprintf(text + off, sizeof text - off, ", whose "
			    "devices zpool status did not list)");
		v = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:s}", "mount", where,
		    "fstype", fstype, "device", dev, "dataset", dev, "pool",
		    pool, "devices", devs, "summary", text);
		/* What zfs get said of it. */
		if (v != NULL && (ds = zfs_dataset_find(t->zfs_datasets,
		    dev)) != NULL) {
			runpath_put_str(v, "sync", ds->sync);
			runpath_put_str(v, "primarycache", ds->primarycache);
			runpath_put_str(v, "compression", ds->compression);
			json_object_set_new(v, "recordsize_bytes",
			    ds->recordsize > 0 ? json_integer((json_int_t)
			    ds->recordsize) : json_null());
		}
		return (v);
	}
	if (nl == 0 && off < sizeof text)
		snprintf(text + off, sizeof text - off, ", no block device)");
	return (json_pack("{s:s,s:o,s:o,s:o,s:s}", "mount", where, "fstype",
	    fstype != NULL ? json_string(fstype) : json_null(), "device",
	    dev != NULL ? json_string(dev) : json_null(), "devices", devs,
	    "summary", text));
}

/* The device a raw block device's major:minor ("8:1") names, or NULL. */
static const char *
runpath_blockdev(const struct topology *t, const char *dev)
{
	const struct blockdev		*b;
	const struct blockdev_part	*p;
	unsigned			 maj, min;

	if (probe_scan_devno(dev, &maj, &min) == -1 ||
	    (b = blockdev_find_dev(&t->block, maj, min, &p)) == NULL)
		return (NULL);
	return (p != NULL ? p->name : b->name);
}

/* Whether a path report's processes include the kernel's nfsd. */
static int
runpath_has_knfsd(const json_t *report)
{
	const json_t	*p;
	size_t		 i;

	json_array_foreach(json_object_get(report, "processes"), i, p)
		if (json_is_true(json_object_get(p, "kernel")))
			return (1);
	return (0);
}

/*
 * The mounts of the kernel exports open to client (what the kernel's nfsd
 * threads, which hold no files, may have served), added to mv[*nm]: an
 * export whose clients name the address or a network holding it, or a
 * name this daemon cannot resolve.
 */
static void
runpath_export_mounts(const struct topology *t, const char *client,
    const struct mounts_entry **mv, size_t *nm)
{
	const struct exports_entry	*x;
	const struct mounts_entry	*best;
	size_t				 i, j, k;

	for (i = 0; i < t->exports.n; i++) {
		x = &t->exports.v[i];
		for (j = 0; j < x->nclients; j++)
			if (exports_client_match(x->clients[j].host,
			    client) != 0)
				break;
		if (j == x->nclients)
			continue;
		if ((best = runpath_mount(t, NULL, x->path)) == NULL)
			continue;
		for (k = 0; k < *nm && mv[k] != best; k++)
			;
		if (k == *nm && *nm < RUNPATH_MAX_VOLUMES)
			mv[(*nm)++] = best;
	}
}

void
runpath_volumes(json_t *report, const struct topology *t,
    const char *protocol)
{
	const struct mounts_entry	*m, *u, *mv[RUNPATH_MAX_VOLUMES];
	const json_t			*f;
	const char			*dev, *path, *raw[RUNPATH_MAX_VOLUMES];
	const char			*rawpath[RUNPATH_MAX_VOLUMES];
	json_t				*vols, *v;
	size_t				 i, j, nm = 0, nr = 0;

	if (!json_is_true(json_object_get(report, "observed")) || t == NULL ||
	    !(t->have & TOPOLOGY_MOUNTS) || (vols = json_array()) == NULL)
		return;
	json_array_foreach(json_object_get(report, "files"), i, f) {
		path = json_string_value(json_object_get(f, "path"));
		dev = json_string_value(json_object_get(f, "dev"));
		if (path == NULL || dev == NULL)
			continue;
		/* A disk read raw is its own volume. */
		if (json_is_true(json_object_get(f, "block"))) {
			if ((dev = runpath_blockdev(t, dev)) == NULL)
				continue;
			for (j = 0; j < nr && strcmp(raw[j], dev) != 0; j++)
				;
			if (j == nr && nr < RUNPATH_MAX_VOLUMES) {
				rawpath[nr] = path;
				raw[nr++] = dev;
			}
			continue;
		}
		if (!runpath_data_file(t, protocol, path) ||
		    (m = runpath_mount(t, dev, path)) == NULL)
			continue;
		if ((u = runpath_user_share(t, m, path)) != NULL)
			m = u;
		for (j = 0; j < nm && mv[j] != m; j++)
			;
		if (j == nm && nm < RUNPATH_MAX_VOLUMES)
			mv[nm++] = m;
	}
	/* The kernel's nfsd holds no files: the exports open to the client. */
	if (nm == 0 && nr == 0 && (t->have & TOPOLOGY_EXPORTS) &&
	    runpath_has_knfsd(report) && json_is_string(json_object_get(report,
	    "client")))
		runpath_export_mounts(t, json_string_value(json_object_get(
		    report, "client")), mv, &nm);
	for (i = 0; i < nm; i++)
		if ((v = runpath_volume(t, mv[i]->mountpoint, mv[i]->fstype,
		    topology_mount_device(t, mv[i]))) != NULL)
			json_array_append_new(vols, v);
	for (i = 0; i < nr; i++)
		if ((v = runpath_volume(t, rawpath[i], NULL, raw[i])) != NULL)
			json_array_append_new(vols, v);
	json_object_set_new(report, "volumes", vols);
}
