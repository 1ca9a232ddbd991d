/*
 * t_rate.c: counter deltas, iostat -x figures and their refusals.
 */
#include "config.h"

#include "test.h"
#include "rate.h"

/* Deltas, backwards counters and the cap. */
static void
t_delta(void)
{
	uint64_t	d;
	double		r;

	T_OK(rate_delta(10, 15, &d));
	T_EQ_U64(d, 5);
	T_ERRNO(rate_delta(15, 10, &d), EDOM);
	T_OK(rate_per_s(0, 1000, 2.0, 1e9, &r));
	T_NEAR(r, 500, 1e-9);
	T_ERRNO(rate_per_s(4294967290ULL, 5, 1.0, 1e12, &r), EDOM);
	T_ERRNO(rate_per_s(0, UINT64_MAX, 1.0, RATE_MAX_BYTES_PER_S, &r),
	    EDOM);
	T_ERRNO(rate_per_s(0, 1, 0.0, 1e12, &r), EDOM);
}

/* iostat -x arithmetic on two hand-made rows one second apart. */
static void
t_disk(void)
{
	struct diskstats_dev	a, b;
	struct rate_disk	r;

	memset(&a, 0, sizeof a);
	a.major = 8;
	strcpy(a.name, "sda");
	a.nfields = 14;
	b = a;
	b.rd_ios = 200;		/* 200 r/s */
	b.rd_sectors = 204800;	/* 100 MiB/s */
	b.rd_ticks = 1000;	/* 5 ms each */
	b.wr_ios = 50;
	b.wr_sectors = 1024;
	b.wr_ticks = 100;
	b.io_ticks = 900;	/* 90 % busy */
	b.time_in_queue = 1500;	/* aqu-sz 1.5 */
	T_OK(rate_disk(&a, &b, 1.0, &r));
	T_NEAR(r.reads_per_s, 200, 1e-9);
	T_NEAR(r.writes_per_s, 50, 1e-9);
	T_NEAR(r.read_bytes_per_s, 104857600, 1e-6);
	T_NEAR(r.write_bytes_per_s, 524288, 1e-6);
	T_NEAR(r.read_await_ms, 5, 1e-9);
	T_NEAR(r.write_await_ms, 2, 1e-9);
	T_NEAR(r.avg_queue, 1.5, 1e-9);
	T_NEAR(r.util_pct, 90, 1e-9);
	T_OK(rate_disk(&a, &b, 2.0, &r));
	T_NEAR(r.util_pct, 45, 1e-9);
	T_NEAR(r.avg_queue, 0.75, 1e-9);
	/* No I/O: no await, not 0. */
	T_OK(rate_disk(&a, &a, 1.0, &r));
	T_TRUE(!r.has_read_await && !r.has_write_await);
	/* Backwards (a device re-created), new major:minor, new name. */
	T_ERRNO(rate_disk(&b, &a, 1.0, &r), EDOM);
	b.minor = 16;
	T_ERRNO(rate_disk(&a, &b, 1.0, &r), EDOM);
	b.minor = 0;
	strcpy(b.name, "sdb");
	T_ERRNO(rate_disk(&a, &b, 1.0, &r), EDOM);
}

/* md arrays: await, aqu-sz and %util from the members. */
static void
t_md(void)
{
	struct diskstats_dev		 p[2], c[2];
	const struct diskstats_dev	*pp[3], *cp[3];
	struct rate_md			 m;

	memset(p, 0, sizeof p);
	strcpy(p[0].name, "sda3");
	strcpy(p[1].name, "sdb3");
	c[0] = p[0];
	c[1] = p[1];
	c[0].rd_ios = 100;
	c[0].rd_ticks = 400;
	c[0].io_ticks = 800;
	c[0].time_in_queue = 500;
	c[1].rd_ios = 300;
	c[1].rd_ticks = 600;
	c[1].io_ticks = 400;
	c[1].time_in_queue = 700;
	pp[0] = &p[0]; pp[1] = &p[1]; pp[2] = NULL;
	cp[0] = &c[0]; cp[1] = &c[1]; cp[2] = NULL;
	T_OK(rate_md(pp, cp, 3, 1.0, &m));
	T_EQ_INT(m.nmembers, 2);
	T_NEAR(m.util_max_pct, 80, 1e-9);
	T_NEAR(m.util_mean_pct, 60, 1e-9);
	T_NEAR(m.read_await_ms, 2.5, 1e-9);
	T_TRUE(!m.has_write_await);
	T_NEAR(m.avg_queue, 1.2, 1e-9);
	T_ERRNO(rate_md(pp + 2, cp + 2, 1, 1.0, &m), EDOM);
}

