/*
 * netdev.h: network interfaces, their link attributes and their counters.
 *
 * Link attributes come from <root>/sys/class/net/<name>/; statistics from
 * <name>/statistics/, or from <root>/proc/net/dev when sysfs has none
 * (old vendor kernels, captured boxes without /sys statistics).
 */
#ifndef NETDEV_H
#define NETDEV_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define NETDEV_NAME_MAX 32

enum netdev_duplex { NETDEV_DUPLEX_UNKNOWN, NETDEV_DUPLEX_HALF, NETDEV_DUPLEX_FULL };

struct netdev_link {			/* /sys/class/net/<name>/ attributes */
	char		name[NETDEV_NAME_MAX];
	int64_t		speed_mbps;	/* -1 when unknown (sysfs gives -1 or EINVAL when down) */
	enum netdev_duplex duplex;
	uint64_t	mtu;		/* 0 when not available */
	char		operstate[16];	/* "up", "down", "unknown", "" */
	char		master[NETDEV_NAME_MAX];	/* bond/bridge master, "" if none */
	char		address[32];	/* MAC, "" if not available */
	int		is_bond;	/* 1 if <name>/bonding/ exists */
	int		is_virtual;	/* 1 without a device link: lo, veth,
					 * bridges, tunnels, bonds */
	char		bond_mode[24];	/* bonding/mode's name: "802.3ad",
					 * "balance-xor"; "" when not a bond */
};

/* Read the link attributes of one interface; -1 and ENOENT if it does not exist. */
int	netdev_link_read(const struct probe_root *, const char *name, struct netdev_link *);

/* The counters of one interface, in bytes and packets since boot. */
struct netdev_if {
	char		name[NETDEV_NAME_MAX];
	int		from_sysfs;	/* 1: statistics/, 0: /proc/net/dev */
	int		has_link;	/* 1 when link below was read */
	struct netdev_link link;
	uint64_t	rx_bytes, rx_packets, rx_errs, rx_drop;
	uint64_t	tx_bytes, tx_packets, tx_errs, tx_drop;
};

/* All interfaces; the array is reused across reads. */
struct netdev {
	struct netdev_if *ifs;
	size_t		 nifs;
	size_t		 cap;
	size_t		 skipped;	/* malformed /proc/net/dev lines */
	struct netdev_if *pifs;		/* scratch: /proc/net/dev rows */
	size_t		 pcap;
};

/* Initialise an empty set of interfaces. */
void	netdev_init(struct netdev *);
/* Release the interfaces' memory; nd may be reused after netdev_init. */
void	netdev_clear(struct netdev *);
/*
 * Read every interface listed in <root>/sys/class/net/ (or, without sysfs,
 * in /proc/net/dev) with its counters and link.  -1 and errno ENOENT when
 * neither exists.
 */
int	netdev_read(const struct probe_root *, struct probe_buf *,
	    struct netdev *, const char **errstr);
/*
 * Parse /proc/net/dev text into nd (replacing its contents); malformed
 * lines are skipped and counted.  Pure: tests call it directly.
 */
int	netdev_parse(const char *, size_t, struct netdev *, const char **);
/* The interface called name in nd, or NULL. */
const struct netdev_if *netdev_find(const struct netdev *,
	    const char *name);

#endif /* NETDEV_H */
