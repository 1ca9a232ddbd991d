/*
 * enc_topology.c: the topology as JSON, GET /v1/topology.
 *
 *   {"identity": enc_identity(), "cpu": enc_cpuinfo(), "nics": enc_nics(),
 *    "disks": [{"name", "major", "minor", "size_bytes", "model", "vendor",
 *      "serial", "firmware", "transport", "rotational", "removable", "ro",
 *      "logical_block_size", "physical_block_size", "backing_file",
 *      "holders": [..], "partitions": [{"name", "major", "minor", "number",
 *      "start_sector", "size_bytes", "holders": [..]}]}],
 *    "md": [{"name", "level", "active", "readonly", "array_state",
 *      "size_bytes", "chunk_bytes", "super", "raid_disks", "active_disks",
 *      "status", "degraded", "sync_action", "sync_progress_pct",
 *      "sync_done_blocks", "sync_total_blocks", "sync_finish_minutes",
 *      "sync_speed_bytes_per_s", "sync_wait", "bitmap",
 *      "members": [{"name", "index", "flags": ["spare"..], "state",
 *      "slot"}]}],
 *    "dm": [{"name", "dm_name", "uuid", "class", "size_bytes", "slaves",
 *      "holders"}],
 *    "btrfs": [{"uuid", "label", "devices": [..], "data_profile",
 *      "metadata_profile", "system_profile", "data_total_bytes",
 *      "data_used_bytes", "metadata_total_bytes", "metadata_used_bytes",
 *      "devinfo": [{"devid", "missing", "errors": null | {"write", "read",
 *      "flush", "corruption", "generation"}}]}],
 *    "filesystems": [{"mountpoint", "fstype", "source", "device",
 *      "options", "super_options", "btrfs_uuid",
 *      "stack": [{"kind", "devices": [..], "names": [..]}]}],
 *    "protocols": {"smb": {"available", "source", "server_min_protocol",
 *      "server_max_protocol", "server_signing", "smb_encrypt",
 *      "shares": [{"name", "path", "read_only", "smb_encrypt"}],
 *      "notes": [..]},
 *     "nfs": {"exports": [{"path", "clients": [{"host", "options", "sync",
 *      "wdelay", "rw", "root_squash", "all_squash", "sec"}]}],
 *      "ganesha_exports": [{"export_id", "path", "pseudo", "access_type",
 *      "protocols", "sectype", "squash"}], "threads"}}}
 *
 * "protocols" is what smb.conf (with its includes), /etc/exports and
 * ganesha.conf configure, with Samba's and nfs-utils' defaults filled in;
 * without smb.conf "smb" has "available": false and null values, and a
 * missing exports file, ganesha.conf or nfsd thread count is null.
 *
 * A stack runs from the mounted device down to the disks: for /volume1 on
 * DSM 7, cache (cachedev_0) → lvm (vg1-volume_1) → raid6 (md2) →
 * partition (sata1p3 …) → disk (sata1 …).  A multi-device btrfs makes one
 * first layer, "btrfs raid1", of its members.  "names" holds dm names
 * where a device has one, else the device names.
 *
 * "disks" holds whole disks and loop devices; md and dm devices are in
 * their own lists.  "filesystems" holds the mounts that are on a block
 * device.  A part that could not be read is null; an empty string or an
 * unknown number is null too.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "enc_host.h"
#include "encode.h"
#include "topology.h"
#include "zfs.h"

/* A flag that is -1 when unknown. */
static json_t *
et_bool(int v)
{
	return (v < 0 ? json_null() : json_boolean(v));
}

/* A count that is 0 when unknown. */
static json_t *
et_pos(uint64_t v)
{
	return (v == 0 ? json_null() : json_integer((json_int_t)v));
}

/* An array of n names of width w. */
static json_t *
et_names(const char *names, size_t n, size_t w)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; a != NULL && i < n; i++)
		json_array_append_new(a, enc_text(names + i * w));
	return (a);
}

