/*
 * show_topology.c: GET /v1/topology as tables: the box, its disks, arrays,
 * volumes with what they are built on, and its NICs.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "show.h"
#include "table.h"

/* Bytes as a short decimal size: "4.0 TB", "512.1 GB". */
static void
st_size(json_t *v, char *out, size_t outsz)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB",
	    "PB" };
	double	x;
	size_t	u = 0;

	if (!json_is_integer(v)) {
		snprintf(out, outsz, "-");
		return;
	}
	x = (double)json_integer_value(v);
	while (x >= 1000 && u + 1 < sizeof units / sizeof units[0]) {
		x /= 1000;
		u++;
	}
	snprintf(out, outsz, u == 0 ? "%.0f %s" : "%.1f %s", x, units[u]);
}

/* The names of an array of strings, joined by sep. */
static void
st_join(json_t *a, const char *sep, char *out, size_t outsz)
{
	json_t	*v;
	size_t	 i;

	out[0] = '\0';
	json_array_foreach(a, i, v) {
		if (i > 0)
			strncat(out, sep, outsz - strlen(out) - 1);
		if (json_is_string(v))
			strncat(out, json_string_value(v), outsz -
			    strlen(out) - 1);
	}
	if (out[0] == '\0')
		snprintf(out, outsz, "-");
}

/* Print the identity and CPU line. */
static void
st_identity(FILE *fp, json_t *id, json_t *cpu)
{
	json_t	*v;

	if (json_is_object(id))
		fprintf(fp, "%s%s%s, %s %s, kernel %s (%s)\n",
		    show_str(id, "vendor"), json_is_string(json_object_get(id,
		    "model")) ? " " : "", json_is_string(json_object_get(id,
		    "model")) ? show_str(id, "model") : "", show_str(id, "os"),
		    show_str(id, "firmware"), show_str(id, "kernel"),
		    show_str(id, "arch"));
	if (json_is_object(cpu)) {
		fprintf(fp, "CPU: %s", show_str(cpu, "model"));
		if (json_is_string(json_object_get(cpu, "soc")))
			fprintf(fp, " (%s)", show_str(cpu, "soc"));
		if ((v = json_object_get(cpu, "logical_cpus")) != NULL &&
		    json_is_integer(v))
			fprintf(fp, ", %d CPUs", (int)json_integer_value(v));
		if (json_is_true(json_object_get(cpu, "aes")))
			fprintf(fp, ", AES in hardware");
		fputc('\n', fp);
	}
}

/* Print the disk table. */
static void
st_disks(FILE *fp, json_t *disks)
{
	struct table	*t;
	json_t		*d, *p, *rot;
	char		 size[32], parts[512];
	size_t		 i, j;

	if (!json_is_array(disks) || json_array_size(disks) == 0 ||
	    (t = table_new("l  l  l  r  l  l")) == NULL)
		return;
	table_row(t, "Disk", "Model", "Transport", "Size", "Rot",
	    "Partitions", NULL);
	json_array_foreach(disks, i, d) {
		st_size(json_object_get(d, "size_bytes"), size, sizeof size);
		parts[0] = '\0';
		json_array_foreach(json_object_get(d, "partitions"), j, p) {
			if (j > 0)
				strncat(parts, " ", sizeof parts -
				    strlen(parts) - 1);
			strncat(parts, show_str(p, "name"), sizeof parts -
			    strlen(parts) - 1);
		}
		rot = json_object_get(d, "rotational");
		table_add(t, "%s", show_str(d, "name"));
		table_add(t, "%s", show_str(d, "model"));
		table_add(t, "%s", show_str(d, "transport"));
		table_add(t, "%s", size);
		table_add(t, "%s", json_is_true(rot) ? "yes" :
		    json_is_false(rot) ? "no" : "-");
		table_add(t, "%s", parts[0] != '\0' ? parts : "-");
		table_end(t);
	}
	fputc('\n', fp);
	table_done(t, fp);
}

