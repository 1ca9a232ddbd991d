/*
 * t_bonding.c: /proc/net/bonding parsing against the real 802.3ad capture,
 * damaged text, and the fixture boxes.
 */
#include "config.h"

#include <unistd.h>

#include "test.h"
#include "bonding.h"

#include "bond_capture.h"

/* A Marvell NAS bond: the first slave block has no Speed: line. */
static const char nospeed_bond[] =
    "Ethernet Channel Bonding Driver: v3.7.1 (April 27, 2011)\n"
    "\n"
    "Bonding Mode: adaptive load balancing\n"
    "Primary Slave: None\n"
    "Currently Active Slave: egiga0\n"
    "MII Status: up\n"
    "MII Polling Interval (ms): 100\n"
    "Up Delay (ms): 0\n"
    "Down Delay (ms): 0\n"
    "\n"
    "Slave Interface: egiga0\n"
    "MII Status: up\n"
    "Link Failure Count: 0\n"
    "Permanent HW addr: 00:00:5e:00:53:a1\n"
    "\n"
    "Slave Interface: egiga1\n"
    "MII Status: up\n"
    "Speed: 1000 Mbps\n"
    "Duplex: full\n"
    "Link Failure Count: 1\n"
    "Permanent HW addr: 00:00:5e:00:53:a2\n";

/* An active-backup bond of a newer kernel, with keys this parser never saw. */
static const char ab_bond[] =
    "Ethernet Channel Bonding Driver: v5.10.60-qnap\n"
    "\n"
    "Bonding Mode: fault-tolerance (active-backup) (fail_over_mac active)\n"
    "Primary Slave: eth0 (primary_reselect always)\n"
    "Currently Active Slave: eth1\n"
    "MII Status: up\n"
    "MII Polling Interval (ms): 100\n"
    "Up Delay (ms): 0\n"
    "Down Delay (ms): 0\n"
    "Peer Notification Delay (ms): 0\n"
    "Frobnication Level: 11\n"
    "\n"
    "Slave Interface: eth0\n"
    "MII Status: down\n"
    "Speed: 4294967295 Mbps\n"
    "Duplex: Unknown\n"
    "Link Failure Count: 7\n"
    "Permanent HW addr: 00:00:5e:00:53:b1\n"
    "Slave queue ID: 0\n"
    "Frobnicated: yes\n"
    "\n"
    "Slave Interface: eth1\n"
    "MII Status: up\n"
    "Speed: 10000 Mbps\n"
    "Duplex: full\n"
    "Link Failure Count: 0\n"
    "Permanent HW addr: 00:00:5e:00:53:b2\n"
    "Slave queue ID: 0\n";

/* The real CentOS 802.3ad capture: one slave down, two aggregators. */
static void
test_centos(void)
{
	struct bonding			b;
	const struct bonding_slave	*s;
	const char			*errstr;

	T_OK(bonding_parse(centos_bond0, sizeof centos_bond0 - 1, &b, &errstr));
	T_EQ_STR(b.version, "v3.7.1 (April 27, 2011)");
	T_EQ_INT(b.mode, BONDING_MODE_8023AD);
	T_EQ_STR(b.mode_text, "IEEE 802.3ad Dynamic link aggregation");
	T_EQ_STR(bonding_mode_name(b.mode), "802.3ad");
	T_EQ_STR(b.hash_policy, "layer3+4");
	T_EQ_STR(b.mii_status, "up");
	T_EQ_STR(b.lacp_rate, "fast");
	T_EQ_INT(b.active_aggregator, 2);
	T_EQ_INT(b.aggregator_ports, 1);
	T_EQ_STR(b.partner_mac, "00:00:00:00:00:00");
	T_EQ_STR(b.active_slave, "");
	T_EQ_INT(b.nslaves, 2);
	T_EQ_STR(b.slaves[0].name, "enp1s0f0");
	T_EQ_STR(b.slaves[0].mii_status, "down");
	T_EQ_INT(b.slaves[0].speed_mbps, -1);
	T_EQ_STR(b.slaves[0].duplex, "");
	T_EQ_INT(b.slaves[0].link_failures, 2);
	T_EQ_STR(b.slaves[0].perm_addr, "00:00:5e:00:53:01");
	T_EQ_INT(b.slaves[0].aggregator_id, 1);
	T_EQ_STR(b.slaves[1].name, "enp1s0f1");
	T_EQ_STR(b.slaves[1].mii_status, "up");
	T_EQ_INT(b.slaves[1].speed_mbps, 1000);
	T_EQ_STR(b.slaves[1].duplex, "full");
	T_EQ_INT(b.slaves[1].link_failures, 2);
	T_EQ_STR(b.slaves[1].perm_addr, "00:00:5e:00:53:02");
	T_EQ_INT(b.slaves[1].aggregator_id, 2);
	T_EQ_INT(bonding_capacity_mbps(&b), 1000);
	T_TRUE((s = bonding_slave_find(&b, "enp1s0f1")) == &b.slaves[1]);
	T_TRUE(bonding_slave_find(&b, "eth0") == NULL);
	T_EQ_STR(b.name, "");
	T_EQ_INT(b.has_sysfs, 0);
}

