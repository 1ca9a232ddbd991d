/*
 * t_verdict: the verdict engine on recorded sample windows, one per class,
 * and the history they are read into.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "test.h"
#include "yaml_read.h"

#include "advice.h"
#include "cfg.h"
#include "crypto.h"
#include "history.h"
#include "report_text.h"
#include "report_yaml.h"
#include "smbstatus.h"
#include "topology.h"
#include "verdict.h"

#define T0	1764691200.0

/* Read a window fixture into a new history; bail out when it cannot. */

/* The report as text, as GET /v1/runs/ID/report?format=text gives it. */
static char *
as_text(const json_t *rep)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return (NULL);
	if (report_text_write(rep, f) == -1) {
		fclose(f);
		free(buf);
		return (NULL);
	}
	fclose(f);
	return (buf);
}

static struct history *
load(const char *name)
{
	struct history	*h;
	const char	*src, *errstr;
	char		 path[4096];
	json_error_t	 jerr;
	json_t		*doc;

	if ((src = getenv("NP_SRCDIR")) == NULL)
		src = ".";
	snprintf(path, sizeof path, "%s/tests/fixtures/windows/%s.json", src,
	    name);
	if ((doc = json_load_file(path, 0, &jerr)) == NULL) {
		printf("Bail out! %s: %s\n", path, jerr.text);
		exit(1);
	}
	if ((h = history_new(0.5, 600, 10, 100)) == NULL ||
	    history_from_json(h, doc, &errstr) == -1) {
		printf("Bail out! %s: %s\n", path, errstr);
		exit(1);
	}
	json_decref(doc);
	return (h);
}

/* A run over the whole fixture window (7 s). */
static void
run_init(struct verdict_run *r, const char *proto, const char *op,
    double mbps, uint64_t block)
{
	memset(r, 0, sizeof *r);
	r->id = "1";
	r->protocol = proto;
	r->op = op;
	r->start = T0;
	r->end = T0 + 7.0;
	r->ended = 1;
	if (mbps > 0) {
		r->has_bytes = 1;
		r->bytes = (uint64_t)(mbps * 1e6 * 7.0);
		r->has_seconds = 1;
		r->seconds = 7.0;
	}
	if (block > 0) {
		r->has_block = 1;
		r->block_size = block;
	}
}

/*
 * A baseline for sda alone: the read rate arg points to, or 120 MB/s
 * without one.
 */
static int
t_baseline(void *arg, const char *disk, double *rbps, double *wbps,
    double *when)
{
	if (strcmp(disk, "sda") != 0)
		return (-1);
	*rbps = arg != NULL ? *(const double *)arg : 120e6;
	*wbps = 0;
	if (when != NULL)
		*when = T0 - 3600;
	return (0);
}

/* Whether some evidence's detail contains needle. */
static int
evidenced(const json_t *rep, const char *needle)
{
	const json_t	*o;
	const char	*d;
	size_t		 i;

	json_array_foreach(json_object_get(rep, "evidence"), i, o)
		if ((d = json_string_value(json_object_get(o, "detail"))) !=
		    NULL && strstr(d, needle) != NULL)
			return (1);
	return (0);
}

/* A path of one connection out of nic, with no process yet. */
static void
path_init(struct verdict_path *p, const char *nic)
{
	memset(p, 0, sizeof *p);
	p->observed = 1;
	p->nconn = 1;
	p->sent = 280e6;
	p->received = 1e6;
	p->retransmits = 0;
	p->rtt_ms = 0.4;
	p->rwnd_limited_pct = p->sndbuf_limited_pct = p->sending_pct = NAN;
	p->storage_read = NAN;
	snprintf(p->nic, sizeof p->nic, "%s", nic);
}

/* Fill process pr; no cgroup quota, throttling unknown. */
static void
path_proc(struct verdict_proc *pr, int pid, const char *comm, int core,
    int threads, double cpu, double wait)
{
	memset(pr, 0, sizeof *pr);
	pr->pid = pid;
	snprintf(pr->comm, sizeof pr->comm, "%s", comm);
	pr->core = core;
	pr->threads = threads;
	pr->cpu_pct = cpu;
	pr->wait_pct = wait;
	pr->quota_cores = 0;
	pr->throttled_pct = pr->throttled_periods_pct = NAN;
	pr->storage_read = NAN;
}

/* The verdict of run over fixture name; caller frees. */
static json_t *
judge(const char *name, const struct verdict_run *r, const struct cfg *cfg)
{
	struct history	*h = load(name);
	json_t		*rep;
	char		*cause = NULL;

	rep = verdict_report(h, r, cfg, NULL, NULL, &cause);
	if (rep == NULL) {
		printf("# %s: %s\n", name, cause != NULL ? cause : "failed");
		free(cause);
	}
	history_free(h);
	return (rep);
}

/* A key of ceilings.rest, what took the rest of the lower ceiling. */
static const char *
rest(const json_t *rep, const char *key)
{
	const char	*s;

	s = json_string_value(json_object_get(json_object_get(json_object_get(
	    rep, "ceilings"), "rest"), key));
	return (s != NULL ? s : "(none)");
}

static const char *
vstr(const json_t *rep, const char *key)
{
	const char	*s;

	s = json_string_value(json_object_get(json_object_get(rep, "verdict"),
	    key));
	return (s != NULL ? s : "(none)");
}

/* Whether some observation's text contains needle. */
static int
observed(const json_t *rep, const char *needle)
{
	const json_t	*o;
	size_t		 i;

	json_array_foreach(json_object_get(rep, "observations"), i, o)
		if (strstr(json_string_value(json_object_get(o, "text")),
		    needle) != NULL)
			return (1);
	return (0);
}

/* A report reads back equal from its JSON text and from its YAML. */
static void
roundtrip(const char *name, const json_t *rep)
{
	json_t	*back;
	char	*s, *y = NULL, what[128];
	size_t	 ylen = 0;
	FILE	*f;

	s = json_dumps(rep, JSON_COMPACT);
	back = s != NULL ? json_loads(s, 0, NULL) : NULL;
	snprintf(what, sizeof what, "%s: the report round-trips through JSON",
	    name);
	t_check(back != NULL && json_equal((json_t *)rep, back), what,
	    __FILE__, __LINE__, "%s", "");
	json_decref(back);
	free(s);
	back = NULL;
	if ((f = open_memstream(&y, &ylen)) != NULL) {
		if (report_yaml_write(rep, f) == 0 && fflush(f) == 0)
			back = y_parse(y, ylen);
		fclose(f);
	}
	snprintf(what, sizeof what, "%s: the report round-trips through YAML",
	    name);
	t_check(back != NULL && json_equal((json_t *)rep, back), what,
	    __FILE__, __LINE__, "%s", "");
	json_decref(back);
	free(y);
}

/* The hint of kind in rep, or NULL. */
static const json_t *
hint(const json_t *rep, const char *kind)
{
	const json_t	*o;
	size_t		 i;

	json_array_foreach(json_object_get(rep, "hints"), i, o)
		if (strcmp(json_string_value(json_object_get(o, "kind")),
		    kind) == 0)
			return (o);
	return (NULL);
}

/*
 * Whether hint kind of rep has needle in its text and figure in its figure,
 * and what to try next for its kind.
 */
static int
hinted(const json_t *rep, const char *kind, const char *needle,
    const char *figure)
{
	const json_t	*o = hint(rep, kind);
	const char	*t, *f;

	if (o == NULL) {
		printf("# no %s hint\n", kind);
		return (0);
	}
	if (advice_hint(kind) == NULL) {
		printf("# no advice for a %s hint\n", kind);
		return (0);
	}
	t = json_string_value(json_object_get(o, "text"));
	f = json_string_value(json_object_get(o, "figure"));
	printf("# %s: %s (%s)\n", kind, t, f);
	return (t != NULL && f != NULL && strstr(t, needle) != NULL &&
	    strstr(f, figure) != NULL);
}