/* Whole disks and loop devices with their partitions. */
static json_t *
et_disks(const struct topology *t)
{
	const struct blockdev		*d;
	const struct blockdev_part	*p;
	json_t				*a = json_array(), *o, *parts;
	size_t				 i, j;

	for (i = 0; i < t->block.ndevs; i++) {
		d = &t->block.devs[i];
		if (d->kind != BLOCKDEV_DISK && d->kind != BLOCKDEV_LOOP)
			continue;
		parts = json_array();
		for (j = 0; j < d->nparts; j++) {
			p = &d->parts[j];
			json_array_append_new(parts, json_pack(
			    "{s:o,s:i,s:i,s:i,s:I,s:I,s:o}", "name", enc_text(p->name),
			    "major", (int)p->major, "minor", (int)p->minor,
			    "number", (int)p->number, "start_sector",
			    (json_int_t)p->start, "size_bytes",
			    (json_int_t)p->size_bytes, "holders",
			    et_names(p->holders[0], p->nholders,
			    sizeof p->holders[0])));
		}
		o = json_pack("{s:o,s:i,s:i,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
		    "s:o,s:o,s:o,s:o,s:o,s:o}",
		    "name", enc_text(d->name), "major", (int)d->major, "minor",
		    (int)d->minor, "size_bytes", (json_int_t)d->size_bytes,
		    "model", enc_text_or_null(d->model), "vendor", enc_text_or_null(d->vendor),
		    "serial", enc_text_or_null(d->serial), "firmware", enc_text_or_null(d->rev),
		    "transport", enc_text_or_null(d->transport),
		    "rotational", et_bool(d->rotational),
		    "removable", et_bool(d->removable), "ro", et_bool(d->ro),
		    "logical_block_size", et_pos(d->logical_block),
		    "physical_block_size", et_pos(d->physical_block),
		    "backing_file", enc_text_or_null(d->backing_file),
		    "holders", et_names(d->holders[0], d->nholders,
		    sizeof d->holders[0]), "partitions", parts);
		json_array_append_new(a, o);
	}
	return (a);
}

/* The flags of a member as words. */
static json_t *
et_member_flags(unsigned f)
{
	json_t	*a = json_array();

	if (f & MDSTAT_F_FAULTY)
		json_array_append_new(a, json_string("faulty"));
	if (f & MDSTAT_F_SPARE)
		json_array_append_new(a, json_string("spare"));
	if (f & MDSTAT_F_WRITEMOSTLY)
		json_array_append_new(a, json_string("write-mostly"));
	if (f & MDSTAT_F_REPLACEMENT)
		json_array_append_new(a, json_string("replacement"));
	if (f & MDSTAT_F_ERROR)
		json_array_append_new(a, json_string("error"));
	if (f & MDSTAT_F_JOURNAL)
		json_array_append_new(a, json_string("journal"));
	return (a);
}

/* An integer that is -1 when unknown. */
static json_t *
et_int(int v)
{
	return (v < 0 ? json_null() : json_integer(v));
}

/* A real that is negative when unknown. */
static json_t *
et_real(double v)
{
	return (v < 0 ? json_null() : json_real(v));
}