/* A slave block without Speed:, an alb bond, an active-backup bond. */
static void
test_quirks(void)
{
	struct bonding	b;

	T_OK(bonding_parse(nospeed_bond, sizeof nospeed_bond - 1, &b, NULL));
	T_EQ_INT(b.mode, BONDING_MODE_ALB);
	T_EQ_STR(bonding_mode_name(b.mode), "balance-alb");
	T_EQ_STR(b.active_slave, "egiga0");
	T_EQ_STR(b.hash_policy, "");
	T_EQ_STR(b.lacp_rate, "");
	T_EQ_INT(b.active_aggregator, -1);
	T_EQ_INT(b.nslaves, 2);
	T_EQ_INT(b.slaves[0].speed_mbps, -1);
	T_EQ_STR(b.slaves[0].duplex, "");
	T_EQ_INT(b.slaves[0].link_failures, 0);
	T_EQ_INT(b.slaves[0].aggregator_id, -1);
	T_EQ_INT(b.slaves[1].speed_mbps, 1000);
	T_EQ_INT(b.slaves[1].link_failures, 1);
	/* Aggregating: only the slave with a known speed counts. */
	T_EQ_INT(bonding_capacity_mbps(&b), 1000);

	T_OK(bonding_parse(ab_bond, sizeof ab_bond - 1, &b, NULL));
	T_EQ_INT(b.mode, BONDING_MODE_ACTIVEBACKUP);
	T_EQ_STR(b.version, "v5.10.60-qnap");
	T_EQ_STR(b.active_slave, "eth1");
	T_EQ_INT(b.nslaves, 2);
	T_EQ_INT(b.slaves[0].speed_mbps, -1);	/* 4294967295: unknown */
	T_EQ_STR(b.slaves[0].duplex, "");
	T_EQ_INT(b.slaves[0].link_failures, 7);
	T_EQ_INT(b.slaves[1].speed_mbps, 10000);
	T_EQ_INT(bonding_capacity_mbps(&b), 10000);
	T_EQ_INT(bonding_mode_aggregates(b.mode), 0);
	T_EQ_INT(bonding_mode_aggregates(BONDING_MODE_XOR), 1);
	T_TRUE(bonding_mode_name(BONDING_MODE_UNKNOWN) == NULL);
}

/* Text that is not a bonding file, cut short, or damaged. */
static void
test_bad(void)
{
	struct bonding	 b;
	const char	*errstr;
	char		 buf[sizeof centos_bond0];
	size_t		 n;
	static const char garbage[] =
	    "Ethernet Channel Bonding Driver: v3.7.1\n"
	    "Bonding Mode: something new\n"
	    "Slave Interface: eth0\n"
	    "Speed: -5 Mbps\n"
	    "Link Failure Count: 99999999999999999999999\n"
	    "Aggregator ID: x\n"
	    ":\n"
	    "::::\n"
	    "Slave Interface:\n";
	static const char huge[] =
	    "Ethernet Channel Bonding Driver: v3.7.1\n"
	    "Bonding Mode: transmit load balancing\n"
	    "Slave Interface: eth0\nMII Status: up\n"
	    "Speed: 5076944270305262615 Mbps\n"
	    "Slave Interface: eth1\nMII Status: up\n"
	    "Speed: 4294967296 Mbps\n";

	errstr = NULL;
	T_ERRNO(bonding_parse("", 0, &b, &errstr), EINVAL);
	T_EQ_STR(errstr, "not a bonding status file");
	T_ERRNO(bonding_parse("MII Status: up\n", 15, &b, &errstr), EINVAL);
	T_ERRNO(bonding_parse("\tEthernet Channel Bonding Driver: v1\n", 37,
	    &b, &errstr), EINVAL);

	T_OK(bonding_parse(garbage, sizeof garbage - 1, &b, NULL));
	T_EQ_INT(b.mode, BONDING_MODE_UNKNOWN);
	T_EQ_INT(b.nslaves, 2);
	T_EQ_INT(b.slaves[0].speed_mbps, -1);
	T_EQ_INT(b.slaves[0].link_failures, -1);
	T_EQ_INT(b.slaves[0].aggregator_id, -1);
	T_EQ_STR(b.slaves[1].name, "");
	T_EQ_INT(bonding_capacity_mbps(&b), -1);
	/* No u32 speed: unknown, and two such add to no overflow. */
	T_OK(bonding_parse(huge, sizeof huge - 1, &b, NULL));
	T_EQ_INT(b.nslaves, 2);
	T_EQ_INT(b.slaves[0].speed_mbps, -1);
	T_EQ_INT(b.slaves[1].speed_mbps, -1);
	T_EQ_INT(bonding_capacity_mbps(&b), -1);

	/* Every prefix of the real file parses or fails cleanly. */
	for (n = 0; n < sizeof centos_bond0 - 1; n++) {
		memcpy(buf, centos_bond0, n);
		if (bonding_parse(buf, n, &b, NULL) == 0 && b.nslaves > 2)
			break;
	}
	T_EQ_INT(n, sizeof centos_bond0 - 1);
	/* Cut inside the second slave's Speed: line: no half number. */
	n = (size_t)(strstr(centos_bond0, "Speed: 1000") - centos_bond0) + 8;
	T_OK(bonding_parse(centos_bond0, n, &b, NULL));
	T_EQ_INT(b.nslaves, 2);
	T_EQ_STR(b.slaves[1].mii_status, "up");
	T_EQ_INT(b.slaves[1].speed_mbps, -1);
	/* The first line alone, cut: not a bonding file yet. */
	T_ERRNO(bonding_parse(centos_bond0, 20, &b, NULL), EINVAL);
}