/* Print the md array table. */
static void
st_md(FILE *fp, json_t *md)
{
	struct table	*t;
	json_t		*m, *mem, *v;
	char		 size[32], members[1024], state[96];
	size_t		 i, j;

	if (!json_is_array(md) || json_array_size(md) == 0 ||
	    (t = table_new("l  l  r  l  l  l")) == NULL)
		return;
	table_row(t, "Array", "Level", "Size", "Disks", "State", "Members",
	    NULL);
	json_array_foreach(md, i, m) {
		st_size(json_object_get(m, "size_bytes"), size, sizeof size);
		members[0] = '\0';
		json_array_foreach(json_object_get(m, "members"), j, mem) {
			if (j > 0)
				strncat(members, " ", sizeof members -
				    strlen(members) - 1);
			strncat(members, show_str(mem, "name"), sizeof members -
			    strlen(members) - 1);
			if (json_array_size(json_object_get(mem, "flags")) > 0)
				strncat(members, "*", sizeof members -
				    strlen(members) - 1);
		}
		v = json_object_get(m, "degraded");
		if (!json_is_true(json_object_get(m, "active")))
			snprintf(state, sizeof state, "inactive");
		else if (json_is_integer(v) && json_integer_value(v) > 0)
			snprintf(state, sizeof state, "degraded(%d)",
			    (int)json_integer_value(v));
		else
			snprintf(state, sizeof state, "clean");
		if (json_is_number(json_object_get(m, "sync_progress_pct")))
			snprintf(state + strlen(state), sizeof state -
			    strlen(state), " %s %.1f%%", show_str(m, "sync_action"),
			    json_number_value(json_object_get(m,
			    "sync_progress_pct")));
		else if (json_is_string(json_object_get(m, "sync_wait")))
			snprintf(state + strlen(state), sizeof state -
			    strlen(state), " %s=%s", show_str(m, "sync_action"),
			    show_str(m, "sync_wait"));
		table_row(t, show_str(m, "name"), show_str(m, "level"), size,
		    show_str(m, "status"), state, members, NULL);
	}
	fputc('\n', fp);
	table_done(t, fp);
	fprintf(fp, "(* spare, faulty, write-mostly or error flag)\n");
}

/* Print the btrfs table with member health. */
static void
st_btrfs(FILE *fp, json_t *b)
{
	struct table	*t;
	json_t		*fs, *d, *e, *v;
	char		 devs[512], health[64];
	const char	*k;
	size_t		 i, j;
	json_int_t	 missing, errors;

	if (!json_is_array(b) || json_array_size(b) == 0 ||
	    (t = table_new("l  l  l  l  l")) == NULL)
		return;
	table_row(t, "btrfs", "Data", "Metadata", "Health", "Devices", NULL);
	json_array_foreach(b, i, fs) {
		st_join(json_object_get(fs, "devices"), " ", devs, sizeof devs);
		missing = errors = 0;
		json_array_foreach(json_object_get(fs, "devinfo"), j, d) {
			if (json_is_true(json_object_get(d, "missing")))
				missing++;
			e = json_object_get(d, "errors");
			json_object_foreach(e, k, v)
				errors += json_integer_value(v);
		}
		if (json_array_size(json_object_get(fs, "devinfo")) == 0)
			snprintf(health, sizeof health, "-");
		else
			snprintf(health, sizeof health, "%lld missing, %lld err",
			    (long long)missing, (long long)errors);
		table_row(t, json_is_string(json_object_get(fs, "label")) ?
		    show_str(fs, "label") : show_str(fs, "uuid"),
		    show_str(fs, "data_profile"), show_str(fs,
		    "metadata_profile"), health, devs, NULL);
	}
	fputc('\n', fp);
	table_done(t, fp);
}

/* Print each volume with the stack it is built from. */
static void
st_filesystems(FILE *fp, json_t *fss)
{
	struct table	*t;
	json_t		*f, *layer;
	char		 line[2048], names[1024];
	size_t		 i, j;

	if (!json_is_array(fss) || json_array_size(fss) == 0 ||
	    (t = table_new("l  l  l")) == NULL)
		return;
	table_row(t, "Mounted on", "Type", "Built on (top to bottom)", NULL);
	json_array_foreach(fss, i, f) {
		line[0] = '\0';
		json_array_foreach(json_object_get(f, "stack"), j, layer) {
			st_join(json_object_get(layer, "names"), " ", names,
			    sizeof names);
			snprintf(line + strlen(line), sizeof line -
			    strlen(line), "%s%s %s", j > 0 ? " <- " : "",
			    show_str(layer, "kind"), names);
		}
		table_row(t, show_str(f, "mountpoint"), show_str(f, "fstype"),
		    line, NULL);
	}
	fputc('\n', fp);
	table_done(t, fp);
}