/* The md arrays with their members. */
static json_t *
et_md(const struct topology *t)
{
	const struct mdstat_array	*m;
	const struct mdstat_member	*mm;
	json_t				*a = json_array(), *mem, *o;
	size_t				 i, j;

	for (i = 0; i < t->md.narrays; i++) {
		m = &t->md.arrays[i];
		mem = json_array();
		for (j = 0; j < m->nmembers; j++) {
			mm = &m->members[j];
			json_array_append_new(mem, json_pack("{s:o,s:i,s:o,s:o,"
			    "s:o}", "name", enc_text(mm->name), "index", mm->index,
			    "flags", et_member_flags(mm->flags), "state",
			    enc_text_or_null(mm->state), "slot", et_int(mm->slot)));
		}
		o = json_pack("{s:o,s:o,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
		    "s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:o}",
		    "name", enc_text(m->name), "level", enc_text_or_null(m->level),
		    "active", m->active, "readonly", enc_text_or_null(m->readonly),
		    "array_state", enc_text_or_null(m->array_state),
		    "size_bytes", et_pos(m->blocks * 1024),
		    "chunk_bytes", et_pos(m->chunk_kib * 1024),
		    "super", enc_text_or_null(m->super),
		    "raid_disks", et_int(m->raid_disks),
		    "active_disks", et_int(m->active_disks),
		    "status", enc_text_or_null(m->status),
		    "degraded", et_int(m->degraded),
		    "sync_action", enc_text_or_null(m->sync_action),
		    "sync_progress_pct", et_real(m->sync_pct),
		    "sync_done_blocks", et_pos(m->sync_done),
		    "sync_total_blocks", et_pos(m->sync_total),
		    "sync_finish_minutes", et_real(m->sync_finish_min),
		    "sync_speed_bytes_per_s", et_pos(m->sync_speed_kib * 1024),
		    "sync_wait", enc_text_or_null(m->sync_wait),
		    "bitmap", m->bitmap, "members", mem);
		json_array_append_new(a, o);
	}
	return (a);
}

/* The device-mapper devices with their class. */
static json_t *
et_dm(const struct topology *t)
{
	const struct blockdev	*d;
	json_t			*a = json_array();
	size_t			 i;

	for (i = 0; i < t->block.ndevs; i++) {
		d = &t->block.devs[i];
		if (d->kind != BLOCKDEV_DM)
			continue;
		json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o,s:I,s:o,"
		    "s:o}", "name", enc_text(d->name), "dm_name", enc_text_or_null(d->dm_name),
		    "uuid", enc_text_or_null(d->dm_uuid), "class", enc_text_or_null(d->dm_class),
		    "size_bytes", (json_int_t)d->size_bytes,
		    "slaves", et_names(d->slaves[0], d->nslaves,
		    sizeof d->slaves[0]), "holders", et_names(d->holders[0],
		    d->nholders, sizeof d->holders[0])));
	}
	return (a);
}

/* A btrfs filesystem's devinfo/ members: missing flag and error counts. */
static json_t *
et_devinfo(const struct btrfs_fs *fs)
{
	const struct btrfs_devinfo	*d;
	json_t				*a = json_array(), *o;
	size_t				 i;

	for (i = 0; i < fs->ndevinfo; i++) {
		d = &fs->devinfo[i];
		o = json_pack("{s:I,s:o}", "devid", (json_int_t)d->devid,
		    "missing", d->missing < 0 ? json_null() :
		    json_boolean(d->missing));
		if (d->has_errors)
			json_object_set_new(o, "errors", json_pack(
			    "{s:I,s:I,s:I,s:I,s:I}",
			    "write", (json_int_t)d->write_errs,
			    "read", (json_int_t)d->read_errs,
			    "flush", (json_int_t)d->flush_errs,
			    "corruption", (json_int_t)d->corruption_errs,
			    "generation", (json_int_t)d->generation_errs));
		else
			json_object_set_new(o, "errors", json_null());
		json_array_append_new(a, o);
	}
	return (a);
}

/* The btrfs filesystems with profiles and members. */
static json_t *
et_btrfs(const struct topology *t)
{
	const struct btrfs_fs	*fs;
	json_t			*a = json_array(), *o;
	size_t			 i;

	for (i = 0; i < t->btrfs.nfs; i++) {
		fs = &t->btrfs.fs[i];
		o = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,"
		    "s:o,s:o,s:o,s:o}", "uuid", enc_text(fs->uuid),
		    "label", enc_text_or_null(fs->label),
		    "devices", et_names(fs->devices[0], fs->ndevices,
		    sizeof fs->devices[0]),
		    "data_profile", enc_text_or_null(fs->data.profile),
		    "metadata_profile", enc_text_or_null(fs->metadata.profile),
		    "system_profile", enc_text_or_null(fs->system.profile),
		    "data_total_bytes", et_pos(fs->data.total_bytes),
		    "data_used_bytes", et_pos(fs->data.used_bytes),
		    "metadata_total_bytes", et_pos(fs->metadata.total_bytes),
		    "metadata_used_bytes", et_pos(fs->metadata.used_bytes));
		if (o == NULL)
			continue;
		json_object_set_new(o, "devinfo", et_devinfo(fs));
		json_array_append_new(a, o);
	}
	return (a);
}

