/*
 * t_cpustat.c: /proc/stat, /proc/meminfo, /proc/softirqs, /proc/pressure.
 */
#include "config.h"

#include "test.h"
#include "cpustat.h"
#include "meminfo.h"
#include "pressure.h"
#include "softirqs.h"

/* The parser on hand-written and damaged /proc/stat text. */
static void
t_cpustat_parse(void)
{
	static const char good[] =
	    "cpu  100 2 30 400 5 6 7 8 9 10\n"
	    "cpu0 50 1 15 200 2 3 4 4 5 5\n"
	    "cpu3 50 1 15 200\n"
	    "cpu1 1 2 3\n"
	    "cpu2 1 2 x 4 5\n"
	    "cpu7 99999999999999999999 1 2 3\n"
	    "intr 12345 0 1 2\n"
	    "ctxt 987\n"
	    "btime 1700000000\n"
	    "procs_running 3\n"
	    "procs_blocked 1\n";
	struct cpustat	 cs;
	const char	*errstr;

	cpustat_init(&cs);
	T_OK(cpustat_parse(good, sizeof good - 1, &cs, &errstr));
	T_TRUE(cs.has_total);
	T_EQ_INT(cs.total.nfields, 10);
	T_EQ_U64(cs.total.ticks[CPUSTAT_GUEST_NICE], 10);
	T_EQ_U64(cpustat_total_ticks(&cs.total), 558);
	T_EQ_U64(cpustat_idle_ticks(&cs.total), 405);
	T_EQ_INT(cs.ncpus, 2);
	T_EQ_INT(cs.cpus[0].cpu, 0);
	T_EQ_INT(cs.cpus[1].cpu, 3);
	T_EQ_INT(cs.cpus[1].nfields, 4);
	T_EQ_U64(cs.cpus[1].ticks[CPUSTAT_IOWAIT], 0);
	T_EQ_INT(cs.skipped, 3);
	T_EQ_U64(cs.intr, 12345);
	T_EQ_U64(cs.ctxt, 987);
	T_EQ_U64(cs.btime, 1700000000);
	T_EQ_U64(cs.procs_running, 3);
	T_EQ_U64(cs.procs_blocked, 1);
	T_ERRNO(cpustat_parse("", 0, &cs, &errstr), EINVAL);
	T_ERRNO(cpustat_parse("cpu 1 2 3\n", 10, &cs, &errstr), EINVAL);
	T_ERRNO(cpustat_parse("ctxt 5\n", 7, &cs, NULL), EINVAL);
	cpustat_clear(&cs);
}

/* Each fixture box, and the live root. */
static void
t_cpustat_read(void)
{
	struct probe_buf	b;
	struct probe_root	root;
	struct cpustat		cs;

	probe_buf_init(&b);
	cpustat_init(&cs);
	T_OK(cpustat_read(t_root("dsm6-3.10-armhf"), &b, &cs, NULL));
	T_EQ_INT(cs.ncpus, 2);
	T_EQ_INT(cs.total.nfields, 10);
	T_EQ_U64(cs.total.ticks[CPUSTAT_USER], 26761415);
	T_EQ_U64(cs.total.ticks[CPUSTAT_IOWAIT], 6560862);
	T_EQ_U64(cs.cpus[1].ticks[CPUSTAT_IDLE], 144822417);
	T_EQ_U64(cs.ctxt, 912837465);
	T_EQ_U64(cs.btime, 1794488656);
	T_ERRNO(cpustat_read(t_root("empty"), &b, &cs, NULL), ENOENT);
	if (probe_root_open(&root, "/") == 0) {
		T_OK(cpustat_read(&root, &b, &cs, NULL));
		T_TRUE(cs.ncpus >= 1 && cs.cpus[0].cpu == 0);
		T_EQ_INT(cs.total.nfields, 10);
		probe_root_close(&root);
	} else
		t_skip("cannot open /");
	cpustat_clear(&cs);
	probe_buf_free(&b);
}

