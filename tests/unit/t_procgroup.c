/*
 * t_procgroup.c: process groups from /proc/PID/stat and their cgroups.
 */
#include "config.h"

#include "test.h"
#include "cgroup.h"
#include "procgroup.h"

static const char *const smb_pats[] = { "smbd" };
static const char *const nfs_pats[] = { "nfsd", "ganesha.nfsd" };
static const char *const ksmbd_pats[] = { "ksmbd:*" };
static const char *const self_pats[] = { "nasperfd" };
static const struct procgroup_spec specs[] = {
	{ "smb", smb_pats, 1, 0 },
	{ "nfs", nfs_pats, 2, 0 },
	{ "ksmbd", ksmbd_pats, 1, 0 },
};

/* One stat line: odd comms, kernel threads, truncated and bad lines. */
static void
t_parse_stat(void)
{
	static const char odd[] = "4121 (a) (b) R 1 4121 4121 0 -1 4194560 "
	    "0 0 0 0 700 300 0 0 20 0 3 0 100 1000 25 18446744073709551615 "
	    "1 1 1 0 0 0 0 0 0 0 0 0 17 3 0 0\n";
	static const char kthr[] = "812 (ksmbd:r445) S 2 0 0 0 -1 2129984 0 "
	    "0 0 0 0 51 0 0 20 0 1 0 40 0 0 18446744073709551615 0 0 0 0 0 "
	    "0 0 2147483647 0 0 0 0 17 1 0 0 0 0 0\n";
	static const char shortl[] = "77 (x) S 1 77 77 0 -1 0 0 0 0 0 5 5\n";
	struct procgroup_proc	 p;

	T_OK(procgroup_parse_stat(odd, sizeof odd - 1, 4096, &p));
	T_EQ_INT(p.pid, 4121);
	T_EQ_STR(p.comm, "a) (b");
	T_EQ_U64(p.ticks, 1000);
	T_EQ_U64(p.threads, 3);
	T_EQ_U64(p.rss_bytes, 25 * 4096);
	T_EQ_INT(p.processor, 3);
	T_EQ_INT(p.kthread, 0);		/* flags 0x400100 */
	T_OK(procgroup_parse_stat(kthr, sizeof kthr - 1, 4096, &p));
	T_EQ_STR(p.comm, "ksmbd:r445");
	T_EQ_INT(p.processor, 1);
	T_EQ_INT(p.kthread, 1);		/* flags 0x208040: PF_KTHREAD */
	T_EQ_INT(procgroup_match(specs, NP_NITEMS(specs), 812, p.comm), 2);
	T_EQ_INT(procgroup_match(specs, NP_NITEMS(specs), 900,
	    "smbd-notifyd"), -1);
	{
		/* A spec with a pid takes that process only. */
		struct procgroup_spec	one[2] = { { "nasperfd", self_pats, 1, 0 },
					    { "any", self_pats, 1, 0 } };

		one[0].pid = 700;
		T_EQ_INT(procgroup_match(one, 2, 700, "nasperfd"), 0);
		T_EQ_INT(procgroup_match(one, 2, 701, "nasperfd"), 1);
		T_EQ_INT(procgroup_match(one, 1, 701, "nasperfd"), -1);
	}
	T_ERRNO(procgroup_parse_stat(shortl, sizeof shortl - 1, 4096, &p),
	    EINVAL);
	T_ERRNO(procgroup_parse_stat("12 (x S 1", 9, 4096, &p), EINVAL);
	T_ERRNO(procgroup_parse_stat("", 0, 4096, &p), EINVAL);
	T_ERRNO(procgroup_parse_stat("abc (x) S 1 2 3", 15, 4096, &p), EINVAL);
}

