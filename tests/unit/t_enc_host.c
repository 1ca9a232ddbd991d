/*
 * t_enc_host.c: identity, CPU and NIC JSON from the fixture boxes and the
 * real 802.3ad capture.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include <jansson.h>

#include "test.h"
#include "identity.h"
#include "cpuinfo.h"
#include "nic.h"
#include "enc_host.h"

#include "bond_capture.h"

/* The string at key of o, or NULL when absent or not a string. */
static const char *
jstr(const json_t *o, const char *key)
{
	return (json_string_value(json_object_get(o, key)));
}

/* The integer at key of o, or -12345 when absent or not an integer. */
static long long
jint(const json_t *o, const char *key)
{
	json_t	*v = json_object_get(o, key);

	return (json_is_integer(v) ? (long long)json_integer_value(v) : -12345);
}

/* 1 if key of o is present and JSON null. */
static int
jnull(const json_t *o, const char *key)
{
	return (json_is_null(json_object_get(o, key)));
}

/* Identity of each box. */
static void
test_identity(void)
{
	struct probe_buf	 pb;
	struct identity		 id;
	json_t			*j;

	probe_buf_init(&pb);
	T_OK(identity_read(t_root("dsm7-4.4-x86_64"), &pb, &id));
	T_TRUE((j = enc_identity(&id)) != NULL && json_is_object(j));
	T_EQ_STR(jstr(j, "vendor"), "Synology");
	T_EQ_STR(jstr(j, "model"), "DS1821+");
	T_EQ_STR(jstr(j, "os"), "DSM");
	T_EQ_STR(jstr(j, "firmware"), "7.2.1-69057 Update 5");
	T_EQ_STR(jstr(j, "build"), "69057");
	T_EQ_STR(jstr(j, "kernel"), "4.4.302+");
	T_EQ_STR(jstr(j, "kernel_version"),
	    "#69057 SMP Fri Jan 12 17:02:28 CST 2024");
	T_EQ_STR(jstr(j, "arch"), "x86_64");
	T_EQ_STR(jstr(j, "hostname"), "nas");
	T_EQ_STR(jstr(j, "platform"), "v1000");
	T_TRUE(jnull(j, "pretty_name"));
	json_decref(j);

	T_OK(identity_read(t_root("qts5-5.10-x86_64"), &pb, &id));
	j = enc_identity(&id);
	T_EQ_STR(jstr(j, "vendor"), "QNAP");
	T_EQ_STR(jstr(j, "model"), "TVS-872X");
	T_EQ_STR(jstr(j, "os"), "QTS");
	T_EQ_STR(jstr(j, "firmware"), "5.2.3 build 20250108");
	T_EQ_STR(jstr(j, "kernel"), "5.10.60-qnap");
	T_TRUE(jnull(j, "platform"));
	json_decref(j);

	T_OK(identity_read(t_root("dsm6-3.10-armhf"), &pb, &id));
	j = enc_identity(&id);
	T_EQ_STR(jstr(j, "model"), "DS416j");
	T_EQ_STR(jstr(j, "firmware"), "6.2.4-25556 Update 7");
	T_EQ_STR(jstr(j, "arch"), "armv7l");
	T_EQ_STR(jstr(j, "platform"), "armada38x");
	json_decref(j);

	T_ERRNO(identity_read(t_root("empty"), &pb, &id), ENOENT);
	T_TRUE((j = enc_identity(&id)) != NULL && json_is_null(j));
	json_decref(j);
	T_TRUE((j = enc_identity(NULL)) != NULL && json_is_null(j));
	json_decref(j);
	probe_buf_free(&pb);
}