/* meminfo: units, a missing MemAvailable, overflow, uptime and loadavg. */
static void
t_meminfo(void)
{
	static const char old[] =
	    "MemTotal:         504152 kB\n"
	    "MemFree:           21408 kB\n"
	    "Buffers:           12864 kB\n"
	    "Cached:           301732 kB\n"
	    "Dirty:  99999999999999999999 kB\n"
	    "Writeback: 18014398509481984 kB\n"
	    "garbage line\n";
	struct meminfo		 mi;
	struct probe_buf	 b;

	memset(&mi, 0, sizeof mi);
	T_OK(meminfo_parse(old, sizeof old - 1, &mi, NULL));
	T_EQ_U64(mi.v[MEMINFO_TOTAL], 504152ULL * 1024);
	T_EQ_U64(mi.v[MEMINFO_CACHED], 301732ULL * 1024);
	T_TRUE((mi.have & (1U << MEMINFO_AVAILABLE)) == 0);
	T_TRUE((mi.have & (1U << MEMINFO_DIRTY)) == 0);
	T_TRUE((mi.have & (1U << MEMINFO_WRITEBACK)) == 0);
	T_ERRNO(meminfo_parse("", 0, &mi, NULL), EINVAL);
	T_OK(meminfo_parse_uptime("1726543.21 2953079.27\n", &mi));
	T_NEAR(mi.uptime, 1726543.21, 1e-6);
	T_ERRNO(meminfo_parse_uptime("abc", &mi), EINVAL);
	T_OK(meminfo_parse_loadavg("0.71 0.64 0.59 2/187 14215\n", &mi));
	T_NEAR(mi.load[2], 0.59, 1e-9);
	T_EQ_U64(mi.nthreads, 187);
	T_ERRNO(meminfo_parse_loadavg("0.71 0.64\n", &mi), EINVAL);

	probe_buf_init(&b);
	T_OK(meminfo_read(t_root("dsm6-3.10-armhf"), &b, &mi, NULL));
	T_EQ_U64(mi.v[MEMINFO_TOTAL], 504152ULL * 1024);
	T_EQ_U64(mi.v[MEMINFO_FREE], 21408ULL * 1024);
	T_EQ_U64(mi.v[MEMINFO_DIRTY], 1432ULL * 1024);
	T_EQ_U64(mi.v[MEMINFO_SWAP_FREE], 2041876ULL * 1024);
	T_TRUE((mi.have & (1U << MEMINFO_AVAILABLE)) == 0);	/* 3.10 */
	T_TRUE(mi.has_uptime && mi.has_loadavg);
	T_EQ_U64(mi.runnable, 2);
	T_ERRNO(meminfo_read(t_root("empty"), &b, &mi, NULL), ENOENT);
	probe_buf_free(&b);
}

/* softirqs: the DSM 6 capture, odd widths and garbage. */
static void
t_softirqs(void)
{
	static const char bad[] =
	    "                    CPU0       CPU2\n"
	    "          HI:          1          2\n"
	    "      NET_RX:          3\n"
	    "       BLOCK:          5          x\n"
	    "         RCU:          7          8\n";
	struct softirqs		 sq;
	struct probe_buf	 b;
	uint64_t		 v = 0;

	softirqs_init(&sq);
	probe_buf_init(&b);
	T_OK(softirqs_parse(bad, sizeof bad - 1, &sq, NULL));
	T_EQ_INT(sq.ncpus, 2);
	T_EQ_INT(sq.cpus[1], 2);
	T_EQ_INT(sq.nrows, 2);
	T_EQ_INT(sq.skipped, 2);
	T_OK(softirqs_get(&sq, "RCU", 1, &v));
	T_EQ_U64(v, 8);
	T_TRUE(softirqs_get(&sq, "NET_RX", 0, &v) == -1);
	T_ERRNO(softirqs_parse("HI: 1 2\n", 8, &sq, NULL), EINVAL);
	T_ERRNO(softirqs_parse("", 0, &sq, NULL), EINVAL);
	T_OK(softirqs_read(t_root("dsm6-3.10-armhf"), &b, &sq, NULL));
	T_EQ_INT(sq.ncpus, 2);
	T_OK(softirqs_get(&sq, "NET_RX", 1, &v));
	T_EQ_U64(v, 29036401);
	T_OK(softirqs_get(&sq, "BLOCK", 0, &v));
	T_EQ_U64(v, 5871511);
	T_ERRNO(softirqs_read(t_root("empty"), &b, &sq, NULL), ENOENT);
	softirqs_clear(&sq);
	probe_buf_free(&b);
}

/* pressure: old kernels without "full" for cpu, malformed lines. */
static void
t_pressure(void)
{
	static const char cpu[] =
	    "some avg10=1.50 avg60=0.75 avg300=0.25 total=123456789\n";
	static const char io[] =
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=42\n"
	    "full avg10=0.10 avg60=0.20 avg300=0.30 total=41\n";
	struct pressure_res	 r;
	struct pressure		 p;
	struct probe_buf	 b;
	struct probe_root	 root;

	T_OK(pressure_parse(cpu, sizeof cpu - 1, &r, NULL));
	T_TRUE(r.some.avail && !r.full.avail);
	T_NEAR(r.some.avg10, 1.5, 1e-9);
	T_EQ_U64(r.some.total, 123456789);
	T_OK(pressure_parse(io, sizeof io - 1, &r, NULL));
	T_TRUE(r.full.avail);
	T_NEAR(r.full.avg300, 0.3, 1e-9);
	T_EQ_U64(r.full.total, 41);
	T_ERRNO(pressure_parse("some avg10=x\n", 13, &r, NULL), EINVAL);
	T_ERRNO(pressure_parse("", 0, &r, NULL), EINVAL);
	probe_buf_init(&b);
	T_ERRNO(pressure_read(t_root("dsm6-3.10-armhf"), &b, &p, NULL),
	    ENOENT);
	T_ERRNO(pressure_read(t_root("empty"), &b, &p, NULL), ENOENT);
	if (probe_root_open(&root, "/") == 0) {
		T_OK(pressure_read(&root, &b, &p, NULL));
		T_TRUE(p.res[PRESSURE_IO].some.avail);
		T_TRUE(p.res[PRESSURE_MEMORY].full.avail);
		probe_root_close(&root);
	}
	probe_buf_free(&b);
}

int
main(void)
{
	t_cpustat_parse();
	t_cpustat_read();
	t_meminfo();
	t_softirqs();
	t_pressure();
	return (t_done());
}