/* /proc/crypto of fixture box name, into c. */
static void
box_crypto(const char *name, struct crypto *c)
{
	struct probe_buf	b;
	const char		*err;

	crypto_init(c);
	probe_buf_init(&b);
	if (crypto_read(t_root(name), &b, c, &err) == -1) {
		printf("Bail out! %s: /proc/crypto: %s\n", name, err);
		exit(1);
	}
	probe_buf_free(&b);
}

/* Whether run r over small-requests gets the sync_mount hint. */
static int
sync_hint(const struct cfg *cfg, const struct verdict_run *r)
{
	json_t	*rep = judge("small-requests", r, cfg);
	int	 h;

	h = hinted(rep, "sync_mount", "waits until it is on disk",
	    "rw,sync,relatime");
	json_decref(rep);
	return (h);
}

/*
 * Writes to a filesystem mounted sync: the export's for NFS, the run's
 * own volume when its path was seen; not for reads, nor async mounts.
 */
static void
t_sync_mount(struct cfg *cfg, struct topology *t)
{
	struct verdict_run	 r;
	struct verdict_path	 p;
	struct mounts_entry	*m = NULL;
	char			 saved[sizeof m->options];
	size_t			 i;

	/* The mount under the Debian box's export, /srv/data/share. */
	for (i = 0; i < t->mounts.n; i++)
		if (strncmp("/srv/data/share", t->mounts.v[i].mountpoint,
		    strlen(t->mounts.v[i].mountpoint)) == 0 && (m == NULL ||
		    strlen(t->mounts.v[i].mountpoint) > strlen(m->mountpoint)))
			m = &t->mounts.v[i];
	if (m == NULL) {
		T_TRUE(m != NULL);
		return;
	}
	snprintf(saved, sizeof saved, "%s", m->options);
	run_init(&r, "nfs3", "write", 2.4, 1024);
	r.topo = t;
	T_TRUE(!sync_hint(cfg, &r));
	snprintf(m->options, sizeof m->options, "rw,sync,relatime");
	T_TRUE(sync_hint(cfg, &r));
	/* A run whose files were on that volume, over SMB: the same. */
	run_init(&r, "smb3", "write", 2.4, 1024);
	r.topo = t;
	path_init(&p, "eth0");
	p.volume_seen = 1;
	snprintf(p.volume, sizeof p.volume, "%.159s", m->mountpoint);
	r.path = &p;
	T_TRUE(sync_hint(cfg, &r));
	r.op = "read";
	T_TRUE(!sync_hint(cfg, &r));
	snprintf(m->options, sizeof m->options, "%s", saved);
}