/* CPU shares, NICs that wrapped, and process groups. */
static void
t_cpu_nic_group(void)
{
	struct cpustat_cpu	 a, b;
	struct rate_cpu		 rc;
	struct netdev_if	 n1, n2;
	struct rate_nic		 rn;
	struct procgroup_proc	 pa[2], pb[2];
	struct procgroup_group	 ga, gb;
	struct rate_group	 rg;

	memset(&a, 0, sizeof a);
	a.nfields = 10;
	b = a;
	b.ticks[CPUSTAT_USER] = 50;
	b.ticks[CPUSTAT_SYSTEM] = 25;
	b.ticks[CPUSTAT_IDLE] = 20;
	b.ticks[CPUSTAT_IOWAIT] = 5;
	b.ticks[CPUSTAT_GUEST] = 10;	/* inside user: not counted twice */
	T_OK(rate_cpu(&a, &b, &rc));
	T_NEAR(rc.pct[CPUSTAT_USER], 50, 1e-9);
	T_NEAR(rc.busy_pct, 75, 1e-9);
	T_ERRNO(rate_cpu(&a, &a, &rc), EDOM);
	T_ERRNO(rate_cpu(&b, &a, &rc), EDOM);

	memset(&n1, 0, sizeof n1);
	strcpy(n1.name, "eth0");
	n2 = n1;
	n1.rx_bytes = 4294967000ULL;	/* a 32-bit counter about to wrap */
	n2.rx_bytes = 1000;
	T_ERRNO(rate_nic(&n1, &n2, 1.0, &rn), EDOM);
	n1.rx_bytes = 0;
	n2.rx_bytes = 125000000;
	n2.tx_packets = 1000;
	T_OK(rate_nic(&n1, &n2, 2.0, &rn));
	T_NEAR(rn.rx_bytes_per_s, 62500000, 1e-6);
	T_NEAR(rn.tx_packets_per_s, 500, 1e-9);

	memset(&ga, 0, sizeof ga);
	memset(pa, 0, sizeof pa);
	pa[0].pid = 100; strcpy(pa[0].comm, "smbd"); pa[0].ticks = 1000;
	pa[1].pid = 200; strcpy(pa[1].comm, "smbd"); pa[1].ticks = 5000;
	ga.procs = pa;
	ga.nprocs = 2;
	memcpy(pb, pa, sizeof pb);
	gb = ga;
	gb.procs = pb;
	/* pid 200 exited; pid 100 ran a whole core for 2 s; 300 is new. */
	pb[0].ticks = 1200;
	pb[0].processor = 3;
	pb[1].pid = 300;
	pb[1].ticks = 10;
	gb.ncgroups = ga.ncgroups = 1;
	ga.cgroups[0].has_stat = gb.cgroups[0].has_stat = 1;
	ga.cgroups[0].version = gb.cgroups[0].version = 1;
	strcpy(ga.cgroups[0].path, "/AppLimit/smbd");
	strcpy(gb.cgroups[0].path, "/AppLimit/smbd");
	gb.cgroups[0].nr_periods = 20;
	gb.cgroups[0].nr_throttled = 5;
	gb.cgroups[0].throttled_ns = 500000000;
	T_OK(rate_group(&ga, &gb, 2.0, &rg));
	T_NEAR(rg.cpu_pct, 105, 1e-9);
	T_TRUE(rg.has_top);
	T_EQ_INT(rg.top_pid, 100);
	T_EQ_INT(rg.top_cpu, 3);
	T_NEAR(rg.top_cpu_pct, 100, 1e-9);
	T_TRUE(rg.has_throttled);
	T_NEAR(rg.throttled_pct, 25, 1e-9);
	T_NEAR(rg.throttled_s_per_s, 0.25, 1e-9);
	T_ERRNO(rate_group(&ga, &gb, 0, &rg), EDOM);
}

int
main(void)
{
	t_delta();
	t_disk();
	t_md();
	t_cpu_nic_group();
	(void)t_skip;
	(void)t_root;
	return (t_done());
}