/* /proc/PID/cgroup, cpu.max and cpu.stat. */
static void
t_cgroup_parse(void)
{
	static const char v1[] = "3:memory:/x\n2:cpuacct,cpu:/AppLimit/smbd\n"
	    "1:name=systemd:/init.scope\n";
	static const char hybrid[] = "0::/user.slice\n4:cpu,cpuacct:/sys\n";
	static const char v2[] = "0::/system.slice/smbd.service\n";
	static const char st2[] = "usage_usec 100\nnr_periods 50\n"
	    "nr_throttled 5\nthrottled_usec 2500\n";
	struct cgroup_cpu	cg;
	char			path[CGROUP_PATH_MAX];
	int			version;

	T_OK(cgroup_parse_pid(v1, sizeof v1 - 1, &version, path, sizeof path));
	T_EQ_INT(version, 1);
	T_EQ_STR(path, "/AppLimit/smbd");
	T_OK(cgroup_parse_pid(hybrid, sizeof hybrid - 1, &version, path,
	    sizeof path));
	T_EQ_INT(version, 1);
	T_EQ_STR(path, "/sys");
	T_OK(cgroup_parse_pid(v2, sizeof v2 - 1, &version, path, sizeof path));
	T_EQ_INT(version, 2);
	T_EQ_STR(path, "/system.slice/smbd.service");
	T_ERRNO(cgroup_parse_pid("3:memory:/\n", 11, &version, path,
	    sizeof path), EINVAL);
	T_ERRNO(cgroup_parse_pid("", 0, &version, path, sizeof path), EINVAL);
	memset(&cg, 0, sizeof cg);
	T_OK(cgroup_parse_cpu_max("max 100000", &cg));
	T_TRUE(cg.unlimited);
	T_OK(cgroup_parse_cpu_max("20000 100000", &cg));
	T_TRUE(!cg.unlimited);
	T_NEAR(cg.quota_cores, 0.2, 1e-9);
	T_ERRNO(cgroup_parse_cpu_max("20000 0", &cg), EINVAL);
	T_ERRNO(cgroup_parse_cpu_max("lots", &cg), EINVAL);
	T_OK(cgroup_parse_cpu_stat(st2, sizeof st2 - 1, &cg));
	T_EQ_U64(cg.nr_periods, 50);
	T_EQ_U64(cg.throttled_ns, 2500000);
	T_ERRNO(cgroup_parse_cpu_stat("usage_usec 1\n", 13, &cg), EINVAL);
}

/* The QNAP box: smbd capped at half a core through cgroup v1 "cpu". */
static void
t_read_qts(void)
{
	struct procgroup		 pg;
	struct probe_buf		 b;
	const struct procgroup_group	*g;
	const struct cgroup_cpu		*cg;

	procgroup_init(&pg);
	probe_buf_init(&b);
	T_OK(procgroup_read(t_root("qts5-5.10-x86_64"), &b, specs,
	    NP_NITEMS(specs), &pg, NULL));
	T_EQ_INT(pg.ngroups, 3);
	g = &pg.groups[0];
	T_EQ_STR(g->name, "smb");
	T_EQ_INT(g->nprocs, 3);
	T_EQ_U64(g->ticks, 53244 + 201537 + 3553);
	T_EQ_U64(g->threads, 3);
	T_EQ_INT(g->procs[0].pid, 9120);
	T_EQ_INT(g->procs[1].pid, 27011);
	T_EQ_INT(g->procs[1].processor, 2);
	T_EQ_U64(g->procs[1].ticks, 201537);
	T_EQ_INT(g->ncgroups, 1);
	cg = &g->cgroups[0];
	T_EQ_INT(cg->version, 1);
	T_EQ_STR(cg->path, "/AppLimit/smbd");
	T_TRUE(cg->has_quota && !cg->unlimited);
	T_NEAR(cg->quota_cores, 0.5, 1e-9);
	T_TRUE(cg->has_stat);
	T_EQ_U64(cg->nr_periods, 1912034);
	T_EQ_U64(cg->nr_throttled, 412331);
	T_EQ_U64(cg->throttled_ns, 39120334112345ULL);
	g = &pg.groups[1];
	T_EQ_STR(g->name, "nfs");
	T_EQ_INT(g->nprocs, 8);
	T_EQ_U64(g->rss_bytes, 0);
	T_EQ_INT(pg.groups[2].nprocs, 0);
	/*
	 * Reads after the first skip the processes that matched nothing,
	 * and the figures stay the same; a rescan reads them all again.
	 */
	T_TRUE(pg.nothers > 0);
	T_OK(procgroup_read(t_root("qts5-5.10-x86_64"), &b, specs,
	    NP_NITEMS(specs), &pg, NULL));
	T_EQ_INT(pg.groups[0].nprocs, 3);
	T_EQ_U64(pg.groups[0].ticks, 53244 + 201537 + 3553);
	T_EQ_INT(pg.groups[1].nprocs, 8);
	T_EQ_INT(pg.groups[0].ncgroups, 1);
	T_EQ_INT(pg.nothers, pg.nnext);
	/* The next read is of another box: make it a rescan. */
	pg.reads = 0;

	/* DSM 7: cgroup v1 "cpu,cpuacct" with no quota. */
	T_OK(procgroup_read(t_root("dsm7-4.4-x86_64"), &b, specs,
	    NP_NITEMS(specs), &pg, NULL));
	g = &pg.groups[0];
	T_EQ_INT(g->nprocs, 3);
	T_EQ_INT(g->procs[1].pid, 23411);
	T_EQ_U64(g->procs[1].ticks, 182331 + 96112);
	T_EQ_INT(g->procs[1].processor, 3);
	T_EQ_INT(g->ncgroups, 1);
	T_EQ_STR(g->cgroups[0].path, "/system.slice/pkg-SMBService.service");
	T_TRUE(g->cgroups[0].has_quota && g->cgroups[0].unlimited);
	g = &pg.groups[1];
	T_EQ_INT(g->nprocs, 8);
	T_EQ_U64(g->ticks, 120648);

	T_ERRNO(procgroup_read(t_root("empty"), &b, specs, NP_NITEMS(specs),
	    &pg, NULL), ENOENT);
	procgroup_clear(&pg);
	probe_buf_free(&b);
}