/* The hints: SMB signing, SMB1, NFS sync, bonds, MTU, encrypted volumes. */
static void
t_hints(struct cfg *cfg)
{
	struct verdict_run		 r;
	struct smbstatus_session	 s;
	struct topology			*t, *t6;
	struct crypto			 cr, cr6;
	json_t				*rep;
	static const char ecryptfs[] = "/volume1/@secret@ /volume1/secret "
	    "ecryptfs rw,relatime,ecryptfs_fnek_sig=0123456789abcdef,"
	    "ecryptfs_sig=0123456789abcdef,ecryptfs_cipher=aes,"
	    "ecryptfs_key_bytes=32,ecryptfs_unlink_sigs 0 0\n";
	const char			*err;

	box_crypto("debian12-6.1-btrfs", &cr);
	box_crypto("dsm6-3.10-armhf", &cr6);
	t = topology_new();
	t6 = topology_new();
	if (t == NULL || t6 == NULL ||
	    topology_read(t_root("debian12-6.1-btrfs"), t) == -1 ||
	    topology_read(t_root("dsm6-3.10-armhf"), t6) == -1) {
		printf("Bail out! fixture topologies\n");
		exit(1);
	}

	/* smbd signing every packet of this client's session, one core. */
	memset(&s, 0, sizeof s);
	s.pid = 4121;
	snprintf(s.address, sizeof s.address, "192.0.2.7");
	snprintf(s.dialect, sizeof s.dialect, "SMB3_11");
	s.signing.degree = SMBSTATUS_FULL;
	snprintf(s.signing.cipher, sizeof s.signing.cipher, "AES-128-GMAC");
	s.encryption.degree = SMBSTATUS_NONE;
	run_init(&r, "smb3", "read", 10, 65536);
	r.client_addr = "192.0.2.7";
	r.session = &s;
	r.crypto = &cr;
	r.plain_rate = 60e6;
	r.plain_id = "7";
	rep = judge("smbd-one-core", &r, cfg);
	T_EQ_STR(vstr(rep, "resource"), "smbd pid 4121 on cpu2");
	T_TRUE(hinted(rep, "smb_signing", "run 7 from this client without "
	    "signing moved 60.0 MB/s against 10.0 MB/s", "signing "
	    "AES-128-GMAC on every packet, SMB3_11, smbd pid 4121"));
	T_TRUE(hinted(rep, "smb_signing", "AES: unknown",
	    "100.00 CPU-seconds per GB"));
	json_decref(rep);
	r.topo = t;		/* an x86 box with AES-NI */
	rep = judge("smbd-one-core", &r, cfg);
	T_TRUE(hinted(rep, "smb_signing", "the CPU has AES instructions "
	    "(cpuinfo flag aes)", "signing AES-128-GMAC"));
	json_decref(rep);
	r.topo = t6;		/* an Armada 385: NEON, no AES */
	rep = judge("smbd-one-core", &r, cfg);
	T_TRUE(hinted(rep, "smb_signing", "the CPU has no AES instructions",
	    "signing AES-128-GMAC"));
	r.topo = NULL;
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(rep,
	    "session"), "pid")), 4121);
	roundtrip("smbd-one-core with a session", rep);
	{
		char	*text = as_text(rep);

		T_TRUE(text != NULL && strstr(text, "likely cause") != NULL &&
		    strstr(text, "session  smbd pid 4121") != NULL);
		/* The cause's advice, then the verdict's. */
		T_TRUE(text != NULL && strstr(text, "\nwhat to try next\n  - "
		    "SMB signing: turn signing off on the client") != NULL &&
		    strstr(text, "RequireSecuritySignature $false") != NULL &&
		    strstr(text, "  - SMB signing:") < strstr(text,
		    "  - The NAS's CPU is the limit"));
		free(text);
	}
	json_decref(rep);

	/*
	 * Below the network's ceiling (60 MB/s measured to this client), the
	 * rest of it went to signing on smbd's CPU.
	 */
	r.path_capacity = 60e6;
	r.path_capacity_time = T0 - 30;
	rep = judge("smbd-one-core", &r, cfg);
	T_EQ_STR(rest(rep, "by"), "smb_signing");
	T_EQ_STR(rest(rep, "text"), "SMB signing, on the CPU of the serving "
	    "process (smbd pid 4121 on cpu2)");
	{
		char	*text = as_text(rep);

		T_TRUE(text != NULL && strstr(text, "transfer 10.0 MB/s: 17 % "
		    "of the lower ceiling, the network's\n         the rest "
		    "taken by SMB signing, on the CPU of the serving process "
		    "(smbd pid 4121 on cpu2)\n") != NULL);
		free(text);
	}
	json_decref(rep);

	/*
	 * Another smbd bound the run, not the session's: its signing is not
	 * the cause, and the rest went to that smbd's CPU.
	 */
	s.pid = 9999;
	rep = judge("smbd-one-core", &r, cfg);
	T_EQ_STR(vstr(rep, "resource"), "smbd pid 4121 on cpu2");
	T_TRUE(hint(rep, "smb_signing") == NULL);
	T_EQ_STR(rest(rep, "by"), "serving_cpu");
	T_EQ_STR(rest(rep, "text"), "the CPU of the serving process (smbd "
	    "pid 4121 on cpu2)");
	json_decref(rep);
	r.path_capacity = 0;
	s.pid = 4121;
	/* No earlier plain run faster than this one: none is cited. */
	r.plain_rate = 8e6;
	rep = judge("smbd-one-core", &r, cfg);
	T_TRUE(hint(rep, "smb_signing") != NULL);
	T_TRUE(!hinted(rep, "smb_signing", "without signing moved", ""));
	json_decref(rep);
	r.plain_rate = 60e6;

	/* Signing only on the session setup costs nothing: no hint. */
	s.signing.degree = SMBSTATUS_PARTIAL;
	rep = judge("smbd-one-core", &r, cfg);
	T_TRUE(hint(rep, "smb_signing") == NULL);
	json_decref(rep);
	/* Encryption is named as such. */
	s.encryption.degree = SMBSTATUS_FULL;
	snprintf(s.encryption.cipher, sizeof s.encryption.cipher,
	    "AES-128-GCM");
	r.path_capacity = 60e6;
	rep = judge("smbd-one-core", &r, cfg);
	T_TRUE(hinted(rep, "smb_encryption", "privacy and integrity",
	    "encryption AES-128-GCM"));
	T_EQ_STR(rest(rep, "by"), "smb_encryption");
	json_decref(rep);
	r.path_capacity = 0;
	/* Not CPU-bound: signing is not the cause. */
	run_init(&r, "smb3", "read", 117, 1048576);
	r.session = &s;
	rep = judge("gbe-117", &r, cfg);
	T_TRUE(hint(rep, "smb_encryption") == NULL);
	json_decref(rep);

	/* SMB1, from the session's dialect or the client's word. */
	memset(&s, 0, sizeof s);
	s.pid = 1777;
	snprintf(s.dialect, sizeof s.dialect, "NT1");
	run_init(&r, "smb2", "write", 2.4, 1024);
	r.session = &s;
	r.topo = t;
	rep = judge("small-requests", &r, cfg);
	T_TRUE(hinted(rep, "smb1", "SMB1 is in use (NT1)", "dialect NT1"));
	json_decref(rep);
	run_init(&r, "smb1", "write", 2.4, 1024);
	rep = judge("small-requests", &r, cfg);
	T_TRUE(hinted(rep, "smb1", "64 KiB", "smb1"));
	json_decref(rep);
	run_init(&r, "smb3", "write", 2.4, 1024);
	rep = judge("small-requests", &r, cfg);
	T_TRUE(hint(rep, "smb1") == NULL);
	json_decref(rep);

	/* NFS writes to a sync export (Debian), not to an async one (DSM). */
	run_init(&r, "nfs3", "write", 2.4, 1024);
	r.topo = t;
	rep = judge("small-requests", &r, cfg);
	T_TRUE(hinted(rep, "nfs_sync", "before it answers",
	    "/srv/data/share to 192.0.2.0/24 (sync,wdelay)"));
	json_decref(rep);
	r.topo = t6;
	rep = judge("small-requests", &r, cfg);
	T_TRUE(hint(rep, "nfs_sync") == NULL);
	json_decref(rep);
	run_init(&r, "nfs3", "read", 2.4, 1024);
	r.topo = t;
	rep = judge("small-requests", &r, cfg);
	T_TRUE(hint(rep, "nfs_sync") == NULL);
	json_decref(rep);
	t_sync_mount(cfg, t);

	/* An 802.3ad bond: the member is the limit, and the MTUs differ. */
	run_init(&r, "smb3", "read", 117, 1048576);
	rep = judge("bond-8023ad", &r, cfg);
	printf("# bond: %s: %s\n", vstr(rep, "resource"), vstr(rep, "summary"));
	T_EQ_STR(vstr(rep, "class"), "network");
	T_EQ_STR(vstr(rep, "resource"), "eth0");
	T_TRUE(strstr(vstr(rep, "summary"), "a member of bond0, 802.3ad") !=
	    NULL);
	T_NEAR(json_number_value(json_object_get(json_object_get(rep,
	    "verdict"), "utilisation_pct")), 93.6, 0.2);
	T_TRUE(hinted(rep, "bond_member", "held to one member's 1000 Mb/s",
	    "802.3ad member eth0 at 1000 Mb/s of the bond's 2000 Mb/s"));
	T_TRUE(hinted(rep, "mtu_mismatch", "its member eth1 has 1500",
	    "bond0 MTU 9000, member eth1 MTU 1500"));
	T_TRUE(hinted(rep, "mtu_path", "uses 1500-byte frames",
	    "eth0 MTU 9000, packets averaged 1448 bytes"));
	json_decref(rep);
	/* A gigabit link with MTU 1500 and no bond: none of them. */
	rep = judge("gbe-117", &r, cfg);
	T_EQ_INT(json_array_size(json_object_get(rep, "hints")), 0);
	json_decref(rep);

	/* An eCryptfs share under a CPU verdict, with the box's cipher. */
	T_OK(mounts_parse_mounts(ecryptfs, sizeof ecryptfs - 1, &t6->mounts,
	    &err));
	run_init(&r, "smb3", "read", 10, 65536);
	r.topo = t6;
	r.crypto = &cr6;
	rep = judge("smbd-one-core", &r, cfg);
	T_TRUE(hinted(rep, "encrypted_volume", "cbc(aes) by mv-cbc-aes",
	    "eCryptfs /volume1/secret"));
	json_decref(rep);
	rep = judge("gbe-117", &r, cfg);
	T_TRUE(hint(rep, "encrypted_volume") == NULL);
	json_decref(rep);

	topology_free(t);
	topology_free(t6);
	crypto_clear(&cr);
	crypto_clear(&cr6);
}

/* One class: check the class, a substring of the resource, and the text. */
static void
check(const char *fixture, const struct verdict_run *r, const struct cfg *cfg,
    const char *cls, const char *resource, const char *summary)
{
	json_t	*rep = judge(fixture, r, cfg);
	char	*text;

	printf("# %s: %s: %s: %s\n", fixture, vstr(rep, "class"),
	    vstr(rep, "resource"), vstr(rep, "summary"));
	T_EQ_STR(vstr(rep, "class"), cls);
	T_TRUE(advice_class(cls) != NULL);
	t_check(strstr(vstr(rep, "resource"), resource) != NULL,
	    "the resource names the culprit", __FILE__, __LINE__,
	    "resource '%s' lacks '%s'", vstr(rep, "resource"), resource);
	t_check(strstr(vstr(rep, "summary"), summary) != NULL,
	    "the summary says why", __FILE__, __LINE__,
	    "summary '%s' lacks '%s'", vstr(rep, "summary"), summary);
	T_TRUE(json_array_size(json_object_get(rep, "evidence")) > 0);
	T_TRUE(json_array_size(json_object_get(json_object_get(rep, "series"),
	    "t")) == 14);
	text = as_text(rep);
	T_TRUE(text != NULL && strstr(text, cls) != NULL);
	T_TRUE(text != NULL && advice_class(cls) != NULL &&
	    strstr(text, "\nwhat to try next\n") != NULL &&
	    strstr(text, advice_class(cls)) != NULL);
	free(text);
	roundtrip(fixture, rep);
	json_decref(rep);
}

/*
 * The run's path decides: busy resources off it are observations naming
 * who kept them busy, a serving process that waited for a CPU is
 * contention, the client's receive window makes a client verdict, and a
 * capacity far below the measured rate is out of date.
 */