/* The mounts that are on a block device, each with its stack. */
static json_t *
et_filesystems(const struct topology *t)
{
	struct topology_layer		 layers[TOPOLOGY_STACK_MAX];
	const struct mounts_entry	*m;
	const struct btrfs_fs		*fs;
	const char			*dev;
	json_t				*a = json_array(), *stack;
	size_t				 i, j, n;

	for (i = 0; i < t->mounts.n; i++) {
		m = &t->mounts.v[i];
		if ((dev = topology_mount_device(t, m)) == NULL)
			continue;
		n = topology_stack(t, dev, m->fstype, layers,
		    TOPOLOGY_STACK_MAX);
		stack = json_array();
		for (j = 0; j < n; j++)
			json_array_append_new(stack, json_pack("{s:s,s:o,s:o}",
			    "kind", layers[j].kind, "devices",
			    et_names(layers[j].devices[0], layers[j].n,
			    sizeof layers[j].devices[0]), "names",
			    et_names(layers[j].names[0], layers[j].n,
			    sizeof layers[j].names[0])));
		fs = strcmp(m->fstype, "btrfs") == 0 ?
		    btrfs_find_device(&t->btrfs, dev) : NULL;
		json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,"
		    "s:o,s:o}", "mountpoint", enc_text(m->mountpoint), "fstype",
		    enc_text(m->fstype), "source", enc_text(m->source), "device",
		    enc_text(dev), "options", enc_text(m->options),
		    "super_options", enc_text_or_null(m->super_options),
		    "btrfs_uuid", fs != NULL ? json_string(fs->uuid) :
		    json_null(), "stack", stack));
	}
	return (a);
}

/* part if have has bit, else null. */
static json_t *
et_part(const struct topology *t, unsigned bit, json_t *(*fn)(
    const struct topology *))
{
	return ((t->have & bit) != 0 ? fn(t) : json_null());
}

/* Samba's settings from smb.conf, or "available": false. */
static json_t *
et_smb(const struct topology *t)
{
	const struct smbconf		*sc = &t->smb;
	const struct smbconf_share	*sh;
	json_t				*shares, *notes;
	size_t				 i;
	int				 ok = (t->have & TOPOLOGY_SMB) != 0;

	shares = ok ? json_array() : json_null();
	notes = json_array();
	for (i = 0; ok && i < sc->nshares; i++) {
		sh = &sc->shares[i];
		json_array_append_new(shares, json_pack("{s:o,s:o,s:b,s:s}",
		    "name", enc_text(sh->name), "path",
		    enc_text_or_null(sh->path), "read_only", sh->read_only, "smb_encrypt", sh->smb_encrypt));
	}
	for (i = 0; ok && i < sc->nnotes; i++)
		json_array_append_new(notes, enc_text(sc->notes[i]));
	return (json_pack("{s:b,s:s,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "available", ok, "source", t->smb_conf[0] != '\0' ? t->smb_conf :
	    SMBCONF_PATH,
	    "server_min_protocol", ok ? json_string(sc->server_min_protocol) :
	    json_null(),
	    "server_max_protocol", ok ? json_string(sc->server_max_protocol) :
	    json_null(),
	    "server_signing", ok ? json_string(sc->server_signing) :
	    json_null(),
	    "smb_encrypt", ok ? json_string(sc->smb_encrypt) : json_null(),
	    "shares", shares, "notes", notes));
}

