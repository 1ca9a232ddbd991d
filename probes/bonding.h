/*
 * bonding.h: Linux bonding interfaces, from /proc/net/bonding/<bond>.
 *
 * The proc file is the only place the per-slave speed, duplex and link
 * failure count of a bond are printed together.  Its layout changed little
 * since driver 3.x: "Key: value" lines, a block per slave starting with
 * "Slave Interface:", 802.3ad details indented by a TAB or by spaces.  A
 * slave block may have no "Speed:" line at all (seen on Marvell NAS boxes).
 * <root>/sys/class/net/<bond>/bonding/{mode,slaves} is read when present.
 * Everything is fixed-size: nothing to free.
 */
#ifndef BONDING_H
#define BONDING_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define BONDING_NAME_MAX	32	/* as NETDEV_NAME_MAX */
#define BONDING_SLAVES_MAX	16	/* slaves kept; more are counted */

/* The bonding modes, numbered as the driver numbers them. */
enum bonding_mode {
	BONDING_MODE_UNKNOWN = -1,
	BONDING_MODE_RR = 0,		/* balance-rr */
	BONDING_MODE_ACTIVEBACKUP,	/* active-backup */
	BONDING_MODE_XOR,		/* balance-xor */
	BONDING_MODE_BROADCAST,		/* broadcast */
	BONDING_MODE_8023AD,		/* 802.3ad */
	BONDING_MODE_TLB,		/* balance-tlb */
	BONDING_MODE_ALB		/* balance-alb */
};

struct bonding_slave {			/* one "Slave Interface:" block */
	char		name[BONDING_NAME_MAX];
	char		mii_status[16];	/* "up", "down", "going back"…; "" */
	int64_t		speed_mbps;	/* -1: unknown, or no Speed: line */
	char		duplex[16];	/* "full", "half", "" when unknown */
	int64_t		link_failures;	/* -1 when not printed */
	char		perm_addr[32];	/* "Permanent HW addr", "" if none */
	int64_t		aggregator_id;	/* 802.3ad only, else -1 */
};

struct bonding {
	char		name[BONDING_NAME_MAX];	/* "bond0"; "" after _parse */
	char		version[64];	/* driver version, "v3.7.1 (April 27, 2011)" */
	enum bonding_mode mode;
	char		mode_text[64];	/* "IEEE 802.3ad Dynamic link aggregation" */
	char		hash_policy[32];	/* "layer3+4", "" if not printed */
	char		mii_status[16];	/* the bond's own, "up" or "down" */
	char		lacp_rate[16];	/* "slow", "fast", "" if not 802.3ad */
	char		active_slave[BONDING_NAME_MAX];	/* active-backup; "" */
	int64_t		active_aggregator;	/* 802.3ad "Aggregator ID", -1 */
	int64_t		aggregator_ports;	/* "Number of ports", -1 */
	char		partner_mac[32];	/* "Partner Mac Address", "" */
	struct bonding_slave slaves[BONDING_SLAVES_MAX];
	size_t		nslaves;
	size_t		dropped;	/* slave blocks past BONDING_SLAVES_MAX */
	int		has_sysfs;	/* sysfs bonding/ read into the two below */
	char		sysfs_mode[32];	/* bonding/mode, "802.3ad 4" */
	char		sysfs_slaves[256];	/* bonding/slaves, space-separated */
};

/*
 * Read <root>/proc/net/bonding/<name> (and the bond's sysfs bonding/
 * directory when present).  -1 and errno: ENOENT no such bond, EINVAL
 * with *errstr when the file is not a bonding status file.
 */
int	bonding_read(const struct probe_root *, struct probe_buf *,
	    const char *name, struct bonding *, const char **errstr);
/*
 * Parse the text of a /proc/net/bonding file into b.  Unknown keys are
 * skipped.  Pure: tests and the fuzzer call it directly.
 */
int	bonding_parse(const char *, size_t, struct bonding *, const char **);
/* The driver's short name of a mode ("802.3ad", "active-backup"…), or NULL. */
const char *bonding_mode_name(enum bonding_mode);
/* 1 if traffic is spread over every up slave (802.3ad, balance-*). */
int	bonding_mode_aggregates(enum bonding_mode);
/*
 * What the bond can carry in Mb/s: the sum of the up slaves' speeds for an
 * aggregating mode, the active slave's speed for active-backup (the first
 * up slave when the active one is not named), the slowest up slave for
 * broadcast.  -1 when no up slave has a known speed.
 */
int64_t	bonding_capacity_mbps(const struct bonding *);
/* The slave called name in b, or NULL. */
const struct bonding_slave *bonding_slave_find(const struct bonding *,
	    const char *name);

#endif /* BONDING_H */