/*
 * The live root: this test program is a process named t_procgroup, or
 * what the kernel calls it (under qemu-user, the emulator's name).
 */
static void
t_read_live(void)
{
	static char		 self[32];
	const char		*me_pats[] = { "t_procgroup", "lt-t_procgroup",
				    self };
	const struct procgroup_spec me = { "me", me_pats, 3, 0 };
	const char		*all_pats[] = { "*" };
	const struct procgroup_spec all = { "all", all_pats, 1, 0 };
	struct procgroup_spec	 all_self = { "self", all_pats, 1, 0 };
	struct procgroup	 pg;
	struct probe_buf	 b;
	struct probe_root	 root;
	FILE			*f;

	if ((f = fopen("/proc/self/comm", "r")) != NULL) {
		if (fgets(self, sizeof self, f) != NULL)
			self[strcspn(self, "\n")] = '\0';
		fclose(f);
	}
	if (self[0] == '\0')
		snprintf(self, sizeof self, "t_procgroup");
	if (probe_root_open(&root, "/") == -1) {
		t_skip("cannot open /");
		return;
	}
	procgroup_init(&pg);
	probe_buf_init(&b);
	T_OK(procgroup_read(&root, &b, &me, 1, &pg, NULL));
	T_TRUE(pg.groups[0].nprocs >= 1);
	T_TRUE(pg.groups[0].rss_bytes > 0);
	procgroup_clear(&pg);
	/* A group of every process leaves no others (none to sort). */
	procgroup_init(&pg);
	T_OK(procgroup_read(&root, &b, &all, 1, &pg, NULL));
	T_TRUE(pg.groups[0].nprocs >= 1);
	T_EQ_U64(pg.nothers, 0);
	T_OK(procgroup_read(&root, &b, &all, 1, &pg, NULL));
	T_EQ_U64(pg.nothers, 0);
	procgroup_clear(&pg);
	/* A group of one pid holds that process only, whatever matches. */
	procgroup_init(&pg);
	all_self.pid = (int)getpid();
	T_OK(procgroup_read(&root, &b, &all_self, 1, &pg, NULL));
	T_EQ_U64(pg.groups[0].nprocs, 1);
	if (pg.groups[0].nprocs == 1) {
		T_EQ_INT(pg.groups[0].procs[0].pid, (int)getpid());
		/* Its cgroup, when /proc/PID/cgroup could be read. */
		T_EQ_INT(pg.groups[0].procs[0].cgroup,
		    pg.groups[0].ncgroups > 0 ? 0 : -1);
	}
	procgroup_clear(&pg);
	probe_buf_free(&b);
	probe_root_close(&root);
}

int
main(void)
{
	t_parse_stat();
	t_cgroup_parse();
	t_read_qts();
	t_read_live();
	return (t_done());
}