/* The kernel server's exports with their effective options. */
static json_t *
et_exports(const struct topology *t)
{
	const struct exports_entry	*x;
	const struct exports_client	*c;
	json_t				*a = json_array(), *cl;
	size_t				 i, j;

	for (i = 0; i < t->exports.n; i++) {
		x = &t->exports.v[i];
		cl = json_array();
		for (j = 0; j < x->nclients; j++) {
			c = &x->clients[j];
			json_array_append_new(cl, json_pack("{s:o,s:o,s:b,s:b,"
			    "s:b,s:b,s:b,s:o}", "host", enc_text(c->host),
			    "options", enc_text(c->options), "sync", c->sync,
			    "wdelay", c->wdelay, "rw", c->rw, "root_squash",
			    c->root_squash, "all_squash", c->all_squash, "sec",
			    enc_text(c->sec)));
		}
		json_array_append_new(a, json_pack("{s:o,s:o}", "path",
		    enc_text(x->path), "clients", cl));
	}
	return (a);
}

/* nfs-ganesha's EXPORT blocks. */
static json_t *
et_ganesha(const struct topology *t)
{
	const struct exports_ganesha_export	*x;
	json_t					*a = json_array();
	size_t					 i;

	for (i = 0; i < t->ganesha.n; i++) {
		x = &t->ganesha.exports[i];
		json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,"
		    "s:o}", "export_id", et_int(x->export_id),
		    "path", enc_text_or_null(x->path),
		    "pseudo", enc_text_or_null(x->pseudo),
		    "access_type", enc_text(x->access_type),
		    "protocols", enc_text(x->protocols),
		    "sectype", enc_text(x->sectype),
		    "squash", enc_text(x->squash)));
	}
	return (a);
}

/* Samba and NFS settings. */
static json_t *
et_protocols(const struct topology *t)
{
	return (json_pack("{s:o,s:{s:o,s:o,s:o}}", "smb", et_smb(t), "nfs",
	    "exports", et_part(t, TOPOLOGY_EXPORTS, et_exports),
	    "ganesha_exports", et_part(t, TOPOLOGY_GANESHA, et_ganesha),
	    "threads", (t->have & TOPOLOGY_NFSD_THREADS) != 0 ?
	    json_integer((json_int_t)t->nfsd_threads) : json_null()));
}

/* Encode the whole topology for GET /v1/topology. */
json_t *
enc_topology(const struct topology *t)
{
	return (json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "identity", (t->have & TOPOLOGY_IDENTITY) != 0 ?
	    enc_identity(&t->identity) : json_null(),
	    "cpu", (t->have & TOPOLOGY_CPU) != 0 ? enc_cpuinfo(&t->cpu) :
	    json_null(),
	    "disks", et_part(t, TOPOLOGY_BLOCK, et_disks),
	    "md", et_part(t, TOPOLOGY_MD, et_md),
	    "dm", et_part(t, TOPOLOGY_BLOCK, et_dm),
	    "btrfs", et_part(t, TOPOLOGY_BTRFS, et_btrfs),
	    "filesystems", et_part(t, TOPOLOGY_MOUNTS, et_filesystems),
	    "nics", (t->have & TOPOLOGY_NICS) != 0 ? enc_nics(&t->nics) :
	    json_null(),
	    "protocols", et_protocols(t)));
}

/* A count known when above 0, else null. */
static json_t *
et_u64_or_null(uint64_t v)
{
	return (v > 0 ? json_integer((json_int_t)v) : json_null());
}

/* One pool's scrub or resilver, or null. */
static json_t *
et_scan(const struct zfs_scan *s)
{
	static const char *const states[] = { "none", "running", "done",
	    "canceled", "paused" };

	if (s->func[0] == '\0' || s->state == ZFS_SCAN_NONE)
		return (json_null());
	return (json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "function",
	    s->func, "state", states[s->state], "done_pct", s->pct >= 0 ?
	    json_real(s->pct) : json_null(), "bytes_per_second",
	    et_u64_or_null(s->rate), "scanned_bytes", et_u64_or_null(s->scanned),
	    "issued_bytes", et_u64_or_null(s->issued), "total_bytes",
	    et_u64_or_null(s->total), "processed_bytes",
	    json_integer((json_int_t)s->processed), "eta_s", s->eta >= 0 ?
	    json_integer(s->eta) : json_null()));
}

