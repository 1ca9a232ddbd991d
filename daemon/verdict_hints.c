/*
 * verdict_hints.c: the likely cause behind a verdict, from the server's
 * protocol settings: SMB signing and encryption on the client's session
 * (with the box's AES support), SMB1, synchronous NFS exports, MTU
 * mismatches, a hashing bond that holds one client to one member,
 * encrypted volumes, and a ZFS dataset's sync and primarycache.  Each hint states the figure that triggered it.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "crypto.h"
#include "encode.h"
#include "history.h"
#include "np.h"
#include "smbstatus.h"
#include "topology.h"
#include "verdict.h"

#define H_MAX_LIST	3	/* exports, volumes named in one hint */
#define H_ETH_FRAME	1514	/* the largest 1500-MTU Ethernet frame */
#define H_MIN_PPS	100.0	/* packets/s for an MTU figure to count */
#define H_SESS_BUSY	50.0	/* % of a core: the session's smbd is busy */

/* Append a hint: its kind, sentence and triggering figure. */
static NP_PRINTF(4, 5) void
h_add(json_t *a, const char *kind, const char *figure, const char *fmt, ...)
{
	char	text[2400];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	json_array_append_new(a, json_pack("{s:s,s:o,s:o}", "kind", kind,
	    "text", enc_text(text), "figure", enc_text(figure)));
}

/* Whether s starts with prefix, without case. */
static int
h_prefix(const char *s, const char *prefix)
{
	return (s != NULL && strncasecmp(s, prefix, strlen(prefix)) == 0);
}

/* Append a ", "-separated item to the list in out (n items so far). */
static NP_PRINTF(4, 5) void
h_append(char *out, size_t outsz, size_t n, const char *fmt, ...)
{
	size_t	len = strlen(out);
	va_list	ap;

	if (n > 0 && len < outsz)
		len += (size_t)snprintf(out + len, outsz - len, ", ");
	if (len >= outsz)
		return;
	va_start(ap, fmt);
	vsnprintf(out + len, outsz - len, fmt, ap);
	va_end(ap);
}

/*
 * The kernel's AES as "aes by aesni_intel (CPU instructions)": the
 * highest-priority AES algorithm users can have.  "" without /proc/crypto.
 */
static void
h_aes(const struct crypto *c, const char *want, char *out, size_t outsz)
{
	const struct crypto_alg	*a, *best = NULL;
	size_t			 i;

	out[0] = '\0';
	if (c == NULL || c->nalgs == 0)
		return;
	for (i = 0; i < c->nalgs; i++) {
		a = &c->algs[i];
		if (a->internal || strstr(a->name, "aes") == NULL ||
		    (want != NULL && strcmp(a->name, want) != 0))
			continue;
		if (best == NULL || a->accel > best->accel ||
		    (a->accel == best->accel && a->priority > best->priority))
			best = a;
	}
	if (best == NULL && want != NULL) {
		h_aes(c, NULL, out, outsz);
		return;
	}
	if (best == NULL)
		snprintf(out, outsz, "no AES in /proc/crypto");
	else
		snprintf(out, outsz, "%s by %s (%s)", best->name, best->driver,
		    best->accel == CRYPTO_ACCEL_HW ? "an offload engine" :
		    best->accel == CRYPTO_ACCEL_CPU ? "CPU instructions" :
		    "generic C code, no acceleration");
}

/* Whether resource names process pid ("smbd pid 4121 on cpu2"). */
static int
h_names_pid(const char *resource, int pid)
{
	char		 want[32];
	const char	*p;
	size_t		 len;

	len = (size_t)snprintf(want, sizeof want, "pid %d", pid);
	for (p = resource; (p = strstr(p, want)) != NULL; p += len)
		if (p[len] < '0' || p[len] > '9')
			return (1);
	return (0);
}

