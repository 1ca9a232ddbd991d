/*
 * fuzz_parsers.c: one small adapter per pure parser, for the fuzz target.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bonding.h"
#include "cpuinfo.h"
#include "cpustat.h"
#include "crypto.h"
#include "diskstats.h"
#include "exports.h"
#include "fuzz_probes.h"
#include "mdstat.h"
#include "meminfo.h"
#include "netdev.h"
#include "nfsd.h"
#include "pressure.h"
#include "smbconf.h"
#include "softirqs.h"
#include "unraid.h"
#include "zfs.h"

/* Parse, then ask what enc_host.c asks of a bond. */
static int
fz_bonding(const char *p, size_t n)
{
	struct bonding	b;
	const char	*e;

	if (bonding_parse(p, n, &b, &e) == -1)
		return (-1);
	(void)bonding_capacity_mbps(&b);
	(void)bonding_mode_name(b.mode);
	(void)bonding_slave_find(&b, b.active_slave);
	return (0);
}

/* Parse, then ask what identity.c asks of a CPU. */
static int
fz_cpuinfo(const char *p, size_t n)
{
	struct cpuinfo	c;
	const char	*e;

	if (cpuinfo_parse(p, n, &c, &e) == -1)
		return (-1);
	(void)cpuinfo_arch(&c);
	(void)cpuinfo_has_aes(&c);
	return (0);
}

static int
fz_cpustat(const char *p, size_t n)
{
	struct cpustat	c;
	const char	*e;
	int		 rc;

	cpustat_init(&c);
	rc = cpustat_parse(p, n, &c, &e);
	cpustat_clear(&c);
	return (rc);
}

static int
fz_crypto(const char *p, size_t n)
{
	struct crypto	c;
	const char	*e;
	int		 rc;

	crypto_init(&c);
	rc = crypto_parse(p, n, &c, &e);
	crypto_clear(&c);
	return (rc);
}

static int
fz_diskstats(const char *p, size_t n)
{
	struct diskstats	d;
	const char		*e;
	int			 rc;

	diskstats_init(&d);
	rc = diskstats_parse(p, n, &d, &e);
	diskstats_clear(&d);
	return (rc);
}

/*
 * Parse, check the numbers are finite (JSON has no NaN: the encoder
 * would drop the array), and look the last array up by its name, as
 * topology.c does.
 */
static int
fz_mdstat(const char *p, size_t n)
{
	static struct mdstat	md;	/* 160 KiB: allocated once */
	const char		*e;
	size_t			 i;

	if (mdstat_parse(p, n, &md, &e) == -1)
		return (-1);
	for (i = 0; i < md.narrays; i++)
		if (!isfinite(md.arrays[i].sync_pct) ||
		    !isfinite(md.arrays[i].sync_finish_min))
			abort();
	if (md.narrays > 0 &&
	    mdstat_find(&md, md.arrays[md.narrays - 1].name) == NULL)
		abort();
	return (0);
}

static int
fz_meminfo(const char *p, size_t n)
{
	struct meminfo	m;
	const char	*e;

	memset(&m, 0, sizeof m);
	return (meminfo_parse(p, n, &m, &e));
}

static int
fz_netdev(const char *p, size_t n)
{
	struct netdev	nd;
	const char	*e;
	int		 rc;

	netdev_init(&nd);
	rc = netdev_parse(p, n, &nd, &e);
	netdev_clear(&nd);
	return (rc);
}

/* Parse, and check the histogram's numbers are finite, as for mdstat. */
static int
fz_nfsd(const char *p, size_t n)
{
	struct nfsd	x;
	const char	*e;
	size_t		 i;

	memset(&x, 0, sizeof x);
	if (nfsd_parse(p, n, &x, &e) == -1)
		return (-1);
	for (i = 0; i < x.th_nhist; i++)
		if (!isfinite(x.th_hist[i]))
			abort();
	return (0);
}

static int
fz_pressure(const char *p, size_t n)
{
	struct pressure_res	r;
	const char		*e;

	memset(&r, 0, sizeof r);
	return (pressure_parse(p, n, &r, &e));
}

static int
fz_softirqs(const char *p, size_t n)
{
	struct softirqs	s;
	const char	*e;
	int		 rc;

	softirqs_init(&s);
	rc = softirqs_parse(p, n, &s, &e);
	softirqs_clear(&s);
	return (rc);
}

static int
fz_exports(const char *p, size_t n)
{
	struct exports	x;
	const char	*e;
	int		 rc;

	exports_init(&x);
	rc = exports_parse(p, n, &x, &e);
	exports_clear(&x);
	return (rc);
}

static int
fz_ganesha(const char *p, size_t n)
{
	struct exports_ganesha	*g;
	const char		*e;
	int			 rc;

	if ((g = malloc(sizeof *g)) == NULL)
		return (-1);
	rc = exports_ganesha_parse(p, n, g, &e);
	free(g);
	return (rc);
}

