/*
 * t_netdev.c: interfaces from /sys/class/net and /proc/net/dev.
 */
#include "config.h"

#include "test.h"
#include "netdev.h"

/* A /proc/net/dev from a 4.4 kernel, one line damaged, one name too long. */
static const char proc_net_dev[] =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
    "    lo:  158360    1832    0    0    0     0          0         0   158360    1832    0    0    0     0       0          0\n"
    "  eth0: 4112931247 3005411    0   12    0     0          0      8811 96012456  812301    1    0    0     0       0          0\n"
    "  eth1: 12 34\n"
    "bond0:18446744073709551615 1 2 3 0 0 0 0 4 5 6 7 0 0 0 0\n"
    "  eth2: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 99999999999999999999\n"
    "  averyveryveryverylonginterfacename0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";

/* Parse the inline capture and check every field that is kept. */
static void
t_parse(void)
{
	struct netdev		 nd;
	const struct netdev_if	*ifp;
	const char		*errstr;

	netdev_init(&nd);
	T_OK(netdev_parse(proc_net_dev, sizeof proc_net_dev - 1, &nd, &errstr));
	T_EQ_INT(nd.nifs, 3);
	T_EQ_INT(nd.skipped, 3);
	T_EQ_STR(nd.ifs[0].name, "lo");
	T_EQ_U64(nd.ifs[0].rx_bytes, 158360);
	T_TRUE((ifp = netdev_find(&nd, "eth0")) != NULL);
	if (ifp != NULL) {
		T_EQ_U64(ifp->rx_bytes, 4112931247ULL);
		T_EQ_U64(ifp->rx_packets, 3005411);
		T_EQ_U64(ifp->rx_drop, 12);
		T_EQ_U64(ifp->tx_bytes, 96012456);
		T_EQ_U64(ifp->tx_packets, 812301);
		T_EQ_U64(ifp->tx_errs, 1);
	}
	T_TRUE((ifp = netdev_find(&nd, "bond0")) != NULL);
	if (ifp != NULL) {
		T_EQ_U64(ifp->rx_bytes, UINT64_MAX);
		T_EQ_U64(ifp->tx_bytes, 4);
		T_EQ_U64(ifp->tx_drop, 7);
	}
	T_TRUE(netdev_find(&nd, "eth1") == NULL);
	T_TRUE(netdev_find(&nd, "eth2") == NULL);
	T_OK(netdev_parse("", 0, &nd, NULL));
	T_EQ_INT(nd.nifs, 0);
	netdev_clear(&nd);
}

/* The live root: lo is always there with an MTU of 65536. */
static void
t_live(void)
{
	struct probe_root	 root;
	struct probe_buf	 b;
	struct netdev		 nd;
	const struct netdev_if	*lo;

	probe_buf_init(&b);
	netdev_init(&nd);
	if (probe_root_open(&root, "/") == -1) {
		t_skip("cannot open /");
		return;
	}
	T_OK(netdev_read(&root, &b, &nd, NULL));
	T_TRUE((lo = netdev_find(&nd, "lo")) != NULL);
	if (lo != NULL) {
		T_TRUE(lo->from_sysfs);
		T_TRUE(lo->has_link);
		T_EQ_U64(lo->link.mtu, 65536);
		T_EQ_STR(lo->link.master, "");
		T_EQ_INT(lo->link.is_bond, 0);
	}
	netdev_clear(&nd);
	probe_buf_free(&b);
	probe_root_close(&root);
}

/* The empty box has neither sysfs nor /proc/net/dev. */
static void
t_empty(void)
{
	struct probe_buf	b;
	struct netdev		nd;
	struct netdev_link	l;

	probe_buf_init(&b);
	netdev_init(&nd);
	T_ERRNO(netdev_read(t_root("empty"), &b, &nd, NULL), ENOENT);
	T_ERRNO(netdev_link_read(t_root("empty"), "eth0", &l), ENOENT);
	T_ERRNO(netdev_link_read(t_root("empty"), "../x", &l), EINVAL);
	T_EQ_INT(l.speed_mbps, -1);
	netdev_clear(&nd);
	probe_buf_free(&b);
}

int
main(void)
{
	t_parse();
	t_live();
	t_empty();
	return (t_done());
}