/* SMB signing and encryption of the client's session, under a CPU verdict. */
static void
h_smb_crypto(json_t *a, const struct verdict_facts *f)
{
	const struct smbstatus_session	*s = f->run->session;
	const struct smbstatus_crypto	*c;
	char				 fig[400], cost[200], plain[200], aes[256];
	const char			*what;

	if (s == NULL || f->cls != VERDICT_CPU)
		return;
	/*
	 * Only the session's own smbd is bound by its cipher: the verdict
	 * names it, or names a core it kept busy.
	 */
	if (!h_names_pid(f->resource, s->pid) &&
	    (strstr(f->resource, "pid ") != NULL || !f->sess_cpu_known ||
	    f->sess_pct < H_SESS_BUSY))
		return;
	if (s->encryption.degree == SMBSTATUS_FULL) {
		c = &s->encryption;
		what = "encryption";
	} else if (s->signing.degree == SMBSTATUS_FULL) {
		c = &s->signing;
		what = "signing";
	} else
		return;
	cost[0] = plain[0] = '\0';
	if (f->sess_cpu_known && isfinite(f->client_rate) &&
	    f->client_rate > 0)
		snprintf(cost, sizeof cost, "; smbd pid %d used %.0f %% of a "
		    "core on cpu%d for %.1f MB/s, %.2f CPU-seconds per GB",
		    s->pid, f->sess_pct, f->sess_core, f->client_rate / 1e6,
		    f->sess_pct / 100.0 / (f->client_rate / 1e9));
	if (f->run->plain_rate > 0 && isfinite(f->client_rate) &&
	    f->run->plain_rate > f->client_rate)
		snprintf(plain, sizeof plain, "; run %s from this client "
		    "without %s moved %.1f MB/s against %.1f MB/s here",
		    f->run->plain_id != NULL ? f->run->plain_id : "?", what,
		    f->run->plain_rate / 1e6, f->client_rate / 1e6);
	/*
	 * smbd ciphers in user space (GnuTLS), with the CPU's AES
	 * instructions where they exist; an offload engine in /proc/crypto
	 * serves only the kernel.
	 */
	if (f->run->topo != NULL && (f->run->topo->have & TOPOLOGY_CPU))
		snprintf(aes, sizeof aes, "%s", cpuinfo_has_aes(
		    &f->run->topo->cpu) ? "the CPU has AES instructions "
		    "(cpuinfo flag aes), which Samba's GnuTLS uses" : "the CPU "
		    "has no AES instructions (no aes in cpuinfo), so Samba's "
		    "GnuTLS computes AES in plain code");
	else
		snprintf(aes, sizeof aes, "unknown (no /proc/cpuinfo)");
	snprintf(fig, sizeof fig, "%s %s on every packet, %s, smbd pid %d%s",
	    what, c->cipher[0] ? c->cipher : "on", s->dialect[0] ? s->dialect :
	    "dialect unknown", s->pid, cost);
	h_add(a, strcmp(what, "signing") == 0 ? "smb_signing" :
	    "smb_encryption", fig, "SMB %s (%s) is on for every packet of "
	    "this client's session (%s, smbd pid %d): smbd computes it for "
	    "each byte on one core%s%s.  AES: %s.  %s trades "
	    "%s for speed", what, c->cipher[0] ? c->cipher : "cipher unknown",
	    s->dialect[0] ? s->dialect : "dialect unknown", s->pid, cost,
	    plain, aes, strcmp(what, "signing") == 0 ? "Signing only where the client "
	    "asks for it (server signing = auto, and no client that requires "
	    "it)" : "Encrypting only the shares that need it (smb encrypt = "
	    "if_required or off on the others)", strcmp(what, "signing") == 0 ?
	    "integrity" : "privacy and integrity");
}

/* SMB1 in use: the run said so, or its session's dialect does. */
static void
h_smb1(json_t *a, const struct verdict_facts *f)
{
	const struct smbstatus_session	*s = f->run->session;
	const struct topology		*t = f->run->topo;
	char				 fig[120], conf[120];
	const char			*d = NULL;

	if (s != NULL && (strcmp(s->dialect, "NT1") == 0 ||
	    h_prefix(s->dialect, "SMB1") || h_prefix(s->dialect, "LANMAN")))
		d = s->dialect;
	else if (f->run->protocol != NULL &&
	    strcmp(f->run->protocol, "smb1") == 0)
		d = "smb1 (as the client reported)";
	if (d == NULL)
		return;
	snprintf(fig, sizeof fig, "dialect %s", d);
	conf[0] = '\0';
	if (t != NULL && (t->have & TOPOLOGY_SMB))
		snprintf(conf, sizeof conf, "  smb.conf: server min protocol "
		    "= %s", t->smb.server_min_protocol);
	h_add(a, "smb1", fig, "SMB1 is in use (%s): it moves at most 64 KiB "
	    "per request with one request in flight per credit, has no "
	    "multi-channel and is deprecated; a client that can speak SMB2 "
	    "or SMB3 is faster.%s", d, conf);
}

