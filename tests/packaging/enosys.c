/*
 * enosys.c: run a program with system calls refused with ENOSYS, as a
 * kernel older than those calls refuses them, to test the fallbacks of
 * nasperfd and nasperf (and of the glibc linked into the static builds)
 * on the kernels NAS boxes run: 3.10 on Synology DSM 6.
 *
 * usage: enosys [-k X.Y] [-s NAME]... PROGRAM [ARG...]
 *        enosys -t NAME     try NAME: print "NAME: ENOSYS" or "NAME: available"
 *        enosys -l          the calls of the table, with the kernel of each
 *
 * -k X.Y refuses every call of the table added after Linux X.Y.  On x86_64,
 * where numbers are given out in order, it refuses every number from the
 * first of those on, so calls newer than this table are refused too.
 *
 * The filter is a seccomp program answering SECCOMP_RET_ERRNO, installed
 * with prctl(2) (seccomp(2) itself is 3.17) and kept across execve(2) by
 * no_new_privs, which needs no privilege.
 */
#include "config.h"

#include <sys/prctl.h>
#include <sys/syscall.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ENOSYS_ARCH	AUDIT_ARCH_X86_64
#define ENOSYS_ORDERED	1	/* numbers given out in order */
#elif defined(__aarch64__)
#define ENOSYS_ARCH	AUDIT_ARCH_AARCH64
#elif defined(__arm__)
#define ENOSYS_ARCH	AUDIT_ARCH_ARM
#elif defined(__i386__)
#define ENOSYS_ARCH	AUDIT_ARCH_I386
#else
#define ENOSYS_ARCH	0	/* unknown: enosys says so and exits 77 */
#endif

struct enosys_call {
	const char	*name;
	long		 nr;
	int		 major, minor;	/* the kernel that added it */
	int		 safe;		/* -t may call it with zero arguments */
};

#define C(name, maj, min, safe)	{ #name, SYS_##name, maj, min, safe }