static int
fz_smbconf(const char *p, size_t n)
{
	struct smbconf	*sc;
	const char	*e;
	int		 rc;

	if ((sc = malloc(sizeof *sc)) == NULL)
		return (-1);
	rc = smbconf_parse(p, n, sc, &e);
	free(sc);
	return (rc);
}

static int
fz_unraid(const char *p, size_t n)
{
	struct unraid	*u;
	const char	*e;
	int		 rc;

	if ((u = malloc(sizeof *u)) == NULL)
		return (-1);
	rc = unraid_parse(p, n, u, &e);
	free(u);
	return (rc);
}

static int
fz_zfs_kstat(const char *p, size_t n)
{
	struct zfs_named	k;
	const char		*e;

	if (zfs_io_parse(p, n, &k, &e) == 0 && k.have == 0)
		return (1);
	return (zfs_named_parse(p, n, zfs_arc_names, ZFS_ARC_NSTATS, &k, &e));
}

static int
fz_zfs_txgs(const char *p, size_t n)
{
	struct zfs_txgs		*t;
	struct zfs_txg_summary	 sum;
	const char		*e;
	int			 rc;

	if ((t = malloc(sizeof *t)) == NULL)
		return (-1);
	if ((rc = zfs_txgs_parse(p, n, t, &e)) == 0)
		zfs_txgs_summary(t, &sum);
	free(t);
	return (rc);
}

static int
fz_zfs_status(const char *p, size_t n)
{
	struct zfs_status	*st;
	const char		*e;
	int			 rc;

	if ((st = malloc(sizeof *st)) == NULL)
		return (-1);
	rc = zfs_status_parse(p, n, st, &e);
	free(st);
	return (rc);
}

static int
fz_zfs_get(const char *p, size_t n)
{
	struct zfs_datasets	ds;
	const char		*e;
	int			rc;

	memset(&ds, 0, sizeof ds);
	rc = zfs_datasets_parse(p, n, &ds, &e);
	if (rc == 0)
		(void)zfs_dataset_find(&ds, "tank/share");
	zfs_datasets_clear(&ds);
	return (rc);
}

static int
fz_zfs_iostat(const char *p, size_t n)
{
	struct zfs_viostat	*io;
	const char		*e;
	int			 rc;

	if ((io = malloc(sizeof *io)) == NULL)
		return (-1);
	rc = zfs_viostat_parse(p, n, io, &e);
	free(io);
	return (rc);
}

const struct fuzz_parser fuzz_parsers[] = {
	{ "bonding", PROBE_PROC, "net/bonding/bond0", fz_bonding },
	{ "cpuinfo", PROBE_PROC, "cpuinfo", fz_cpuinfo },
	{ "cpustat", PROBE_PROC, "stat", fz_cpustat },
	{ "crypto", PROBE_PROC, "crypto", fz_crypto },
	{ "diskstats", PROBE_PROC, "diskstats", fz_diskstats },
	{ "exports", PROBE_ETC, "exports", fz_exports },
	{ "ganesha", PROBE_ETC, "ganesha/ganesha.conf", fz_ganesha },
	{ "mdstat", PROBE_PROC, "mdstat", fz_mdstat },
	{ "meminfo", PROBE_PROC, "meminfo", fz_meminfo },
	{ "netdev", PROBE_PROC, "net/dev", fz_netdev },
	{ "nfsd", PROBE_PROC, "net/rpc/nfsd", fz_nfsd },
	{ "pressure", PROBE_PROC, "pressure/io", fz_pressure },
	{ "smbconf", PROBE_ETC, "samba/smb.conf", fz_smbconf },
	{ "softirqs", PROBE_PROC, "softirqs", fz_softirqs },
	{ "unraid", PROBE_PROC, "mdstat", fz_unraid },
	{ "zfs_kstat", PROBE_PROC, "spl/kstat/zfs/arcstats", fz_zfs_kstat },
	{ "zfs_txgs", PROBE_PROC, "spl/kstat/zfs/tank/txgs", fz_zfs_txgs },
	{ "zfs_status", PROBE_ROOT, "zpool-status", fz_zfs_status },
	{ "zfs_get", PROBE_ROOT, "zfs-get", fz_zfs_get },
	{ "zfs_iostat", PROBE_ROOT, "zpool-iostat", fz_zfs_iostat },
};
const size_t fuzz_nparsers = sizeof fuzz_parsers / sizeof fuzz_parsers[0];

int
fuzz_run(size_t i, const char *data, size_t len)
{
	char	*copy;
	int	 rc;

	if (i >= fuzz_nparsers || (copy = malloc(len + 1)) == NULL)
		return (0);
	memcpy(copy, data, len);
	copy[len] = '\0';
	rc = fuzz_parsers[i].parse(copy, len);
	free(copy);
	return (rc == 0 || rc == -1 ? 0 : 1);
}