static void
t_path(struct cfg *cfg)
{
	struct verdict_run	 r;
	struct verdict_path	 p;
	struct history		*h;
	json_t			*rep;
	char			*cause = NULL;
	double			 old = 30e6;	/* measured on another layout */
	ssize_t			 i;

	/* Without a path, the indexer's core is taken for the run's. */
	run_init(&r, "smb3", "read", 40, 1048576);
	rep = judge("busy-neighbours", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "cpu");
	json_decref(rep);

	/* With it: smbd at 45 % of cpu1, the client slow to read. */
	path_init(&p, "eth0");
	path_proc(&p.proc[0], 4121, "smbd", 1, 1, 45, 2);
	p.nproc = 1;
	path_proc(&p.other[0], 812, "synoindexd", 0, 1, 97, NAN);
	p.nother = 1;
	p.rwnd_limited_pct = 72;
	r.path = &p;
	rep = judge("busy-neighbours", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "client");
	T_TRUE(strstr(vstr(rep, "summary"), "receive window 72 %") != NULL);
	T_TRUE(observed(rep, "cpu0 was 96 % busy"));
	T_TRUE(observed(rep, "synoindexd pid 812 used 97 % of a core, last "
	    "on cpu0"));
	T_TRUE(observed(rep, "eth1 moved 117.0 MB/s"));
	T_TRUE(observed(rep, "off this transfer's path (it went over eth0)"));
	roundtrip("busy-neighbours, client", rep);
	json_decref(rep);

	/*
	 * An upload at a tenth of what a synthetic upload from the client
	 * measured, nothing on the path near its limit: the client sent
	 * slowly.  At two thirds of it, that is no finding.
	 */
	{
		struct verdict_run	u;

		run_init(&u, "smb3", "write", 4, 1048576);
		u.path = &p;
		p.rwnd_limited_pct = NAN;
		u.path_capacity = 40e6;
		u.path_capacity_time = T0 - 60;
		check("idle-server", &u, cfg, "client", "the client (it "
		    "sent slowly)", "it sent 4.0 MB/s, 10 % of the 40.0 MB/s "
		    "the path from it carried in a synthetic test, 67 s ago");
		u.path_capacity = 6e6;
		rep = judge("idle-server", &u, cfg);
		T_TRUE(strcmp(vstr(rep, "resource"), "the client (it sent "
		    "slowly)") != 0);
		json_decref(rep);
		run_init(&u, "smb3", "read", 4, 1048576);	/* a read */
		u.path = &p;
		u.path_capacity = 40e6;
		rep = judge("idle-server", &u, cfg);
		T_TRUE(strcmp(vstr(rep, "resource"), "the client (it sent "
		    "slowly)") != 0);
		json_decref(rep);
	}

	/*
	 * Nothing on the path near its limit, no window: the busiest thing
	 * on the path is named, with low confidence; never the indexer.
	 */
	p.rwnd_limited_pct = 3;
	rep = judge("busy-neighbours", &r, cfg);
	T_EQ_STR(vstr(rep, "resource"), "smbd pid 4121");
	T_EQ_STR(vstr(rep, "confidence"), "low");
	json_decref(rep);

	/*
	 * 5000 segments sent again of some 193,000 (2.6 %), nothing on the
	 * path near its limit: loss on the way to the client; 50 (0.03 %)
	 * is no finding.
	 */
	p.retransmits = 5000;
	check("busy-neighbours", &r, cfg, "network", "(loss)", "5000 segments "
	    "retransmitted, 2.6 % of what the server sent");
	p.retransmits = 50;
	rep = judge("busy-neighbours", &r, cfg);
	T_TRUE(strcmp(vstr(rep, "resource"), "the network path to the client "
	    "(loss)") != 0);
	json_decref(rep);
	p.retransmits = 0;

	/* smbd waited for a CPU half the window: contention, naming who. */
	path_proc(&p.proc[0], 4121, "smbd", 0, 1, 45, 50);
	check("busy-neighbours", &r, cfg, "contention", "smbd pid 4121",
	    "contention: smbd pid 4121 waited for a CPU 50 % of the window "
	    "while it served this transfer; synoindexd pid 812 used 97 % of "
	    "a core, last on cpu0");

	/*
	 * The same wait, its path over eth1 at its limit: the link is the
	 * bound, the wait a finding beside it.
	 */
	snprintf(p.nic, sizeof p.nic, "eth1");
	rep = judge("busy-neighbours", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "network");
	T_EQ_STR(vstr(rep, "resource"), "eth1");
	T_TRUE(observed(rep, "contention: smbd pid 4121 waited for a CPU 50 %"));
	json_decref(rep);
	snprintf(p.nic, sizeof p.nic, "eth0");

	/* smbd alone at a core's worth: cpu, its core named once. */
	path_proc(&p.proc[0], 4121, "smbd", 1, 1, 98, 1);
	check("busy-neighbours", &r, cfg, "cpu", "smbd pid 4121",
	    "cpu-bound on one core: smbd pid 4121 used 98 % of a core serving "
	    "this transfer, last on cpu1 (one thread: more cores do not "
	    "help)");

	/*
	 * The kernel's nfsd threads, summed: a core's worth is not their
	 * bound on two cores; both cores' worth is.
	 */
	path_proc(&p.proc[0], 1502, "nfsd", -1, 8, 98, 1);
	p.proc[0].kernel = 1;
	rep = judge("busy-neighbours", &r, cfg);
	T_EQ_STR(vstr(rep, "confidence"), "low");	/* nothing at its limit */
	T_TRUE(strstr(vstr(rep, "summary"), "cpu-bound") == NULL);
	printf("# %s\n", vstr(rep, "summary"));
	json_decref(rep);
	p.proc[0].cpu_pct = 196;
	check("busy-neighbours", &r, cfg, "cpu", "the kernel's nfsd (8 "
	    "threads)", "cpu-bound: the kernel's nfsd (8 threads) used 196 % "
	    "of a core serving this transfer, 2 of the 2 cores it can use");

	/* Held by its quota: cpu, not the wait the throttling causes. */
	path_proc(&p.proc[0], 4121, "smbd", 1, 1, 20, 75);
	p.proc[0].quota_cores = 0.2;
	p.proc[0].throttled_pct = 80;
	rep = judge("busy-neighbours", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "cpu");
	T_TRUE(strstr(vstr(rep, "summary"), "held by its cgroup's CPU quota "
	    "(0.20 cores)") != NULL);
	json_decref(rep);
	/* Its quota periods, where cpu.stat counts them, as for a group. */
	p.proc[0].throttled_pct = 10;
	p.proc[0].throttled_periods_pct = 60;
	rep = judge("busy-neighbours", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "cpu");
	T_TRUE(strstr(vstr(rep, "summary"), "throttled in 60 % of its quota "
	    "periods") != NULL);
	json_decref(rep);

	/* The synthetic data plane reads no disk: a busy array is not it. */
	run_init(&r, "http", "read", 605, 1048576);
	path_init(&p, "eth0");
	p.synth = 1;
	path_proc(&p.proc[0], 700, "nasperfd", 1, 4, 30, 1);
	p.nproc = 1;
	r.path = &p;
	rep = judge("raid6-busy", &r, cfg);
	T_TRUE(strcmp(vstr(rep, "class"), "disk") != 0);
	T_TRUE(strcmp(vstr(rep, "class"), "cache") != 0);
	T_TRUE(observed(rep, "md2 was busy 99 % of the window, off this "
	    "transfer's path"));
	json_decref(rep);

	/*
	 * The run's files were on md2: a backup keeping sdc busy is not its
	 * bottleneck; had they been on sdc, it would be.
	 */
	run_init(&r, "smb3", "read", 60, 1048576);
	path_init(&p, "eth0");
	path_proc(&p.proc[0], 4121, "smbd", 1, 1, 20, 1);
	p.nproc = 1;
	p.volume_seen = 1;
	snprintf(p.volume, sizeof p.volume, "/volume1");
	snprintf(p.disks[0], sizeof p.disks[0], "md2");
	snprintf(p.disks[1], sizeof p.disks[1], "sda");
	snprintf(p.disks[2], sizeof p.disks[2], "sdb");
	p.ndisks = 3;
	r.path = &p;
	rep = judge("two-volumes", &r, cfg);
	T_TRUE(strcmp(vstr(rep, "class"), "disk") != 0);
	T_TRUE(observed(rep, "sdc was busy 98 % of the window at 95.0 MB/s, "
	    "off this transfer's path (its files are on /volume1)"));
	json_decref(rep);
	/*
	 * What smbd itself read from storage decides the cache, whatever the
	 * disks did for others meanwhile.
	 */
	p.storage_read = 0.5e6;
	check("two-volumes", &r, cfg, "cache", "page cache", "while the "
	    "serving processes read 0.5 MB from the disks (0.1 %)");
	p.storage_read = 400e6;
	rep = judge("two-volumes", &r, cfg);
	T_TRUE(strcmp(vstr(rep, "class"), "cache") != 0);
	json_decref(rep);
	p.storage_read = NAN;
	r.path = NULL;
	check("two-volumes", &r, cfg, "disk", "sdc", "disk-bound");
	snprintf(p.volume, sizeof p.volume, "/volume2");
	snprintf(p.disks[0], sizeof p.disks[0], "sdc");
	p.ndisks = 1;
	r.path = &p;
	check("two-volumes", &r, cfg, "disk", "sdc", "disk-bound");

	/*
	 * 1 MiB reads at 5 a second over a 200 ms round trip: one request
	 * in flight, latency whatever the size; over 20 ms, the client took
	 * its time between requests.
	 */
	run_init(&r, "smb3", "read", 5.2, 1048576);
	r.has_ops = 1;
	r.ops = 35;
	path_init(&p, "eth0");
	path_proc(&p.proc[0], 1500, "smbd", 0, 1, 3, 0);
	p.nproc = 1;
	p.rtt_ms = 200;
	r.path = &p;
	check("idle-server", &r, cfg, "latency", "one request in flight",
	    "each waiting a 200.00 ms round trip (5 requests/s of 1024 KiB "
	    "each)");
	p.rtt_ms = 20;
	check("idle-server", &r, cfg, "client", "client", "not the limit");
	r.path = NULL;

	/* A measured path far below the wire's rate is out of date. */
	run_init(&r, "smb3", "read", 117, 1048576);
	r.path_capacity = 40e6;
	r.path_capacity_time = T0 - 3 * 3600;
	rep = judge("gbe-117", &r, cfg);
	T_TRUE(strcmp(vstr(rep, "class"), "network") != 0 ||
	    json_number_value(json_object_get(json_object_get(rep,
	    "verdict"), "utilisation_pct")) <= 115);
	T_TRUE(observed(rep, "the capacity is out of date"));
	T_TRUE(observed(rep, "(measured path to the client, 3 h ago)"));
	json_decref(rep);
	r.path_capacity = 0;
	r.path_capacity_time = 0;

	/* A baseline far below the disk's rate is out of date too. */
	r.baseline = t_baseline;
	r.baseline_arg = &old;
	rep = judge("gbe-117", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "network");
	T_TRUE(observed(rep, "sda moved 117 MB/s read and 0.00 MB/s written, "
	    "390 % of its baseline"));
	json_decref(rep);
	r.baseline = NULL;
	r.baseline_arg = NULL;
	h = load("gbe-117");

	/* A virtual link's nominal speed is no capacity. */
	if ((i = history_find(h, HIST_NIC, "eth0")) >= 0)
		h->ent[HIST_NIC][i].is_virtual = 1;
	rep = verdict_report(h, &r, cfg, NULL, NULL, &cause);
	T_TRUE(rep != NULL && strcmp(vstr(rep, "class"), "network") != 0);
	T_TRUE(rep != NULL && evidenced(rep, "a virtual link"));
	json_decref(rep);

	/* Three samples cannot give a confident verdict, two barely one. */
	r.end = T0 + 1.0;
	r.seconds = 1.0;
	r.bytes = 117000000;
	if ((i = history_find(h, HIST_NIC, "eth0")) >= 0)
		h->ent[HIST_NIC][i].is_virtual = 0;
	rep = verdict_report(h, &r, cfg, NULL, NULL, &cause);
	T_EQ_STR(vstr(rep, "class"), "network");
	T_EQ_STR(vstr(rep, "confidence"), "medium");
	json_decref(rep);
	r.end = T0 + 0.5;
	r.seconds = 0.5;
	r.bytes = 58500000;
	rep = verdict_report(h, &r, cfg, NULL, NULL, &cause);
	T_EQ_STR(vstr(rep, "class"), "network");
	T_EQ_STR(vstr(rep, "confidence"), "low");
	json_decref(rep);
	free(cause);
	history_free(h);
}

