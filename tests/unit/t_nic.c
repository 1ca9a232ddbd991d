/*
 * t_nic.c: the NIC list of the fixture boxes, a bond built in a scratch
 * root, damaged entries, and the live root.
 */
#include "config.h"

#include <sys/stat.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "nic.h"

/* The three vendor boxes: every port, loopback virtual, the down ports. */
static void
test_boxes(void)
{
	struct probe_buf	 pb;
	struct nic_list		*l;
	const struct nic	*n;

	l = malloc(sizeof *l);
	probe_buf_init(&pb);

	T_OK(nic_list_read(t_root("dsm6-3.10-armhf"), &pb, l));
	T_EQ_INT(l->nnics, 2);
	T_EQ_INT(l->nbonds, 0);
	T_EQ_STR(l->nics[0].link.name, "eth0");
	T_EQ_INT(l->nics[0].link.speed_mbps, 1000);
	T_EQ_INT(l->nics[0].link.duplex, NETDEV_DUPLEX_FULL);
	T_EQ_U64(l->nics[0].link.mtu, 1500);
	T_EQ_STR(l->nics[0].link.operstate, "up");
	T_EQ_STR(l->nics[0].link.address, "00:00:5e:00:53:11");
	T_EQ_INT(l->nics[0].is_virtual, 0);
	T_EQ_STR(l->nics[0].driver, "");	/* the fixture has no driver link */
	T_EQ_INT(l->nics[0].bond, -1);
	T_EQ_STR(l->nics[1].link.name, "lo");
	T_EQ_INT(l->nics[1].is_virtual, 1);
	T_EQ_INT(l->nics[1].link.speed_mbps, -1);	/* no speed file */
	T_EQ_U64(l->nics[1].link.mtu, 65536);
	T_EQ_STR(l->nics[1].link.operstate, "unknown");

	T_OK(nic_list_read(t_root("dsm7-4.4-x86_64"), &pb, l));
	T_EQ_INT(l->nnics, 4);
	T_TRUE((n = nic_list_find(l, "eth2")) == &l->nics[2]);
	T_EQ_INT(n->link.speed_mbps, 10000);
	T_EQ_U64(n->link.mtu, 9000);
	T_EQ_INT(n->link.duplex, NETDEV_DUPLEX_FULL);
	T_EQ_STR(n->link.address, "00:00:5e:00:53:23");
	T_EQ_INT(n->is_virtual, 0);
	T_TRUE((n = nic_list_find(l, "eth1")) != NULL);
	T_EQ_INT(n->link.speed_mbps, -1);	/* 4294967295 on 4.4 */
	T_EQ_INT(n->link.duplex, NETDEV_DUPLEX_UNKNOWN);
	T_EQ_STR(n->link.operstate, "down");
	T_EQ_INT(nic_list_find(l, "eth0")->link.speed_mbps, 1000);
	T_TRUE(nic_list_find(l, "bond0") == NULL);
	T_TRUE(nic_bond(l, n) == NULL);

	T_OK(nic_list_read(t_root("qts5-5.10-x86_64"), &pb, l));
	T_EQ_INT(l->nnics, 4);
	T_EQ_STR(l->nics[0].link.name, "eth0");
	T_EQ_STR(l->nics[1].link.name, "eth1");
	T_EQ_STR(l->nics[2].link.name, "eth4");
	T_EQ_STR(l->nics[3].link.name, "lo");
	T_EQ_INT(l->nics[1].link.speed_mbps, -1);	/* -1 in sysfs */
	T_EQ_INT(l->nics[2].link.speed_mbps, 10000);
	T_EQ_U64(l->nics[2].link.mtu, 9000);
	T_EQ_STR(l->nics[2].link.address, "00:00:5e:00:53:34");

	if (!t_have_box("readynas6-4.4-armhf"))
		t_skip("readynas6-4.4-armhf is not in the tree");
	else {
		T_OK(nic_list_read(t_root("readynas6-4.4-armhf"), &pb, l));
		T_EQ_INT(l->nnics, 4);
		T_EQ_INT(l->nbonds, 1);
		T_TRUE((n = nic_list_find(l, "bond0")) != NULL);
		T_TRUE(n != NULL && nic_bond(l, n) != NULL);
		T_TRUE(n != NULL && n->is_virtual == 1 && n->link.is_bond == 1);
		T_TRUE(n != NULL && n->link.speed_mbps == 2000);
		T_EQ_STR(l->bonds[0].sysfs_slaves, "eth0 eth1");
		T_EQ_INT(l->bonds[0].slaves[0].speed_mbps, -1);	/* no Speed: */
		T_EQ_INT(l->bonds[0].slaves[1].link_failures, 1);
		T_TRUE((n = nic_list_find(l, "eth1")) != NULL);
		T_TRUE(n != NULL && strcmp(n->driver, "mvneta") == 0);
		T_TRUE(n != NULL && strcmp(n->link.master, "bond0") == 0);
	}
	if (!t_have_box("debian12-6.1-btrfs"))
		t_skip("debian12-6.1-btrfs is not in the tree");
	else {
		T_OK(nic_list_read(t_root("debian12-6.1-btrfs"), &pb, l));
		T_EQ_INT(l->nnics, 3);
		T_EQ_INT(l->nbonds, 0);
		T_TRUE((n = nic_list_find(l, "eth0")) != NULL);
		T_TRUE(n != NULL && strcmp(n->driver, "igb") == 0);
		T_TRUE(n != NULL && n->link.speed_mbps == 1000);
		T_TRUE(n != NULL && n->is_virtual == 0);
		T_TRUE((n = nic_list_find(l, "eth1")) != NULL);
		T_TRUE(n != NULL && strcmp(n->driver, "ixgbe") == 0);
		/* a down 10GbE port: speed -1 in sysfs is unknown */
		T_TRUE(n != NULL && n->link.speed_mbps == -1);
		T_TRUE(n != NULL && strcmp(n->link.operstate, "down") == 0);
		T_TRUE((n = nic_list_find(l, "lo")) != NULL);
		T_TRUE(n != NULL && n->is_virtual == 1 && n->link.mtu == 65536);
	}

	T_ERRNO(nic_list_read(t_root("empty"), &pb, l), ENOENT);
	T_EQ_INT(l->nnics, 0);
	probe_buf_free(&pb);
	free(l);
}