/* NFS writes to a sync export. */
static void
h_nfs_sync(json_t *a, const struct verdict_facts *f)
{
	const struct topology		*t = f->run->topo;
	const struct exports_entry	*x;
	const struct exports_client	*c;
	char				 fig[1600];
	size_t				 i, j, n = 0;

	if (t == NULL || !(t->have & TOPOLOGY_EXPORTS) ||
	    !h_prefix(f->run->protocol, "nfs") || f->run->op == NULL ||
	    strcmp(f->run->op, "write") != 0)
		return;
	fig[0] = '\0';
	for (i = 0; i < t->exports.n && n < H_MAX_LIST; i++) {
		x = &t->exports.v[i];
		for (j = 0; j < x->nclients; j++) {
			c = &x->clients[j];
			if (!c->sync || !c->rw)
				continue;
			h_append(fig, sizeof fig, n++, "%s to %s (sync%s)",
			    x->path, c->host, c->wdelay ? ",wdelay" :
			    ",no_wdelay");
			break;
		}
	}
	if (n == 0)
		return;
	h_add(a, "nfs_sync", fig, "NFS writes to a sync export: the server "
	    "puts each write on disk before it answers, so writes run at the "
	    "disks' flush rate rather than the network's.  /etc/exports: %s.  "
	    "async is much faster and loses the last writes if the server "
	    "crashes", fig);
}

/* Whether the comma-separated options opts hold word w. */
static int
h_has_opt(const char *opts, const char *w)
{
	size_t		 len = strlen(w);
	const char	*p;

	for (p = opts; (p = strstr(p, w)) != NULL; p += len)
		if ((p == opts || p[-1] == ',') && (p[len] == ',' ||
		    p[len] == '\0'))
			return (1);
	return (0);
}

/* The mount that holds path, or NULL. */
static const struct mounts_entry *
h_mount_of(const struct topology *t, const char *path)
{
	const struct mounts_entry	*m, *best = NULL;
	size_t				 i, len;

	for (i = 0; i < t->mounts.n; i++) {
		m = &t->mounts.v[i];
		len = strlen(m->mountpoint);
		if (strncmp(path, m->mountpoint, len) == 0 &&
		    (path[len] == '/' || path[len] == '\0' || len == 1) &&
		    (best == NULL || len > strlen(best->mountpoint)))
			best = m;
	}
	return (best);
}

/*
 * Writes to a filesystem mounted sync: every write waits for the disk.
 * The run's own volume when its path was seen, else for NFS the exports'.
 */
static void
h_sync_mount(json_t *a, const struct verdict_facts *f)
{
	const struct topology		*t = f->run->topo;
	const struct verdict_path	*p = f->run->path;
	const struct mounts_entry	*m, *seen[H_MAX_LIST];
	char				 fig[1600];
	size_t				 i, j, n = 0;

	if (t == NULL || !(t->have & TOPOLOGY_MOUNTS) || f->run->op == NULL ||
	    strcmp(f->run->op, "write") != 0)
		return;
	fig[0] = '\0';
	for (i = 0; i < 1 + t->exports.n && n < H_MAX_LIST; i++) {
		if (i == 0 && (p == NULL || !p->volume_seen))
			continue;
		if (i > 0 && ((p != NULL && p->volume_seen) ||
		    !(t->have & TOPOLOGY_EXPORTS) ||
		    !h_prefix(f->run->protocol, "nfs")))
			break;
		if ((m = h_mount_of(t, i == 0 ? p->volume :
		    t->exports.v[i - 1].path)) == NULL ||
		    (!h_has_opt(m->options, "sync") &&
		    !h_has_opt(m->super_options, "sync")))
			continue;
		for (j = 0; j < n && seen[j] != m; j++)
			;
		if (j < n)
			continue;
		seen[n] = m;
		h_append(fig, sizeof fig, n++, "%s (%s, %s)", m->mountpoint,
		    m->fstype, h_has_opt(m->options, "sync") ? m->options :
		    m->super_options);
	}
	if (n == 0)
		return;
	h_add(a, "sync_mount", fig, "the filesystem the writes went to is "
	    "mounted sync: %s.  Every write waits until it is on disk, so "
	    "writes run at the disks' flush rate; mounted without sync, the "
	    "server gathers writes in memory first", fig);
}