/* Print the NIC table with bonds. */
static void
st_nics(FILE *fp, json_t *nics)
{
	struct table	*t;
	json_t		*n, *v, *bond, *m;
	char		 speed[32], members[512], mtu[16];
	size_t		 i, j;

	if (!json_is_array(nics) || json_array_size(nics) == 0 ||
	    (t = table_new("l  l  r  r  l  l")) == NULL)
		return;
	table_row(t, "NIC", "State", "Speed", "MTU", "Driver", "Bond", NULL);
	json_array_foreach(nics, i, n) {
		v = json_object_get(n, "speed_mbps");
		if (json_is_integer(v))
			snprintf(speed, sizeof speed, "%d Mb/s",
			    (int)json_integer_value(v));
		else
			snprintf(speed, sizeof speed, "-");
		members[0] = '\0';
		if (json_is_object(bond = json_object_get(n, "bond"))) {
			snprintf(members, sizeof members, "%s:",
			    show_str(bond, "mode"));
			json_array_foreach(json_object_get(bond, "members"), j,
			    m) {
				v = json_object_get(m, "speed_mbps");
				snprintf(members + strlen(members),
				    sizeof members - strlen(members), " %s",
				    show_str(m, "name"));
				if (json_is_integer(v))
					snprintf(members + strlen(members),
					    sizeof members - strlen(members),
					    "@%d", (int)json_integer_value(v));
			}
			if (json_is_integer(v = json_object_get(bond,
			    "capacity_mbps")))
				snprintf(members + strlen(members),
				    sizeof members - strlen(members),
				    " = %d Mb/s", (int)json_integer_value(v));
		} else if (json_is_string(json_object_get(n, "master")))
			snprintf(members, sizeof members, "in %s",
			    show_str(n, "master"));
		v = json_object_get(n, "mtu");
		if (json_is_integer(v))
			snprintf(mtu, sizeof mtu, "%d",
			    (int)json_integer_value(v));
		else
			snprintf(mtu, sizeof mtu, "-");
		table_row(t, show_str(n, "name"), show_str(n, "operstate"),
		    speed, mtu, show_str(n, "driver"), members, NULL);
	}
	fputc('\n', fp);
	table_done(t, fp);
}

/* Print the Samba settings, shares and NFS exports. */
static void
st_protocols(FILE *fp, json_t *p)
{
	struct table	*t;
	json_t		*smb = json_object_get(p, "smb"), *nfs, *v, *c;
	size_t		 i, j;

	nfs = json_object_get(p, "nfs");
	if ((!json_is_true(json_object_get(smb, "available")) &&
	    !json_is_array(json_object_get(nfs, "exports")) &&
	    !json_is_array(json_object_get(nfs, "ganesha_exports"))) ||
	    (t = table_new("l  l  l")) == NULL)
		return;
	table_row(t, "Protocol", "Share or export", "Settings", NULL);
	if (json_is_true(json_object_get(smb, "available"))) {
		table_add(t, "smb");
		table_add(t, "[global]");
		table_add(t, "%s..%s signing %s encrypt %s",
		    show_str(smb, "server_min_protocol"),
		    show_str(smb, "server_max_protocol"),
		    show_str(smb, "server_signing"),
		    show_str(smb, "smb_encrypt"));
		table_end(t);
	}
	json_array_foreach(json_object_get(smb, "shares"), i, v) {
		table_add(t, "smb");
		table_add(t, "%s", show_str(v, "name"));
		table_add(t, "%s %s encrypt %s", show_str(v, "path"),
		    json_is_true(json_object_get(v, "read_only")) ? "ro" : "rw",
		    show_str(v, "smb_encrypt"));
		table_end(t);
	}
	json_array_foreach(json_object_get(nfs, "exports"), i, v)
		json_array_foreach(json_object_get(v, "clients"), j, c) {
			table_add(t, "nfs");
			table_add(t, "%s", show_str(v, "path"));
			table_add(t, "%s(%s)", show_str(c, "host"),
			    show_str(c, "options"));
			table_end(t);
		}
	json_array_foreach(json_object_get(nfs, "ganesha_exports"), i, v) {
		table_add(t, "ganesha");
		table_add(t, "%s", show_str(v, "path"));
		table_add(t, "%s %s v%s sec %s %s", show_str(v, "pseudo"),
		    show_str(v, "access_type"), show_str(v, "protocols"),
		    show_str(v, "sectype"), show_str(v, "squash"));
		table_end(t);
	}
	if (json_is_integer(v = json_object_get(nfs, "threads"))) {
		table_add(t, "nfsd");
		table_add(t, "threads");
		table_add(t, "%d", (int)json_integer_value(v));
		table_end(t);
	}
	fputc('\n', fp);
	table_done(t, fp);
}

