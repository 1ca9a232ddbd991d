/*
 * probe-cost.c: the time one full counter snapshot takes.
 *
 * usage: probe-cost-bin ROOT N
 * Takes N snapshots of ROOT (after a warm-up) with the default process
 * groups and prints the mean and median microseconds per snapshot.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe.h"
#include "snapshot.h"

/* The daemon's default process groups (etc/nasperfd.yaml). */
static const char *const smb[] = { "smbd", "nmbd", "samba-dcerpcd",
    "rpcd_*", "winbindd" };
static const char *const nfs[] = { "nfsd", "ganesha.nfsd", "rpc.mountd",
    "lockd" };
static const char *const afp[] = { "afpd", "cnid_metad", "cnid_dbd" };
static const struct snapshot_group groups[] = {
	{ "smb", smb, 5, 0 }, { "nfs", nfs, 4, 0 }, { "afp", afp, 3, 0 },
};

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

int
main(int argc, char **argv)
{
	struct snapshot_opts	 opts = { groups, 3, 0 };
	struct probe_root	 root;
	struct snapshot		*s;
	struct timespec		 t0, t1;
	double			*us, sum = 0;
	long			 i, n;

	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) < 1) {
		fprintf(stderr, "usage: probe-cost-bin ROOT N\n");
		return (2);
	}
	if (probe_root_open(&root, argv[1]) == -1) {
		perror(argv[1]);
		return (1);
	}
	if ((s = snapshot_new()) == NULL ||
	    (us = calloc((size_t)n, sizeof *us)) == NULL)
		return (1);
	for (i = 0; i < 5; i++)
		snapshot_take(&root, &opts, s);
	for (i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (snapshot_take(&root, &opts, s) == -1) {
			perror("snapshot_take");
			return (1);
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		us[i] = (double)(t1.tv_sec - t0.tv_sec) * 1e6 +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e3;
		sum += us[i];
	}
	qsort(us, (size_t)n, sizeof *us, cmp_double);
	printf("%.1f %.1f %zu %zu\n", sum / (double)n, us[n / 2],
	    s->disks.ndevs, s->nics.nifs);
	snapshot_free(s);
	free(us);
	probe_root_close(&root);
	return (0);
}