/* A hashing bond: one client's flows stay on one member. */
static void
h_bond(json_t *a, const struct verdict_facts *f)
{
	const struct topology	*t = f->run->topo;
	const struct nic	*bn;
	const struct bonding	*b = NULL;
	char			 fig[200];

	if (f->bond == NULL || f->cls != VERDICT_NETWORK ||
	    strcmp(f->resource, f->nic) != 0)
		return;
	if (t != NULL && (bn = nic_list_find(&t->nics, f->bond)) != NULL)
		b = nic_bond(&t->nics, bn);
	snprintf(fig, sizeof fig, "%s member %s at %.0f Mb/s of the bond's "
	    "%.0f Mb/s", f->bond_mode, f->nic, f->member_mbps, f->bond_mbps);
	h_add(a, "bond_member", fig, "%s is a member of %s (%s%s%s): the "
	    "bond hashes each flow onto one member, so a single client is "
	    "held to one member's %.0f Mb/s however many members there are.  "
	    "More clients, or more flows with a layer3+4 hash policy, use "
	    "the others", f->nic, f->bond, f->bond_mode, b != NULL &&
	    b->hash_policy[0] ? ", hash policy " : "", b != NULL ?
	    b->hash_policy : "", f->member_mbps);
}

/* MTU: a bond's members against the bond; jumbo frames not in use. */
static void
h_mtu(json_t *a, const struct verdict_facts *f)
{
	const struct history	*h = f->h;
	const struct hist_ent	*b, *m;
	char			 fig[200];
	size_t			 i, j;

	for (i = 0; i < h->nent[HIST_NIC]; i++) {
		b = &h->ent[HIST_NIC][i];
		if (!b->is_bond || b->mtu == 0)
			continue;
		for (j = 0; j < h->nent[HIST_NIC]; j++) {
			m = &h->ent[HIST_NIC][j];
			if (strcmp(m->master, b->name) != 0 || m->mtu == 0 ||
			    m->mtu == b->mtu)
				continue;
			snprintf(fig, sizeof fig, "%s MTU %llu, member %s MTU "
			    "%llu", b->name, (unsigned long long)b->mtu,
			    m->name, (unsigned long long)m->mtu);
			h_add(a, "mtu_mismatch", fig, "MTU mismatch: %s has "
			    "MTU %llu but its member %s has %llu; frames "
			    "larger than the smaller one are dropped or "
			    "fragmented on that member", b->name,
			    (unsigned long long)b->mtu, m->name,
			    (unsigned long long)m->mtu);
		}
	}
	if (f->nic != NULL && f->nic_mtu > 1500 && f->nic_pps >= H_MIN_PPS &&
	    f->nic_pkt > 0 && f->nic_pkt <= H_ETH_FRAME) {
		snprintf(fig, sizeof fig, "%s MTU %llu, packets averaged %.0f "
		    "bytes at %.0f packets/s", f->nic,
		    (unsigned long long)f->nic_mtu, f->nic_pkt, f->nic_pps);
		h_add(a, "mtu_path", fig, "%s is set to MTU %llu but its "
		    "packets averaged %.0f bytes: the client or a switch on the "
		    "path uses 1500-byte frames, so the larger MTU buys "
		    "nothing; set the same MTU end to end", f->nic,
		    (unsigned long long)f->nic_mtu, f->nic_pkt);
	}
}

