/*
 * t_pidstat.c: one process's schedstat, io and the whole read, live.
 */
#include "config.h"

#include <sys/types.h>

#include <signal.h>
#include <sys/wait.h>

#include "test.h"
#include "pidstat.h"

/* /proc/PID/schedstat and /proc/PID/io as Linux 6.1 prints them. */
static void
t_parse(void)
{
	static const char sched[] = "584422 47931 2\n";
	static const char io[] = "rchar: 6976\nwchar: 0\nsyscr: 10\n"
	    "syscw: 0\nread_bytes: 0\nwrite_bytes: 0\n"
	    "cancelled_write_bytes: 0\n";
	/* 2.6.32 on an old ReadyNAS prints no storage lines without
	 * CONFIG_TASK_IO_ACCOUNTING's block part. */
	static const char io_old[] = "rchar: 1\nwchar: 2\nsyscr: 3\n"
	    "syscw: 4\n";
	struct pidstat	ps;

	memset(&ps, 0, sizeof ps);
	T_OK(pidstat_parse_schedstat(sched, sizeof sched - 1, &ps));
	T_EQ_U64(ps.run_ns, 584422);
	T_EQ_U64(ps.wait_ns, 47931);
	T_EQ_U64(ps.timeslices, 2);
	T_ERRNO(pidstat_parse_schedstat("12 x", 4, &ps), EINVAL);
	T_ERRNO(pidstat_parse_schedstat("", 0, &ps), EINVAL);
	T_OK(pidstat_parse_io(io, sizeof io - 1, &ps));
	T_EQ_U64(ps.rchar, 6976);
	T_EQ_U64(ps.syscr, 10);
	T_EQ_U64(ps.write_bytes, 0);
	T_TRUE(ps.has_io);
	memset(&ps, 0, sizeof ps);
	T_OK(pidstat_parse_io(io_old, sizeof io_old - 1, &ps));
	T_EQ_U64(ps.syscw, 4);
	T_ERRNO(pidstat_parse_io("rchar: 1\n", 9, &ps), EINVAL);
	T_ERRNO(pidstat_parse_io("rchar: x\nwchar: 2\nsyscr: 3\nsyscw: 4\n",
	    36, &ps), EINVAL);
}

/* This process: its CPU time grows as it spins; a child gone is ENOENT. */
static void
t_live(void)
{
	struct probe_root	root;
	struct probe_buf	b;
	struct pidstat		a, z;
	volatile uint64_t	x = 0;
	uint64_t		i;
	pid_t			pid;

	if (probe_root_open(&root, "/") == -1) {
		T_TRUE(0);
		return;
	}
	probe_buf_init(&b);
	T_OK(pidstat_read(&root, &b, (int)getpid(), &a));
	T_EQ_STR(a.comm, "t_pidstat");
	T_TRUE(a.threads == 1);
	T_TRUE(a.processor >= 0);
	T_TRUE(a.has_io);
	for (i = 0; i < 300000000ULL; i++)
		x += i;
	T_OK(pidstat_read(&root, &b, (int)getpid(), &z));
	T_TRUE(z.ticks > a.ticks);
	T_TRUE(z.syscr > a.syscr);
	if (a.has_sched)
		T_TRUE(z.run_ns > a.run_ns);
	else
		printf("# no schedstat here: errno %d\n", a.sched_errno);
	if (a.has_cgroup)
		printf("# cgroup v%d %s quota %s\n", a.cgroup.version,
		    a.cgroup.path, !a.cgroup.has_quota ? "unread" :
		    a.cgroup.unlimited ? "none" : "set");
	if ((pid = fork()) == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	T_ERRNO(pidstat_read(&root, &b, (int)pid, &z), ENOENT);
	probe_buf_free(&b);
	probe_root_close(&root);
}

int
main(void)
{
	t_parse();
	t_live();
	return (t_done());
}