/* CPU of the ARM and x86 boxes. */
static void
test_cpu(void)
{
	struct probe_buf	 pb;
	struct cpuinfo		 ci;
	json_t			*j, *flags;

	probe_buf_init(&pb);
	T_OK(cpuinfo_read(t_root("dsm6-3.10-armhf"), &pb, &ci, NULL));
	j = enc_cpuinfo(&ci);
	T_EQ_STR(jstr(j, "model"), "ARMv7 Processor rev 1 (v7l)");
	T_EQ_STR(jstr(j, "soc"), "Marvell Armada 380/381/382/383/384/385/388 "
	    "(Device Tree)");
	T_EQ_STR(jstr(j, "core"), "Cortex-A9");
	T_EQ_INT(jint(j, "logical_cpus"), 2);
	T_TRUE(jnull(j, "mhz"));
	T_TRUE(json_is_false(json_object_get(j, "aes")));
	flags = json_object_get(j, "flags");
	T_EQ_INT(json_array_size(flags), 9);
	T_EQ_STR(json_string_value(json_array_get(flags, 0)), "swp");
	T_EQ_STR(json_string_value(json_array_get(flags, 8)), "tls");
	json_decref(j);

	T_OK(cpuinfo_read(t_root("dsm7-4.4-x86_64"), &pb, &ci, NULL));
	j = enc_cpuinfo(&ci);
	T_EQ_STR(jstr(j, "model"), "AMD Ryzen Embedded V1500B");
	T_TRUE(jnull(j, "soc"));
	T_EQ_INT(jint(j, "logical_cpus"), 8);
	T_NEAR(json_real_value(json_object_get(j, "mhz")), 2200.0, 0.0005);
	T_TRUE(json_is_true(json_object_get(j, "aes")));
	T_EQ_INT(json_array_size(json_object_get(j, "flags")), 108);
	T_EQ_STR(json_string_value(json_array_get(json_object_get(j, "flags"),
	    0)), "fpu");
	json_decref(j);

	T_ERRNO(cpuinfo_read(t_root("empty"), &pb, &ci, NULL), ENOENT);
	T_TRUE((j = enc_cpuinfo(&ci)) != NULL && json_is_null(j));
	json_decref(j);
	probe_buf_free(&pb);
}

/* NICs of DSM 7: 10GbE with jumbo frames, a down port, loopback. */
static void
test_nics(void)
{
	struct probe_buf	 pb;
	struct nic_list		*l;
	json_t			*j, *e;

	l = malloc(sizeof *l);
	probe_buf_init(&pb);
	T_OK(nic_list_read(t_root("dsm7-4.4-x86_64"), &pb, l));
	T_TRUE((j = enc_nics(l)) != NULL && json_is_array(j));
	T_EQ_INT(json_array_size(j), 4);
	e = json_array_get(j, 1);
	T_EQ_STR(jstr(e, "name"), "eth1");
	T_TRUE(jnull(e, "speed_mbps"));		/* 4294967295 in sysfs */
	T_TRUE(jnull(e, "duplex"));
	T_EQ_STR(jstr(e, "operstate"), "down");
	T_EQ_INT(jint(e, "mtu"), 1500);
	e = json_array_get(j, 2);
	T_EQ_STR(jstr(e, "name"), "eth2");
	T_EQ_STR(jstr(e, "address"), "00:00:5e:00:53:23");
	T_EQ_INT(jint(e, "speed_mbps"), 10000);
	T_EQ_STR(jstr(e, "duplex"), "full");
	T_EQ_INT(jint(e, "mtu"), 9000);
	T_EQ_STR(jstr(e, "operstate"), "up");
	T_TRUE(json_is_false(json_object_get(e, "virtual")));
	T_TRUE(jnull(e, "master"));
	T_TRUE(jnull(e, "bond"));
	T_TRUE(jnull(e, "driver"));
	e = json_array_get(j, 3);
	T_EQ_STR(jstr(e, "name"), "lo");
	T_TRUE(json_is_true(json_object_get(e, "virtual")));
	T_TRUE(jnull(e, "speed_mbps"));
	T_EQ_INT(jint(e, "mtu"), 65536);
	json_decref(j);

	T_OK(nic_list_read(t_root("qts5-5.10-x86_64"), &pb, l));
	j = enc_nics(l);
	T_TRUE(jnull(json_array_get(j, 1), "speed_mbps"));	/* -1 */
	T_EQ_INT(jint(json_array_get(j, 2), "speed_mbps"), 10000);
	json_decref(j);

	if (!t_have_box("readynas6-4.4-armhf"))
		t_skip("readynas6-4.4-armhf is not in the tree");
	else {
		T_OK(nic_list_read(t_root("readynas6-4.4-armhf"), &pb, l));
		j = enc_nics(l);
		T_TRUE(json_is_array(j));
		json_decref(j);
	}

	T_ERRNO(nic_list_read(t_root("empty"), &pb, l), ENOENT);
	T_TRUE((j = enc_nics(l)) != NULL && json_is_null(j));
	json_decref(j);
	probe_buf_free(&pb);
	free(l);
}