json_t *
enc_zfs_pools(const struct zfs_status *st)
{
	static const char *const types[] = { "pool", "mirror", "raidz",
	    "draid", "replacing", "spare", "disk" };
	const struct zfs_pool	*p;
	const struct zfs_vdev	*v;
	json_t			*pools, *vdevs;
	size_t			 i, j;

	if ((pools = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < st->npools; i++) {
		p = &st->pools[i];
		vdevs = json_array();
		for (j = 0; vdevs != NULL && j < p->nvdevs; j++) {
			v = &p->vdevs[j];
			json_array_append_new(vdevs, json_pack("{s:o,s:s,s:s,"
			    "s:i,s:i,s:i,s:o,s:I,s:I,s:I,s:o}", "name",
			    enc_text(v->name), "type", types[v->type], "class",
			    zfs_class_names[v->class], "parity", v->parity, "depth",
			    v->depth, "parent", v->parent, "state",
			    enc_text_or_null(v->state), "read_errors",
			    (json_int_t)v->rerr, "write_errors",
			    (json_int_t)v->werr, "checksum_errors",
			    (json_int_t)v->cerr, "note",
			    enc_text_or_null(v->note)));
		}
		json_array_append_new(pools, json_pack("{s:o,s:o,s:o,s:o,s:o}",
		    "name", enc_text(p->name), "state",
		    enc_text_or_null(p->state), "errors",
		    enc_text_or_null(p->errors), "scan", et_scan(&p->scan),
		    "vdevs", vdevs != NULL ? vdevs : json_null()));
	}
	return (pools);
}

json_t *
enc_zfs_datasets(const struct zfs_datasets *ds)
{
	const struct zfs_dataset	*d;
	json_t				*a;
	size_t				 i;

	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < ds->n; i++) {
		d = &ds->v[i];
		json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}",
		    "name", enc_text(d->name), "mountpoint",
		    enc_text_or_null(d->mountpoint), "sync",
		    enc_text_or_null(d->sync), "compression",
		    enc_text_or_null(d->compression), "primarycache",
		    enc_text_or_null(d->primarycache), "recordsize_bytes",
		    d->recordsize > 0 ? json_integer((json_int_t)d->recordsize) :
		    json_null()));
	}
	return (a);
}

json_t *
enc_zfs_viostat(const struct zfs_viostat *io)
{
	static const struct {
		const char	*key;
		double		 scale;
	} cols[ZFS_VIO_NCOLS] = {
		{ "alloc_bytes", 1 }, { "free_bytes", 1 },
		{ "read_ops_per_s", 1 }, { "write_ops_per_s", 1 },
		{ "read_bytes_per_s", 1 }, { "write_bytes_per_s", 1 },
		{ "total_wait_read_ms", 1e3 }, { "total_wait_write_ms", 1e3 },
		{ "disk_wait_read_ms", 1e3 }, { "disk_wait_write_ms", 1e3 },
		{ "syncq_wait_read_ms", 1e3 }, { "syncq_wait_write_ms", 1e3 },
		{ "asyncq_wait_read_ms", 1e3 }, { "asyncq_wait_write_ms", 1e3 },
		{ "scrub_wait_ms", 1e3 }, { "trim_wait_ms", 1e3 },
		{ "rebuild_wait_ms", 1e3 },
	};
	const struct zfs_vio_row *r;
	json_t			*a, *o;
	size_t			 i, c;

	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < io->nrows; i++) {
		r = &io->rows[i];
		if ((o = json_pack("{s:o,s:o,s:i,s:s}", "pool",
		    enc_text(r->pool), "name", enc_text(r->name), "depth",
		    r->depth, "class", zfs_class_names[r->class])) == NULL) {
			json_decref(a);
			return (NULL);
		}
		for (c = 0; c < ZFS_VIO_NCOLS; c++)
			if (io->cols & (1U << c))
				json_object_set_new(o, cols[c].key,
				    isfinite(r->v[c]) ? json_real(r->v[c] *
				    cols[c].scale) : json_null());
		json_array_append_new(a, o);
	}
	return (a);
}