/*
 * A scratch root with an 802.3ad bond of two ports (one without a Speed:
 * line), drivers as links and as uevent, a dangling entry, and a bond whose
 * proc file is missing.
 */
static void
test_bond(void)
{
	struct probe_root	 root;
	struct probe_buf	 pb;
	struct nic_list		*l;
	const struct nic	*n;
	const struct bonding	*b;
	char			 dir[] = "/tmp/t_nic.XXXXXX", cmd[64];

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	t_put(dir, "proc/net/bonding/bond0",
	    "Ethernet Channel Bonding Driver: v3.7.1 (April 27, 2011)\n\n"
	    "Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n"
	    "Transmit Hash Policy: layer2 (0)\n"
	    "MII Status: up\n\n802.3ad info\nLACP rate: slow\n"
	    "Active Aggregator Info:\n\tAggregator ID: 1\n"
	    "\tNumber of ports: 2\n\n"
	    "Slave Interface: eth0\nMII Status: up\nDuplex: full\n"
	    "Link Failure Count: 0\nAggregator ID: 1\n\n"
	    "Slave Interface: eth1\nMII Status: up\nSpeed: 1000 Mbps\n"
	    "Duplex: full\nLink Failure Count: 3\nAggregator ID: 1\n");
	t_put(dir, "sys/devices/platform/eth0/uevent", "DRIVER=mvneta\n");
	t_put(dir, "sys/devices/platform/eth1/uevent", "OF_NAME=ethernet\n");
	t_put(dir, "sys/bus/platform/drivers/mvneta/uevent", "");
	t_link(dir, "sys/devices/platform/eth1/driver",
	    "../../../bus/platform/drivers/mvneta");
	t_put(dir, "sys/class/net/eth0/speed", "1000\n");
	t_put(dir, "sys/class/net/eth0/mtu", "1500\n");
	t_link(dir, "sys/class/net/eth0/device", "../../../devices/platform/eth0");
	t_link(dir, "sys/class/net/eth0/master", "../bond0");
	t_put(dir, "sys/class/net/eth1/speed", "1000\n");
	t_link(dir, "sys/class/net/eth1/device", "../../../devices/platform/eth1");
	t_link(dir, "sys/class/net/eth1/master", "../bond0");
	t_put(dir, "sys/class/net/bond0/speed", "2000\n");
	t_put(dir, "sys/class/net/bond0/mtu", "1500\n");
	t_put(dir, "sys/class/net/bond0/bonding/mode", "802.3ad 4\n");
	t_put(dir, "sys/class/net/bond0/bonding/slaves", "eth0 eth1\n");
	t_put(dir, "sys/class/net/bond1/bonding/mode", "active-backup 1\n");
	t_link(dir, "sys/class/net/gone0", "../../devices/virtual/net/gone0");

	T_OK(probe_root_open(&root, dir));
	l = malloc(sizeof *l);
	probe_buf_init(&pb);
	T_OK(nic_list_read(&root, &pb, l));
	T_EQ_INT(l->nnics, 4);			/* gone0 dangles: skipped */
	T_EQ_INT(l->nbonds, 1);
	T_TRUE((n = nic_list_find(l, "bond0")) == &l->nics[0]);
	T_EQ_INT(n->is_virtual, 1);
	T_EQ_INT(n->link.is_bond, 1);
	T_EQ_INT(n->bond, 0);
	T_TRUE((b = nic_bond(l, n)) == &l->bonds[0]);
	T_EQ_STR(b->name, "bond0");
	T_EQ_INT(b->mode, BONDING_MODE_8023AD);
	T_EQ_STR(b->hash_policy, "layer2");
	T_EQ_STR(b->lacp_rate, "slow");
	T_EQ_INT(b->has_sysfs, 1);
	T_EQ_STR(b->sysfs_mode, "802.3ad 4");
	T_EQ_STR(b->sysfs_slaves, "eth0 eth1");
	T_EQ_INT(b->nslaves, 2);
	T_EQ_INT(b->slaves[0].speed_mbps, -1);	/* no Speed: line */
	T_EQ_INT(b->slaves[1].link_failures, 3);
	T_EQ_INT(bonding_capacity_mbps(b), 1000);
	T_TRUE((n = nic_list_find(l, "bond1")) != NULL);
	T_EQ_INT(n->link.is_bond, 1);
	T_EQ_INT(n->bond, -1);			/* no proc file */
	T_TRUE(nic_bond(l, n) == NULL);
	T_TRUE((n = nic_list_find(l, "eth0")) != NULL);
	T_EQ_STR(n->link.master, "bond0");
	T_EQ_STR(n->driver, "mvneta");		/* from uevent */
	T_EQ_INT(n->is_virtual, 0);
	T_TRUE((n = nic_list_find(l, "eth1")) != NULL);
	T_EQ_STR(n->driver, "mvneta");		/* from the driver link */
	T_EQ_INT(n->link.speed_mbps, 1000);
	T_EQ_U64(n->link.mtu, 0);		/* no mtu file */
	probe_root_close(&root);
	probe_buf_free(&pb);
	free(l);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	T_EQ_INT(system(cmd), 0);
}

/* The live root has at least its loopback, with a known MTU. */
static void
test_live(void)
{
	struct probe_root	 live;
	struct probe_buf	 pb;
	struct nic_list		*l;
	const struct nic	*n;

	l = malloc(sizeof *l);
	probe_buf_init(&pb);
	T_OK(probe_root_open(&live, "/"));
	T_OK(nic_list_read(&live, &pb, l));
	T_TRUE((n = nic_list_find(l, "lo")) != NULL);
	T_TRUE(n != NULL && n->is_virtual == 1 && n->link.mtu > 0);
	probe_root_close(&live);
	probe_buf_free(&pb);
	free(l);
}

int
main(void)
{
	test_boxes();
	test_bond();
	test_live();
	return (t_done());
}