/* A bond, built from the real capture: members, mode and capacity. */
static void
test_bond(void)
{
	struct nic_list		*l;
	json_t			*j, *e, *b, *m;

	l = calloc(1, sizeof *l);
	T_OK(bonding_parse(centos_bond0, sizeof centos_bond0 - 1,
	    &l->bonds[0], NULL));
	l->nbonds = 1;
	l->nnics = 3;
	snprintf(l->nics[0].link.name, sizeof l->nics[0].link.name, "bond0");
	l->nics[0].link.speed_mbps = 1000;
	l->nics[0].link.duplex = NETDEV_DUPLEX_FULL;
	l->nics[0].link.mtu = 1500;
	l->nics[0].link.is_bond = 1;
	l->nics[0].is_virtual = 1;
	l->nics[0].bond = 0;
	snprintf(l->nics[1].link.name, sizeof l->nics[1].link.name,
	    "enp1s0f0");
	snprintf(l->nics[1].link.master, sizeof l->nics[1].link.master,
	    "bond0");
	l->nics[1].link.speed_mbps = -1;
	l->nics[1].bond = -1;
	snprintf(l->nics[1].driver, sizeof l->nics[1].driver, "igb");
	snprintf(l->nics[2].link.name, sizeof l->nics[2].link.name,
	    "enp1s0f1");
	l->nics[2].link.speed_mbps = 1000;
	l->nics[2].bond = 7;		/* out of range: not a bond */

	j = enc_nics(l);
	T_EQ_INT(json_array_size(j), 3);
	e = json_array_get(j, 0);
	T_EQ_STR(jstr(e, "name"), "bond0");
	T_TRUE(json_is_true(json_object_get(e, "virtual")));
	T_TRUE(json_is_object(b = json_object_get(e, "bond")));
	T_EQ_STR(jstr(b, "mode"), "802.3ad");
	T_EQ_STR(jstr(b, "mode_text"), "IEEE 802.3ad Dynamic link aggregation");
	T_EQ_STR(jstr(b, "hash_policy"), "layer3+4");
	T_EQ_STR(jstr(b, "lacp_rate"), "fast");
	T_TRUE(jnull(b, "active_member"));
	T_EQ_INT(jint(b, "capacity_mbps"), 1000);
	T_EQ_INT(json_array_size(json_object_get(b, "members")), 2);
	m = json_array_get(json_object_get(b, "members"), 0);
	T_EQ_STR(jstr(m, "name"), "enp1s0f0");
	T_EQ_STR(jstr(m, "mii_status"), "down");
	T_TRUE(jnull(m, "speed_mbps"));
	T_TRUE(jnull(m, "duplex"));
	T_EQ_INT(jint(m, "link_failures"), 2);
	m = json_array_get(json_object_get(b, "members"), 1);
	T_EQ_STR(jstr(m, "name"), "enp1s0f1");
	T_EQ_INT(jint(m, "speed_mbps"), 1000);
	T_EQ_STR(jstr(m, "duplex"), "full");
	e = json_array_get(j, 1);
	T_EQ_STR(jstr(e, "master"), "bond0");
	T_EQ_STR(jstr(e, "driver"), "igb");
	T_TRUE(jnull(e, "bond"));
	T_TRUE(jnull(json_array_get(j, 2), "bond"));
	json_decref(j);

	/* active-backup: the active member's speed. */
	l->bonds[0].mode = BONDING_MODE_ACTIVEBACKUP;
	snprintf(l->bonds[0].active_slave, sizeof l->bonds[0].active_slave,
	    "enp1s0f1");
	l->bonds[0].slaves[1].speed_mbps = 4294967295LL;
	j = enc_nics(l);
	b = json_object_get(json_array_get(j, 0), "bond");
	T_EQ_STR(jstr(b, "mode"), "active-backup");
	T_EQ_STR(jstr(b, "active_member"), "enp1s0f1");
	T_TRUE(jnull(b, "capacity_mbps"));
	T_TRUE(jnull(json_array_get(json_object_get(b, "members"), 1),
	    "speed_mbps"));
	json_decref(j);
	T_TRUE((j = enc_nics(NULL)) != NULL && json_is_null(j));
	json_decref(j);
	free(l);
}

/* A hostname that is not UTF-8 is escaped, not a lost identity. */
static void
test_not_utf8(void)
{
	struct identity	id;
	json_t		*j;

	memset(&id, 0, sizeof id);
	snprintf(id.kernel, sizeof id.kernel, "6.1.0");
	snprintf(id.hostname, sizeof id.hostname, "nas\xff" "1");
	T_TRUE((j = enc_identity(&id)) != NULL);
	T_EQ_STR(json_string_value(json_object_get(j, "hostname")),
	    "nas\\xff1");
	T_TRUE(json_is_null(json_object_get(j, "model")));
	json_decref(j);
}

int
main(void)
{
	test_not_utf8();
	test_identity();
	test_cpu();
	test_nics();
	test_bond();
	return (t_done());
}