/* Encrypted volumes under a CPU verdict. */
static void
h_crypt(json_t *a, const struct verdict_facts *f)
{
	const struct topology		*t = f->run->topo;
	const struct mounts_entry	*m;
	const struct blockdev		*d;
	char				 fig[1600], aes[256];
	size_t				 i, n = 0;

	if (t == NULL || f->cls != VERDICT_CPU)
		return;
	fig[0] = '\0';
	for (i = 0; (t->have & TOPOLOGY_MOUNTS) && i < t->mounts.n &&
	    n < H_MAX_LIST; i++) {
		m = &t->mounts.v[i];
		if (strcmp(m->fstype, "ecryptfs") != 0)
			continue;
		h_append(fig, sizeof fig, n++, "eCryptfs %s", m->mountpoint);
	}
	for (i = 0; (t->have & TOPOLOGY_BLOCK) && i < t->block.ndevs &&
	    n < H_MAX_LIST; i++) {
		d = &t->block.devs[i];
		if (strcmp(d->dm_class, "crypt") != 0)
			continue;
		h_append(fig, sizeof fig, n++, "dm-crypt %s (%s)",
		    d->dm_name[0] ? d->dm_name : d->name, d->name);
	}
	if (n == 0)
		return;
	h_aes(f->run->crypto, "xts(aes)", aes, sizeof aes);
	h_add(a, "encrypted_volume", fig, "an encrypted volume is the likely "
	    "cause of the CPU load: %s; every byte read or written is "
	    "ciphered by the CPU.  The kernel's cipher: %s", fig, aes[0] ?
	    aes : "unknown (no /proc/crypto)");
}

/* The hints of a verdict. */
/*
 * The ZFS dataset the transfer used, as zfs get listed it: writes that
 * each wait for the intent log (sync=always, or asked so by the client
 * when the verdict says the log paced them), reads the ARC may not keep
 * (primarycache=metadata or none).
 */
static void
h_zfs(json_t *a, const struct verdict_facts *f)
{
	const struct verdict_path	*p = f->run->path;
	const struct zfs_dataset	*d;
	char				 fig[320];

	if (p == NULL || !p->zfs || f->run->op == NULL)
		return;
	d = f->run->topo != NULL ? zfs_dataset_find(
	    f->run->topo->zfs_datasets, p->dataset) : NULL;
	/*
	 * Writes paced by the intent log where the dataset does not force
	 * it: the client asked for each write to be on stable storage.
	 */
	if (f->cls == VERDICT_LATENCY && f->resource != NULL &&
	    strcmp(f->resource, VERDICT_ZIL_RESOURCE) == 0 &&
	    (d == NULL || strcmp(d->sync, "always") != 0)) {
		snprintf(fig, sizeof fig, "%s: synchronous writes",
		    p->dataset[0] != '\0' ? p->dataset : p->pool);
		h_add(a, "zfs_sync_writes", fig, "the writes to ZFS dataset %s "
		    "were synchronous: the client asked for each to be on "
		    "stable storage before the answer (NFS stable writes, an "
		    "application's fsync, SMB write-through), so each waited "
		    "for the intent log", p->dataset[0] != '\0' ? p->dataset :
		    p->pool);
	}
	if (d == NULL)
		return;
	if (strcmp(f->run->op, "write") == 0 && strcmp(d->sync, "always") ==
	    0) {
		snprintf(fig, sizeof fig, "%s: sync=always", d->name);
		h_add(a, "zfs_sync_always", fig, "ZFS dataset %s has "
		    "sync=always: every write waits until the intent log has it "
		    "on stable storage, on the pool's disks unless a log device "
		    "(SLOG) takes it, so writes run at the log's commit rate",
		    d->name);
	}
	if (strcmp(f->run->op, "read") == 0 &&
	    (strcmp(d->primarycache, "metadata") == 0 ||
	    strcmp(d->primarycache, "none") == 0)) {
		snprintf(fig, sizeof fig, "%s: primarycache=%s", d->name,
		    d->primarycache);
		h_add(a, "zfs_primarycache", fig, "ZFS dataset %s has "
		    "primarycache=%s: the ARC keeps none of its file data, so "
		    "every read goes to the disks, and a file read again is "
		    "read from them again", d->name, d->primarycache);
	}
}

json_t *
verdict_hints(const struct verdict_facts *f)
{
	json_t	*a;

	if ((a = json_array()) == NULL)
		return (NULL);
	h_smb_crypto(a, f);
	h_smb1(a, f);
	h_nfs_sync(a, f);
	h_sync_mount(a, f);
	h_bond(a, f);
	h_mtu(a, f);
	h_crypt(a, f);
	h_zfs(a, f);
	return (a);
}
