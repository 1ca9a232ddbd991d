/*
 * t_snapshot.c: a full snapshot of a fixture box, of the empty box and of
 * the live root.
 */
#include "config.h"

#include "test.h"
#include "snapshot.h"

static const char *const smb_pats[] = { "smbd" };
static const struct snapshot_group groups[] = { { "smb", smb_pats, 1, 0 } };
static const struct snapshot_opts opts = { groups, 1, 0 };

/* DSM 7: every part but pressure, md2's members. */
static void
t_dsm7(void)
{
	struct snapshot			*s;
	const struct snapshot_md	*md;
	const struct netdev_if		*n;

	T_TRUE((s = snapshot_new()) != NULL);
	T_OK(snapshot_take(t_root("dsm7-4.4-x86_64"), &opts, s));
	T_TRUE(s->status[SNAPSHOT_CPU].avail);
	T_TRUE(s->status[SNAPSHOT_MEMORY].avail);
	T_TRUE(s->status[SNAPSHOT_DISKS].avail);
	T_TRUE(s->status[SNAPSHOT_NICS].avail);
	T_TRUE(s->status[SNAPSHOT_GROUPS].avail);
	T_TRUE(s->status[SNAPSHOT_NFSD].avail);
	T_TRUE(!s->status[SNAPSHOT_PRESSURE].avail);
	T_EQ_INT(s->status[SNAPSHOT_PRESSURE].error, ENOENT);
	T_EQ_U64(s->cpu.total.ticks[CPUSTAT_USER], 162337596);
	T_EQ_U64(s->mem.v[MEMINFO_AVAILABLE], 2830112ULL * 1024);
	T_TRUE((md = snapshot_md_find(s, "md2")) != NULL);
	if (md != NULL) {
		T_EQ_INT(md->nmembers, 8);
	}
	T_TRUE((n = netdev_find(&s->nics, "eth2")) != NULL);
	if (n != NULL) {
		T_EQ_U64(n->rx_bytes, 48211034412331ULL);
		T_EQ_INT(n->link.speed_mbps, 10000);
		T_EQ_U64(n->link.mtu, 9000);
	}
	T_EQ_INT(s->groups.groups[0].nprocs, 3);
	/* A second take reuses every array. */
	T_OK(snapshot_take(t_root("dsm7-4.4-x86_64"), &opts, s));
	T_EQ_INT(s->groups.groups[0].nprocs, 3);
	snapshot_free(s);
}

/* The empty box: nothing available, nothing fails. */
static void
t_empty(void)
{
	struct snapshot	*s;
	int		 i, any = 0;

	T_TRUE((s = snapshot_new()) != NULL);
	T_OK(snapshot_take(t_root("empty"), &opts, s));
	for (i = 0; i < SNAPSHOT_NPARTS; i++)
		any |= s->status[i].avail;
	T_EQ_INT(any, 0);
	T_EQ_INT(s->status[SNAPSHOT_DISKS].error, ENOENT);
	T_OK(snapshot_take(t_root("empty"), NULL, s));
	snapshot_free(s);
	snapshot_free(NULL);
}

/* The live root: cpu0 and lo, and time moves forward. */
static void
t_live(void)
{
	struct probe_root	 root;
	struct snapshot		*a, *b;

	if (probe_root_open(&root, "/") == -1) {
		t_skip("cannot open /");
		return;
	}
	a = snapshot_new();
	b = snapshot_new();
	T_OK(snapshot_take(&root, &opts, a));
	T_OK(snapshot_take(&root, &opts, b));
	T_TRUE(a->status[SNAPSHOT_CPU].avail && a->cpu.ncpus >= 1 &&
	    a->cpu.cpus[0].cpu == 0);
	T_TRUE(netdev_find(&a->nics, "lo") != NULL);
	T_TRUE(a->status[SNAPSHOT_PRESSURE].avail);
	T_TRUE(snapshot_interval(a, b) >= 0);
	snapshot_free(a);
	snapshot_free(b);
	probe_root_close(&root);
}

int
main(void)
{
	t_dsm7();
	t_empty();
	t_live();
	return (t_done());
}