/* System calls added after Linux 3.10 that this machine's headers know. */
static const struct enosys_call enosys_calls[] = {
#ifdef SYS_sched_setattr
	C(sched_setattr, 3, 14, 0), C(sched_getattr, 3, 14, 0),
#endif
#ifdef SYS_renameat2
	C(renameat2, 3, 15, 1),
#endif
#ifdef SYS_getrandom
	C(seccomp, 3, 17, 0), C(getrandom, 3, 17, 1),
	C(memfd_create, 3, 17, 1),
#endif
#ifdef SYS_kexec_file_load
	C(kexec_file_load, 3, 17, 0),
#endif
#ifdef SYS_bpf
	C(bpf, 3, 18, 0),
#endif
#ifdef SYS_execveat
	C(execveat, 3, 19, 0),
#endif
#ifdef SYS_userfaultfd
	C(userfaultfd, 4, 3, 0), C(membarrier, 4, 3, 0),
#endif
#ifdef SYS_mlock2
	C(mlock2, 4, 4, 0),
#endif
#ifdef SYS_copy_file_range
	C(copy_file_range, 4, 5, 1),
#endif
#ifdef SYS_preadv2
	C(preadv2, 4, 6, 0), C(pwritev2, 4, 6, 0),
#endif
#ifdef SYS_pkey_mprotect
	C(pkey_mprotect, 4, 9, 0), C(pkey_alloc, 4, 9, 0),
	C(pkey_free, 4, 9, 0),
#endif
#ifdef SYS_statx
	C(statx, 4, 11, 1),
#endif
#ifdef SYS_io_pgetevents
	C(io_pgetevents, 4, 18, 0),
#endif
#ifdef SYS_rseq
	C(rseq, 4, 18, 0),
#endif
#ifdef SYS_clock_gettime64
	/* 32-bit architectures: the 64-bit time_t calls. */
	C(clock_gettime64, 5, 1, 0), C(clock_settime64, 5, 1, 0),
	C(clock_adjtime64, 5, 1, 0), C(clock_getres_time64, 5, 1, 0),
	C(clock_nanosleep_time64, 5, 1, 0), C(timer_gettime64, 5, 1, 0),
	C(timer_settime64, 5, 1, 0), C(timerfd_gettime64, 5, 1, 0),
	C(timerfd_settime64, 5, 1, 0), C(utimensat_time64, 5, 1, 0),
	C(pselect6_time64, 5, 1, 0), C(ppoll_time64, 5, 1, 0),
	C(io_pgetevents_time64, 5, 1, 0), C(recvmmsg_time64, 5, 1, 0),
	C(mq_timedsend_time64, 5, 1, 0), C(mq_timedreceive_time64, 5, 1, 0),
	C(semtimedop_time64, 5, 1, 0), C(rt_sigtimedwait_time64, 5, 1, 0),
	C(futex_time64, 5, 1, 0), C(sched_rr_get_interval_time64, 5, 1, 0),
#endif
#ifdef SYS_pidfd_send_signal
	C(pidfd_send_signal, 5, 1, 0),
#endif
#ifdef SYS_io_uring_setup
	C(io_uring_setup, 5, 1, 1), C(io_uring_enter, 5, 1, 0),
	C(io_uring_register, 5, 1, 0),
#endif
#ifdef SYS_open_tree
	C(open_tree, 5, 2, 0), C(move_mount, 5, 2, 0), C(fsopen, 5, 2, 0),
	C(fsconfig, 5, 2, 0), C(fsmount, 5, 2, 0), C(fspick, 5, 2, 0),
#endif
#ifdef SYS_pidfd_open
	C(pidfd_open, 5, 3, 0),
#endif
#ifdef SYS_clone3
	C(clone3, 5, 3, 1),
#endif
#ifdef SYS_openat2
	C(openat2, 5, 6, 1), C(pidfd_getfd, 5, 6, 0),
#endif
#ifdef SYS_faccessat2
	C(faccessat2, 5, 8, 1),
#endif
#ifdef SYS_close_range
	C(close_range, 5, 9, 0),
#endif
#ifdef SYS_process_madvise
	C(process_madvise, 5, 10, 0),
#endif
#ifdef SYS_epoll_pwait2
	C(epoll_pwait2, 5, 11, 0),
#endif
#ifdef SYS_mount_setattr
	C(mount_setattr, 5, 12, 0),
#endif
#ifdef SYS_landlock_create_ruleset
	C(landlock_create_ruleset, 5, 13, 0), C(landlock_add_rule, 5, 13, 0),
	C(landlock_restrict_self, 5, 13, 0),
#endif
#ifdef SYS_quotactl_fd
	C(quotactl_fd, 5, 14, 0),
#endif
#ifdef SYS_memfd_secret
	C(memfd_secret, 5, 14, 0),
#endif
#ifdef SYS_process_mrelease
	C(process_mrelease, 5, 15, 0),
#endif
#ifdef SYS_futex_waitv
	C(futex_waitv, 5, 16, 0),
#endif
#ifdef SYS_set_mempolicy_home_node
	C(set_mempolicy_home_node, 5, 17, 0),
#endif
};
#define ENOSYS_NCALLS	(sizeof enosys_calls / sizeof enosys_calls[0])
#define ENOSYS_MAXREFUSED	(ENOSYS_NCALLS + 64)

static void
usage(void)
{
	fputs("usage: enosys [-k X.Y] [-s NAME]... PROGRAM [ARG...]\n"
	    "       enosys -t NAME\n"
	    "       enosys -l\n", stderr);
	exit(2);
}

/* The table's entry for name, or NULL. */
static const struct enosys_call *
enosys_find(const char *name)
{
	size_t	i;

	for (i = 0; i < ENOSYS_NCALLS; i++)
		if (strcmp(enosys_calls[i].name, name) == 0)
			return (&enosys_calls[i]);
	return (NULL);
}