/*
 * ZFS's pools as zpool status listed them: each top-level vdev with its
 * class and members, and the pool's scrub or resilver.
 */
static void
st_zfs(FILE *fp, json_t *zfs)
{
	struct table	*t;
	json_t		*p, *v, *w, *scan;
	char		 members[512];
	size_t		 i, j, k, off;

	if (!json_is_array(json_object_get(zfs, "pools")) ||
	    json_array_size(json_object_get(zfs, "pools")) == 0 ||
	    (t = table_new("l  l  l  l  l")) == NULL)
		return;
	table_row(t, "Pool", "State", "Vdev", "Class", "Members", NULL);
	json_array_foreach(json_object_get(zfs, "pools"), i, p) {
		json_array_foreach(json_object_get(p, "vdevs"), j, v) {
			if (json_integer_value(json_object_get(v, "depth")) != 1)
				continue;
			members[0] = '\0';
			off = 0;
			json_array_foreach(json_object_get(p, "vdevs"), k, w)
				if (json_integer_value(json_object_get(w,
				    "parent")) == (json_int_t)j &&
				    off < sizeof members)
					off += (size_t)snprintf(members + off,
					    sizeof members - off, "%s%s",
					    off > 0 ? " " : "", show_str(w,
					    "name"));
			table_add(t, "%s", show_str(p, "name"));
			table_add(t, "%s", show_str(p, "state"));
			table_add(t, "%s", show_str(v, "name"));
			table_add(t, "%s", show_str(v, "class"));
			table_add(t, "%s", members[0] != '\0' ? members :
			    show_str(v, "name"));
			table_end(t);
		}
	}
	fputc('\n', fp);
	table_done(t, fp);
	json_array_foreach(json_object_get(zfs, "pools"), i, p) {
		scan = json_object_get(p, "scan");
		if (!json_is_object(scan) || strcmp(show_str(scan, "state"),
		    "running") != 0)
			continue;
		fprintf(fp, "ZFS pool %s: a %s is running", show_str(p, "name"),
		    show_str(scan, "function"));
		if (json_is_number(json_object_get(scan, "done_pct")))
			fprintf(fp, ", %.1f %% done", json_number_value(
			    json_object_get(scan, "done_pct")));
		if (json_is_integer(json_object_get(scan, "bytes_per_second")))
			fprintf(fp, " at %.0f MB/s", (double)json_integer_value(
			    json_object_get(scan, "bytes_per_second")) / 1e6);
		fputc('\n', fp);
	}
}

/* Print a /v1/topology answer as tables. */
void
show_topology(FILE *fp, json_t *body)
{
	st_identity(fp, json_object_get(body, "identity"),
	    json_object_get(body, "cpu"));
	st_disks(fp, json_object_get(body, "disks"));
	st_md(fp, json_object_get(body, "md"));
	st_btrfs(fp, json_object_get(body, "btrfs"));
	st_filesystems(fp, json_object_get(body, "filesystems"));
	st_nics(fp, json_object_get(body, "nics"));
	st_protocols(fp, json_object_get(body, "protocols"));
	st_zfs(fp, json_object_get(body, "zfs"));
}