/* Past BONDING_SLAVES_MAX slave blocks are counted, not kept. */
static void
test_many(void)
{
	struct bonding	b;
	char		text[8192];
	size_t		n;
	int		i;

	n = (size_t)snprintf(text, sizeof text,
	    "Ethernet Channel Bonding Driver: v3.7.1\n"
	    "Bonding Mode: load balancing (round-robin)\n");
	for (i = 0; i < 20; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
		    "\nSlave Interface: eth%d\nMII Status: up\n"
		    "Speed: 1000 Mbps\nDuplex: full\n", i);
	T_OK(bonding_parse(text, n, &b, NULL));
	T_EQ_INT(b.nslaves, BONDING_SLAVES_MAX);
	T_EQ_INT(b.dropped, 4);
	T_EQ_STR(b.slaves[15].name, "eth15");
	T_EQ_INT(bonding_capacity_mbps(&b), 16000);
}

/* The fixture boxes: bonds only on the ReadyNAS. */
static void
test_boxes(void)
{
	struct probe_buf	pb;
	struct bonding		b;
	const char		*errstr;
	static const char	*nobond[] = {
		"dsm6-3.10-armhf", "dsm7-4.4-x86_64", "qts5-5.10-x86_64",
		"debian12-6.1-btrfs", "empty"
	};
	size_t			i;

	probe_buf_init(&pb);
	for (i = 0; i < NP_NITEMS(nobond); i++) {
		if (!t_have_box(nobond[i])) {
			t_skip(nobond[i]);
			continue;
		}
		T_ERRNO(bonding_read(t_root(nobond[i]), &pb, "bond0", &b,
		    &errstr), ENOENT);
	}
	T_ERRNO(bonding_read(t_root("empty"), &pb, "../version", &b, NULL),
	    ENOENT);
	if (!t_have_box("readynas6-4.4-armhf"))
		t_skip("readynas6-4.4-armhf is not in the tree");
	else {
		T_OK(bonding_read(t_root("readynas6-4.4-armhf"), &pb, "bond0",
		    &b, &errstr));
		T_EQ_STR(b.name, "bond0");
		T_EQ_INT(b.mode, BONDING_MODE_8023AD);
		T_EQ_INT(b.nslaves, 2);
		T_EQ_STR(b.hash_policy, "layer2");
		T_EQ_STR(b.lacp_rate, "slow");
		T_EQ_INT(b.active_aggregator, 1);
		T_EQ_INT(b.aggregator_ports, 2);
		T_EQ_STR(b.slaves[0].name, "eth0");
		T_EQ_INT(b.slaves[0].speed_mbps, -1);
		T_EQ_STR(b.slaves[1].name, "eth1");
		T_EQ_INT(b.slaves[1].speed_mbps, 1000);
		T_EQ_INT(b.slaves[1].link_failures, 1);
	}
	probe_buf_free(&pb);
}

int
main(void)
{
	test_centos();
	test_quirks();
	test_bad();
	test_many();
	test_boxes();
	return (t_done());
}