/* Whether the kernel major.minor is newer than k (a "X.Y" string). */
static int
enosys_newer(int major, int minor, const char *k)
{
	int	kmaj, kmin;

	if (sscanf(k, "%d.%d", &kmaj, &kmin) != 2) {
		fprintf(stderr, "enosys: -k %s: not X.Y\n", k);
		exit(2);
	}
	return (major > kmaj || (major == kmaj && minor > kmin));
}

/*
 * Install the filter: nr[0..n) refused, and every number from first on
 * when first is not -1.  Other architectures (the 32-bit ABI of an x86_64
 * kernel) pass untouched.
 */
static int
enosys_install(const long *nr, size_t n, long first)
{
	struct sock_filter	 f[ENOSYS_MAXREFUSED + 8], *p = f;
	struct sock_fprog	 prog;
	size_t			 i, rest;

#define STMT(code, k)		(*p++ = (struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, t, e)	(*p++ = (struct sock_filter)BPF_JUMP(code, k, t, e))
	STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	JUMP(BPF_JMP | BPF_JEQ | BPF_K, ENOSYS_ARCH, 1, 0);
	STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/* Each test jumps to the ENOSYS return, past the tests after it. */
	for (i = 0; i < n; i++) {
		rest = n - i - 1 + (first != -1);
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr[i], rest + 1, 0);
	}
	if (first != -1)
		JUMP(BPF_JMP | BPF_JGE | BPF_K, (unsigned)first, 1, 0);
	STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
#undef STMT
#undef JUMP
	prog.len = (unsigned short)(p - f);
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return (-1);
	return (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0));
}

/* -t: call name with zero arguments, where that is harmless. */
static int
enosys_try(const char *name)
{
	const struct enosys_call	*c;

	if ((c = enosys_find(name)) == NULL || !c->safe) {
		fprintf(stderr, "enosys: -t %s: not one of the calls it tries\n",
		    name);
		return (2);
	}
	errno = 0;
	if (syscall(c->nr, 0L, 0L, 0L, 0L, 0L, 0L) == -1 && errno == ENOSYS)
		printf("%s: ENOSYS\n", name);
	else
		printf("%s: available\n", name);
	return (0);
}

int
main(int argc, char **argv)
{
	const struct enosys_call	*c;
	const char			*kernel = NULL;
	long				 nr[ENOSYS_MAXREFUSED], first = -1;
	size_t				 i, n = 0;
	int				 ch;

	if (ENOSYS_ARCH == 0) {
		fputs("enosys: no seccomp architecture for this machine\n",
		    stderr);
		return (77);
	}
	while ((ch = getopt(argc, argv, "+k:ls:t:")) != -1) {
		switch (ch) {
		case 'k':
			kernel = optarg;
			break;
		case 'l':
			for (i = 0; i < ENOSYS_NCALLS; i++)
				printf("%s %d.%d %ld\n", enosys_calls[i].name,
				    enosys_calls[i].major,
				    enosys_calls[i].minor, enosys_calls[i].nr);
			return (0);
		case 's':
			if ((c = enosys_find(optarg)) == NULL) {
				fprintf(stderr, "enosys: -s %s: unknown\n",
				    optarg);
				return (2);
			}
			if (n < ENOSYS_MAXREFUSED)
				nr[n++] = c->nr;
			break;
		case 't':
			return (enosys_try(optarg));
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		usage();
	for (i = 0; kernel != NULL && i < ENOSYS_NCALLS; i++) {
		c = &enosys_calls[i];
		if (!enosys_newer(c->major, c->minor, kernel))
			continue;
#ifdef ENOSYS_ORDERED
		if (first == -1 || c->nr < first)
			first = c->nr;
#else
		if (n < ENOSYS_MAXREFUSED)
			nr[n++] = c->nr;
#endif
	}
	if (enosys_install(nr, n, first) == -1) {
		perror("enosys: seccomp filter");
		return (1);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "enosys: %s: %s\n", argv[0], strerror(errno));
	return (127);
}