/*
 * A label, a client's name and an observation with control characters
 * reach the text report escaped: no escape sequence for the terminal.
 */
static void
t_text_escaped(void)
{
	json_t	*rep;
	char	*text, *p;
	int	 raw = 0;

	rep = json_loads("{\"run\":{\"id\":\"5\",\"label\":\"a\\u001b[2Jb\\n"
	    "verdict  fake\",\"protocol\":\"smb\",\"op\":\"read\",\"client\":"
	    "\"pc\\u009b31m\\u0007\"},\"verdict\":{\"class\":\"disk\"},"
	    "\"observations\":[{\"text\":\"x\\u007fy\"}]}", 0, NULL);
	T_TRUE(rep != NULL);
	text = as_text(rep);
	T_TRUE(text != NULL);
	if (text == NULL)
		return;
	for (p = text; *p != '\0'; p++)
		raw |= (*p != '\n' && (unsigned char)*p < 0x20) ||
		    *p == 0x7f || ((unsigned char)*p == 0xc2 &&
		    (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f);
	T_EQ_INT(raw, 0);
	T_TRUE(strstr(text, "run 5 \"a\\x1b[2Jb\\x0averdict  fake\": smb read "
	    "from pc\\u009b31m\\x07\n") != NULL);
	T_TRUE(strstr(text, "  - x\\x7fy\n") != NULL);
	free(text);
	json_decref(rep);

	/* A run that named no protocol or operation: none shown. */
	rep = json_loads("{\"run\":{\"id\":\"6\",\"op\":null}}", 0, NULL);
	text = as_text(rep);
	T_TRUE(text != NULL && strncmp(text, "run 6\n", 6) == 0);
	free(text);
	json_decref(rep);
}

/*
 * ZFS and Unraid over recorded windows: a read of a ZFS dataset served by
 * the ARC while another disk of the box reads flat out; the same read
 * from the pool; a parity check and ZFS's write throttle said beside a
 * slow read.
 */
static void
t_zfs(struct cfg *cfg)
{
	struct verdict_run	 r;
	struct verdict_path	 p;
	json_t			*rep;

	path_init(&p, "eth0");
	path_proc(&p.proc[0], 5120, "smbd", 2, 1, 45, 1);
	p.nproc = 1;
	p.volume_seen = 1;
	snprintf(p.volume, sizeof p.volume, "/mnt/tank/share");
	p.zfs = 1;
	snprintf(p.pool, sizeof p.pool, "tank");
	/* ZFS counts every read in read_bytes, the ARC's too. */
	p.storage_read = 800e6 * 7;
	run_init(&r, "smb3", "read", 800, 1048576);
	r.path = &p;
	check("zfs-arc", &r, cfg, "cache", "ZFS ARC", "served from ZFS's ARC: "
	    "99.3 % of ZFS's reads of file data over the window hit memory "
	    "(42700 hits, 280 misses; pool tank)");
	/* Without the path, the busy boot disk says it was not the cache. */
	r.path = NULL;
	rep = judge("zfs-arc", &r, cfg);
	T_TRUE(strcmp(vstr(rep, "class"), "cache") != 0);
	json_decref(rep);

	r.path = &p;
	r.bytes = (uint64_t)(600e6 * 7);
	rep = judge("zfs-miss", &r, cfg);
	printf("# zfs-miss: %s: %s: %s\n", vstr(rep, "class"),
	    vstr(rep, "resource"), vstr(rep, "summary"));
	T_TRUE(strcmp(vstr(rep, "class"), "cache") != 0);
	json_decref(rep);

	/* Not ZFS: the serving processes' own reads decide, as before. */
	p.zfs = 0;
	p.pool[0] = '\0';
	p.storage_read = 1e6;
	r.bytes = (uint64_t)(800e6 * 7);
	rep = judge("zfs-arc", &r, cfg);
	T_EQ_STR(vstr(rep, "resource"), "page cache");
	json_decref(rep);

	run_init(&r, "smb3", "read", 40, 1048576);
	rep = judge("unraid-check", &r, cfg);
	T_TRUE(observed(rep, "a parity check of the Unraid array ran during "
	    "the copy, at 150 MB/s: it reads every disk of the array"));
	/* 35 a second, recorded as 18 each half second: 36. */
	T_TRUE(observed(rep, "ZFS held writes back 36 times a second"));
	roundtrip("unraid-check", rep);
	json_decref(rep);
	/* A box with neither says nothing of them. */
	rep = judge("gbe-117", &r, cfg);
	T_TRUE(!observed(rep, "Unraid") && !observed(rep, "ZFS"));
	json_decref(rep);

	/*
	 * zpool status says pool backup2 is being scrubbed (a real
	 * capture): said beside a read from that pool, not beside one from
	 * another.
	 */
	{
		struct topology		*t = topology_new();
		struct zfs_status	*st = malloc(sizeof *st);
		const char		*err;
		char			*text;
		size_t			 len;

		text = t_fixture("zfs/status-scrub-raidz3-zfs18150.txt", &len);
		T_OK(zfs_status_parse(text, len, st, &err));
		free(text);
		t->zpool = st;
		run_init(&r, "smb3", "read", 600, 1048576);
		r.topo = t;
		r.path = &p;
		p.zfs = 1;
		snprintf(p.pool, sizeof p.pool, "backup2");
		rep = judge("zfs-miss", &r, cfg);
		T_TRUE(observed(rep, "a scrub of ZFS pool backup2 was running, "
		    "34.8 % done, at 3468 MB/s: it reads every disk of the "
		    "pool"));
		json_decref(rep);
		snprintf(p.pool, sizeof p.pool, "tank");
		rep = judge("zfs-miss", &r, cfg);
		T_TRUE(!observed(rep, "scrub"));
		json_decref(rep);

		/*
		 * zfs get says the dataset keeps no file data in the ARC (a
		 * real capture), or takes every write synchronously: hints.
		 */
		{
			struct zfs_datasets	ds;
			static const char	always[] =
			    "tank/share\tsync\talways\n";

			memset(&ds, 0, sizeof ds);
			text = t_fixture("zfs/get-local-received-zfs12953.txt",
			    &len);
			T_OK(zfs_datasets_parse(text, len, &ds, &err));
			free(text);
			t->zfs_datasets = &ds;
			snprintf(p.pool, sizeof p.pool, "zp-3x12-a");
			snprintf(p.dataset, sizeof p.dataset,
			    "zp-3x12-a/backup");
			rep = judge("zfs-miss", &r, cfg);
			T_TRUE(hinted(rep, "zfs_primarycache", "the ARC keeps "
			    "none of its file data", "zp-3x12-a/backup: "
			    "primarycache=none"));
			json_decref(rep);
			snprintf(p.dataset, sizeof p.dataset, "zp-3x12-a");
			rep = judge("zfs-miss", &r, cfg);
			T_TRUE(hint(rep, "zfs_primarycache") == NULL);
			json_decref(rep);
			T_OK(zfs_datasets_parse(always, sizeof always - 1, &ds,
			    &err));
			snprintf(p.dataset, sizeof p.dataset, "tank/share");
			run_init(&r, "smb3", "write", 50, 1048576);
			r.topo = t;
			r.path = &p;
			rep = judge("zfs-miss", &r, cfg);
			T_TRUE(hinted(rep, "zfs_sync_always", "every write waits "
			    "until the intent log has it", "tank/share: "
			    "sync=always"));
			json_decref(rep);
			zfs_datasets_clear(&ds);
		}
		r.topo = NULL;
		free(st);
		topology_free(t);
	}
}

/*
 * Synchronous writes to a ZFS dataset (a recorded window): an NFS
 * client's stable writes, each committed by the intent log, while the
 * boot disk reads flat out off the path.  The log's pool with and without
 * a log device (real zpool status captures); the commits of some other
 * writer, far fewer than this run's requests; a run that did not count
 * its requests, to a dataset with sync=always or not.
 */
static void
t_zfs_sync(struct cfg *cfg)
{
	static struct zfs_status	 st, boot;
	static struct zfs_viostat	 io;
	static const char		 always[] = "pool0/nfs\tsync\talways\n";
	struct zfs_datasets		 ds;
	struct topology			*t = topology_new();
	struct verdict_run		 r;
	struct verdict_path		 p;
	const char			*err;
	char				*text;
	size_t				 len, i;
	json_t				*rep;

	path_init(&p, "eth0");
	p.sent = 0.3e6 * 7;
	p.received = 8e6 * 7;
	path_proc(&p.proc[0], 2101, "nfsd", 1, 8, 9, 0);
	p.nproc = 1;
	p.volume_seen = 1;
	p.zfs = 1;
	snprintf(p.volume, sizeof p.volume, "/mnt/pool0/nfs");
	snprintf(p.pool, sizeof p.pool, "pool0");
	snprintf(p.dataset, sizeof p.dataset, "pool0/nfs");
	for (i = 0; i < 6; i++)
		snprintf(p.disks[p.ndisks++], sizeof p.disks[0], "sd%c",
		    (char)('a' + i));
	run_init(&r, "nfs3", "write", 7.9, 65536);
	r.has_ops = 1;
	r.ops = 120 * 7;
	r.path = &p;
	check("zfs-sync", &r, cfg, "latency", "ZFS intent log",
	    "ZFS's intent log committed 118 times a second, 0.98 for each "
	    "write request, while nothing on the path was saturated");
	rep = judge("zfs-sync", &r, cfg);
	T_TRUE(strstr(vstr(rep, "summary"), "on the pool's disks or its log "
	    "device") != NULL);
	T_TRUE(hinted(rep, "zfs_sync_writes", "the client asked for each to "
	    "be on stable storage", "pool0/nfs: synchronous writes"));
	T_TRUE(advice_hint("zfs_sync_writes") != NULL);
	json_decref(rep);

	/* zpool status: pool0 has two log devices; boot-pool none. */
	text = t_fixture("zfs/status-raidz2-logs-cache-omnios1483.txt", &len);
	T_OK(zfs_status_parse(text, len, &st, &err));
	free(text);
	text = t_fixture("zfs/status-truenas-scale-boot-pool.txt", &len);
	T_OK(zfs_status_parse(text, len, &boot, &err));
	free(text);
	st.pools[st.npools++] = boot.pools[0];
	t->zpool = &st;
	r.topo = t;
	rep = judge("zfs-sync", &r, cfg);
	T_TRUE(strstr(vstr(rep, "summary"), "on the log device (SLOG) of the "
	    "pool") != NULL);
	json_decref(rep);
	snprintf(p.pool, sizeof p.pool, "boot-pool");
	rep = judge("zfs-sync", &r, cfg);
	T_TRUE(strstr(vstr(rep, "summary"), "on the pool's own disks, as it "
	    "has no log device (SLOG)") != NULL);
	json_decref(rep);

	/*
	 * zpool iostat's second inside the run (a real capture of a pool
	 * writing to its log device): the log device's latency, and the log
	 * device known from it where zpool status was not read.
	 */
	text = t_fixture("zfs/iostat-vl-logs-zfs4433.txt", &len);
	T_OK(zfs_viostat_parse(text, len, &io, &err));
	free(text);
	t->zpool = NULL;
	t->zfs_io = &io;
	t->zfs_io_at = r.start + 3;
	snprintf(p.pool, sizeof p.pool, "mypool");
	rep = judge("zfs-sync", &r, cfg);
	printf("# zfs-sync with zpool iostat: %s\n", vstr(rep, "summary"));
	T_TRUE(strstr(vstr(rep, "summary"), "on the log device (SLOG) of the "
	    "pool, where a write waited 49 ms") != NULL);
	T_TRUE(observed(rep, "zpool iostat, over a second of the run: log "
	    "device A3 of pool mypool wrote 1966 times a second, a write "
	    "waiting 49 ms in all: 2 ms on the device, 47 ms in ZFS's queue of "
	    "synchronous writes"));
	json_decref(rep);
	/* A second outside the run is not its evidence. */
	t->zfs_io_at = r.start - 5;
	rep = judge("zfs-sync", &r, cfg);
	T_TRUE(strstr(vstr(rep, "summary"), "on the pool's disks or its log "
	    "device") != NULL);
	T_TRUE(strstr(vstr(rep, "summary"), "waited 49 ms") == NULL);
	T_TRUE(!observed(rep, "zpool iostat"));
	json_decref(rep);
	t->zfs_io_at = r.end + 3;
	rep = judge("zfs-sync", &r, cfg);
	T_TRUE(!observed(rep, "zpool iostat"));
	json_decref(rep);
	/* The pool as a whole when zpool status says it has no SLOG. */
	st.pools[0] = boot.pools[0];
	snprintf(st.pools[0].name, sizeof st.pools[0].name, "mypool");
	st.npools = 1;
	t->zpool = &st;
	t->zfs_io_at = r.end;
	rep = judge("zfs-sync", &r, cfg);
	T_TRUE(strstr(vstr(rep, "summary"), "as it has no log device (SLOG), "
	    "where a write waited 41 ms") != NULL);
	T_TRUE(observed(rep, "over a second of the run: pool mypool wrote "
	    "2427 times a second, a write waiting 41 ms in all: 2 ms on the "
	    "disks, 46 ms in ZFS's queue of synchronous writes"));
	json_decref(rep);
	t->zfs_io = NULL;
	t->zpool = NULL;
	snprintf(p.pool, sizeof p.pool, "pool0");

	/* Ten times the requests: the commits were some other writer's. */
	r.ops = 1200 * 7;
	rep = judge("zfs-sync", &r, cfg);
	printf("# zfs-sync, 1200 requests a second: %s: %s\n",
	    vstr(rep, "class"), vstr(rep, "resource"));
	T_TRUE(strstr(vstr(rep, "resource"), "intent log") == NULL);
	json_decref(rep);

	/* Requests not counted: only a dataset with sync=always says it. */
	r.has_ops = 0;
	r.ops = 0;
	rep = judge("zfs-sync", &r, cfg);
	T_TRUE(strstr(vstr(rep, "resource"), "intent log") == NULL);
	json_decref(rep);
	memset(&ds, 0, sizeof ds);
	T_OK(zfs_datasets_parse(always, sizeof always - 1, &ds, &err));
	t->zfs_datasets = &ds;
	rep = judge("zfs-sync", &r, cfg);
	T_EQ_STR(vstr(rep, "resource"), "ZFS intent log (synchronous writes)");
	T_TRUE(strstr(vstr(rep, "summary"), "for each write request") == NULL);
	T_TRUE(hint(rep, "zfs_sync_always") != NULL);
	T_TRUE(hint(rep, "zfs_sync_writes") == NULL);
	json_decref(rep);

	/* A read over the same window is no such thing. */
	run_init(&r, "nfs3", "read", 7.9, 65536);
	r.topo = t;
	r.path = &p;
	rep = judge("zfs-sync", &r, cfg);
	T_TRUE(strstr(vstr(rep, "resource"), "intent log") == NULL);
	json_decref(rep);
	zfs_datasets_clear(&ds);
	t->zfs_datasets = NULL;
	t->zpool = NULL;
	topology_free(t);
}

int
main(void)
{
	struct cfg		*cfg = cfg_default();
	struct verdict_run	 r;
	struct history		*h, *h2;
	const char		*errstr;
	json_t			*rep, *doc, *doc2, *v;

	if (cfg == NULL) {
		printf("Bail out! no default configuration\n");
		return (1);
	}
	run_init(&r, "smb3", "read", 605, 1048576);
	check("raid6-busy", &r, cfg, "disk", "md2", "array of 8 disks");
	rep = judge("raid6-busy", &r, cfg);
	T_NEAR(json_number_value(json_object_get(json_object_get(rep,
	    "verdict"), "utilisation_pct")), 99, 0.6);
	T_EQ_STR(vstr(rep, "confidence"), "high");
	json_decref(rep);

	run_init(&r, "smb3", "read", 117, 1048576);
	check("gbe-117", &r, cfg, "network", "eth0", "1000 Mb/s");
	rep = judge("gbe-117", &r, cfg);
	T_NEAR(json_number_value(json_object_get(json_object_get(rep,
	    "verdict"), "utilisation_pct")), 93.6, 0.2);
	json_decref(rep);

	run_init(&r, "smb2", "read", 10, 65536);
	check("smbd-one-core", &r, cfg, "cpu", "smbd pid 4121 on cpu2",
	    "while the other 3 cores");

	run_init(&r, "smb3", "read", 1000, 1048576);
	check("cache", &r, cfg, "cache", "page cache", "MB from the disks");
	/*
	 * The same read from the cache with the sender held by the client's
	 * receive window: the client set the pace, the cache is said beside.
	 */
	{
		struct verdict_path	cp;

		path_init(&cp, "eth0");
		cp.rwnd_limited_pct = 80;
		cp.storage_read = 0;
		r.path = &cp;
		check("cache", &r, cfg, "client", "the client's receive window",
		    "receive window 80 %");
		rep = judge("cache", &r, cfg);
		T_TRUE(observed(rep, "the data came from the page cache"));
		json_decref(rep);
		r.path = NULL;
	}

	run_init(&r, "smb1", "write", 2.4, 1024);
	check("small-requests", &r, cfg, "latency", "1024-byte", "round trip");

	run_init(&r, "smb3", "read", 5.2, 1048576);
	check("idle-server", &r, cfg, "client", "client", "not the limit");

	run_init(&r, "smb3", "read", 60, 1048576);
	check("smbd-quota", &r, cfg, "cpu", "smbd pid 5150", "CPU quota");
	/* Without a path: the throttled cgroup's smbd, not the busiest. */
	run_init(&r, "smb3", "read", 20, 1048576);
	check("quota-elsewhere", &r, cfg, "cpu", "pid 5150 (group smb)",
	    "CPU quota");

	t_hints(cfg);
	t_path(cfg);
	t_zfs(cfg);
	t_zfs_sync(cfg);

	/* A client that claims far more than the wire carried. */
	run_init(&r, "smb3", "read", 600, 1048576);
	rep = judge("idle-server", &r, cfg);
	T_TRUE(observed(rep, "the server's interfaces moved only"));
	json_decref(rep);

	/* Thresholds come from the configuration. */
	cfg->v_nic_util_pct = 95;
	run_init(&r, "smb3", "read", 117, 1048576);
	rep = judge("gbe-117", &r, cfg);
	/* 93.6 % is below 95 %: named as the busiest, with low confidence. */
	T_EQ_STR(vstr(rep, "confidence"), "low");
	T_TRUE(strstr(vstr(rep, "summary"), "nothing saturated") != NULL);
	json_decref(rep);
	cfg->v_nic_util_pct = 90;

	/* A cached read the CPU bounded: still the cache, the CPU said. */
	cfg->v_core_busy_pct = 50;
	run_init(&r, "smb3", "read", 1000, 1048576);
	rep = judge("cache", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "cache");
	T_TRUE(strstr(vstr(rep, "summary"), "the copy kept busy") != NULL);
	T_TRUE(observed(rep, "bounded by the CPU"));
	json_decref(rep);
	cfg->v_core_busy_pct = 90;

	/* A measured path slower than the link is the capacity that counts. */
	run_init(&r, "smb3", "read", 117, 1048576);
	r.path_capacity = 120e6;
	rep = judge("gbe-117", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "network");
	T_NEAR(json_number_value(json_object_get(json_object_get(rep,
	    "verdict"), "utilisation_pct")), 97.5, 0.2);
	v = json_object_get(json_array_get(json_object_get(rep, "evidence"),
	    1), "detail");
	T_TRUE(json_is_string(v) && strstr(json_string_value(v),
	    "measured path") != NULL);
	json_decref(rep);
	r.path_capacity = 500e6;	/* faster than the link: the link */
	rep = judge("gbe-117", &r, cfg);
	T_NEAR(json_number_value(json_object_get(json_object_get(rep,
	    "verdict"), "utilisation_pct")), 93.6, 0.2);
	json_decref(rep);

	/* With a baseline, a disk at 40 % busy may still be at its limit. */
	run_init(&r, "smb3", "read", 117, 1048576);
	r.baseline = t_baseline;
	rep = judge("gbe-117", &r, cfg);
	T_EQ_STR(vstr(rep, "class"), "disk");
	T_EQ_STR(vstr(rep, "resource"), "sda");
	T_NEAR(json_number_value(json_object_get(json_object_get(rep,
	    "verdict"), "utilisation_pct")), 97.5, 0.3);
	T_TRUE(strstr(vstr(rep, "summary"), "disk analyzer") != NULL);
	json_decref(rep);

	/*
	 * The three ceilings of the same read over a path: the disks under
	 * its volume (sda's baseline, the volume having none), the link (no
	 * path capacity measured), and the share of the lower one it got.
	 */
	{
		struct verdict_path	 p;
		const json_t		*c;
		char			*text;

		path_init(&p, "eth0");
		p.volume_seen = 1;
		snprintf(p.volume, sizeof p.volume, "/volume1");
		snprintf(p.disks[0], sizeof p.disks[0], "md2");
		snprintf(p.disks[1], sizeof p.disks[1], "sda");
		p.ndisks = 2;
		r.path = &p;
		rep = judge("gbe-117", &r, cfg);
		c = json_object_get(rep, "ceilings");
		T_NEAR(json_number_value(json_object_get(json_object_get(c,
		    "disks"), "bytes_per_s")), 120e6, 1);
		T_EQ_STR(json_string_value(json_object_get(json_object_get(c,
		    "disks"), "of")), "sda");
		T_NEAR(json_number_value(json_object_get(json_object_get(c,
		    "disks"), "measured")), T0 - 3600, 0.01);
		T_NEAR(json_number_value(json_object_get(json_object_get(c,
		    "network"), "bytes_per_s")), 125e6, 1);
		T_EQ_STR(json_string_value(json_object_get(json_object_get(c,
		    "network"), "basis")), "its link speed");
		T_EQ_STR(json_string_value(json_object_get(c, "lower")),
		    "disks");
		T_NEAR(json_number_value(json_object_get(c,
		    "share_of_lower_pct")), 97.5, 0.1);
		text = as_text(rep);
		T_TRUE(text != NULL && strstr(text, "ceilings\n         disks"
		    "    120 MB/s read, sda by the disk analyzer") != NULL &&
		    strstr(text, "transfer 117 MB/s: 98 % of the lower ceiling, "
		    "the disks'") != NULL);
		free(text);
		json_decref(rep);

		/* A capacity measured from the client comes first. */
		r.path_capacity = 60e6;
		r.path_capacity_time = T0 - 30;
		rep = judge("gbe-117", &r, cfg);
		c = json_object_get(rep, "ceilings");
		T_NEAR(json_number_value(json_object_get(json_object_get(c,
		    "network"), "bytes_per_s")), 60e6, 1);
		T_EQ_STR(json_string_value(json_object_get(c, "lower")),
		    "network");
		text = as_text(rep);
		T_TRUE(text != NULL && strstr(text, "network  60.0 MB/s, eth0 "
		    "by a synthetic test") != NULL && strstr(text,
		    "of the lower ceiling, the network's\n") != NULL);
		free(text);
		json_decref(rep);

		/* The run's interface unknown: the line names none. */
		p.nic[0] = '\0';
		rep = judge("gbe-117", &r, cfg);
		text = as_text(rep);
		T_TRUE(text != NULL && strstr(text, "network  60.0 MB/s, by a "
		    "synthetic test") != NULL);
		free(text);
		json_decref(rep);
		snprintf(p.nic, sizeof p.nic, "eth0");

		/* Without a baseline the disks' ceiling says how to get one. */
		r.baseline = NULL;
		rep = judge("gbe-117", &r, cfg);
		T_TRUE(strstr(json_string_value(json_object_get(json_object_get(
		    json_object_get(rep, "ceilings"), "disks"), "how")),
		    "nasperf disktest") != NULL);
		json_decref(rep);
		r.path = NULL;
		r.path_capacity = 0;
	}
	r.baseline = NULL;

	/* Windows outside the history. */
	h = load("gbe-117");
	run_init(&r, "smb3", "read", 117, 0);
	r.start = T0 - 3600;
	r.end = T0 + 1;
	errno = 0;
	{
		char	*cause = NULL;

		T_TRUE(verdict_report(h, &r, cfg, NULL, NULL, &cause) == NULL);
		T_EQ_INT(errno, ERANGE);
		T_TRUE(cause != NULL && strstr(cause, "no longer covers") !=
		    NULL);
		free(cause);
	}

	/* The history reads back what it wrote, sample for sample. */
	doc = history_to_json(h, NULL);
	h2 = history_new(0.5, 600, 10, 100);
	T_OK(history_from_json(h2, doc, &errstr));
	doc2 = history_to_json(h2, NULL);
	T_TRUE(json_equal(json_object_get(doc, "samples"),
	    json_object_get(doc2, "samples")));
	{
		size_t	full;

		history_count(h2, &full, NULL);
		T_EQ_INT(full, 15);
	}
	T_EQ_INT(history_find(h2, HIST_NIC, "eth0"), 0);
	T_EQ_INT(h2->ent[HIST_NIC][0].speed_mbps, 1000);
	json_decref(doc2);
	history_free(h2);

	/* A small full ring keeps the newest; the coarse one the older. */
	h2 = history_new(0.5, 4, 2.0, 100);
	T_OK(history_from_json(h2, doc, &errstr));
	{
		size_t	full, coarse;
		struct hist_window w;

		history_count(h2, &full, &coarse);
		T_EQ_INT(full, 4);
		T_EQ_INT(coarse, 4);	/* t = 0, 2, 4, 6 */
		T_OK(history_window(h2, T0, T0 + 7, 0, &w));
		T_EQ_INT(w.n, 3 + 4);	/* coarse 0,2,4 then full 5.5..7 */
		T_NEAR(w.s[0]->t, T0, 1e-6);
		T_NEAR(w.s[w.n - 1]->t, T0 + 7, 1e-6);
		history_window_clear(&w);
	}
	history_free(h2);
	json_decref(doc);

	/* Damaged documents are refused with a reason. */
	h2 = history_new(0.5, 4, 2.0, 10);
	v = json_pack("{s:s}", "format", "something else");
	T_TRUE(history_from_json(h2, v, &errstr) == -1 && errstr != NULL);
	json_decref(v);
	history_free(h2);
	h2 = history_new(0.5, 4, 2.0, 10);
	v = json_pack("{s:s,s:i,s:[],s:[],s:[],s:[],s:[{s:f,s:[s]}]}",
	    "format", "nasperf-history", "version", 1, "cpus", "disks", "nics",
	    "groups", "samples", "t", T0, "sys", "x");
	T_TRUE(history_from_json(h2, v, &errstr) == -1 && errstr != NULL);
	json_decref(v);
	history_free(h2);

	history_free(h);
	cfg_free(cfg);
	t_text_escaped();
	return (t_done());
}
