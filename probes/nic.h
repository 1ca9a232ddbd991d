/*
 * nic.h: the network interfaces of a box for the topology.
 *
 * Every entry of <root>/sys/class/net/ with its link attributes (through
 * netdev_link_read()), the driver that binds it (the basename of its
 * device/driver link), whether it is virtual (no device link: lo, bonds,
 * bridges, VLANs, tunnels), and for a bond its /proc/net/bonding status.
 * Fixed-size arrays: a struct nic_list holds no heap memory, nothing to
 * clear.
 */
#ifndef NIC_H
#define NIC_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"
#include "netdev.h"
#include "bonding.h"

#define NIC_MAX		64	/* interfaces kept; more are counted */
#define NIC_BONDS_MAX	8	/* bonds whose status is kept */

struct nic {
	struct netdev_link link;	/* name, speed, duplex, mtu, master… */
	char		driver[32];	/* "igb", "atlantic", "" if none */
	int		is_virtual;	/* 1 without a device link */
	int		bond;		/* index into nic_list.bonds, or -1 */
};

struct nic_list {
	struct nic	nics[NIC_MAX];	/* in name order */
	size_t		nnics;
	size_t		dropped;	/* interfaces past NIC_MAX */
	struct bonding	bonds[NIC_BONDS_MAX];
	size_t		nbonds;
};

/*
 * Read every interface under <root>/sys/class/net/ into l, sorted by name.
 * A bond whose /proc/net/bonding file cannot be read keeps bond -1.
 * 0, or -1 with errno ENOENT when there is no sys/class/net.
 */
int	nic_list_read(const struct probe_root *, struct probe_buf *,
	    struct nic_list *);
/* The interface called name in l, or NULL. */
const struct nic *nic_list_find(const struct nic_list *, const char *name);
/* The bonding status of n, or NULL when it is not a bond that was read. */
const struct bonding *nic_bond(const struct nic_list *, const struct nic *);

#endif /* NIC_H */
