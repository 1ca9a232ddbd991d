/*
 * enc_host.c: the box's identity, CPU and NICs as JSON.
 *
 * Shapes, every string "" in the probe structs being null here:
 *
 *   identity: {"vendor": "Synology"|"QNAP"|"NETGEAR"|"generic", "model",
 *     "os", "firmware", "build", "pretty_name", "kernel", "kernel_version",
 *     "arch", "hostname", "platform"}
 *   cpu: {"model", "soc", "vendor", "core", "logical_cpus", "mhz",
 *     "flags": [..], "aes": bool}
 *   nics: [{"name", "address", "speed_mbps", "duplex", "mtu", "operstate",
 *     "driver", "virtual", "master", "bond": null | {"mode", "mode_text",
 *     "hash_policy", "lacp_rate", "mii_status", "active_member",
 *     "members": [{"name", "mii_status", "speed_mbps", "duplex",
 *     "link_failures"}], "capacity_mbps"}}]
 *
 * speed_mbps is null when the kernel does not know it (-1, or 4294967295
 * which 4.4 kernels print for a down link); capacity_mbps is the sum of
 * the up members' speeds for 802.3ad and balance-*, the active member's
 * for active-backup.  A part that was not read (no kernel, OS, model or
 * hostname; no CPU; no interface, not even lo) is null.  On allocation
 * failure the functions return NULL.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "identity.h"
#include "cpuinfo.h"
#include "nic.h"
#include "enc_host.h"
#include "encode.h"

/* A link speed in Mb/s, or null when unknown. */
static json_t *
enc_speed(int64_t mbps)
{
	if (mbps < 0 || mbps == UINT32_MAX || mbps == UINT16_MAX)
		return (json_null());
	return (json_integer(mbps));
}

/* A count that is -1 when not printed. */
static json_t *
enc_count(int64_t n)
{
	if (n < 0)
		return (json_null());
	return (json_integer(n));
}

/* Set key in o to v, stealing v; -1 if either is NULL or on failure. */
static int
enc_set(json_t *o, const char *key, json_t *v)
{
	if (v == NULL)
		return (-1);
	return (json_object_set_new(o, key, v));
}

/* The identity as a JSON object, or null. */
json_t *
enc_identity(const struct identity *id)
{
	json_t	*o;
	int	 rc = 0;

	if (id == NULL || (id->kernel[0] == '\0' && id->os[0] == '\0' &&
	    id->model[0] == '\0' && id->hostname[0] == '\0'))
		return (json_null());	/* nothing was readable */
	if ((o = json_object()) == NULL)
		return (NULL);
	rc |= enc_set(o, "vendor", json_string(identity_vendor_name(id->vendor)));
	rc |= enc_set(o, "model", enc_text_or_null(id->model));
	rc |= enc_set(o, "os", enc_text_or_null(id->os));
	rc |= enc_set(o, "firmware", enc_text_or_null(id->firmware));
	rc |= enc_set(o, "build", enc_text_or_null(id->build));
	rc |= enc_set(o, "pretty_name", enc_text_or_null(id->pretty_name));
	rc |= enc_set(o, "kernel", enc_text_or_null(id->kernel));
	rc |= enc_set(o, "kernel_version", enc_text_or_null(id->kernel_version));
	rc |= enc_set(o, "arch", enc_text_or_null(id->arch));
	rc |= enc_set(o, "hostname", enc_text_or_null(id->hostname));
	rc |= enc_set(o, "platform", enc_text_or_null(id->platform));
	if (rc != 0) {
		json_decref(o);
		return (NULL);
	}
	return (o);
}

/* The flags or Features list as an array of words. */
static json_t *
enc_flags(const char *flags)
{
	json_t		*a;
	const char	*p, *sp;

	if ((a = json_array()) == NULL)
		return (NULL);
	for (p = flags; *p != '\0'; p = sp) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		if ((sp = strchr(p, ' ')) == NULL)
			sp = p + strlen(p);
		if (json_array_append_new(a,
		    json_stringn(p, (size_t)(sp - p))) == -1) {
			json_decref(a);
			return (NULL);
		}
	}
	return (a);
}

/* The CPU as a JSON object, or null. */
json_t *
enc_cpuinfo(const struct cpuinfo *ci)
{
	json_t	*o;
	int	 rc = 0;

	if (ci == NULL || ci->logical_cpus == 0)
		return (json_null());
	if ((o = json_object()) == NULL)
		return (NULL);
	rc |= enc_set(o, "model", enc_text_or_null(ci->model));
	rc |= enc_set(o, "soc", enc_text_or_null(ci->soc));
	rc |= enc_set(o, "vendor", enc_text_or_null(ci->vendor));
	rc |= enc_set(o, "core", enc_text_or_null(ci->core));
	rc |= enc_set(o, "logical_cpus", json_integer(ci->logical_cpus));
	rc |= enc_set(o, "mhz", ci->mhz > 0 ? json_real(ci->mhz) : json_null());
	rc |= enc_set(o, "flags", enc_flags(ci->flags));
	rc |= enc_set(o, "aes", json_boolean(cpuinfo_has_aes(ci)));
	if (rc != 0) {
		json_decref(o);
		return (NULL);
	}
	return (o);
}

/* A duplex as the API names it. */
static json_t *
enc_duplex(enum netdev_duplex d)
{
	switch (d) {
	case NETDEV_DUPLEX_FULL:
		return (json_string("full"));
	case NETDEV_DUPLEX_HALF:
		return (json_string("half"));
	default:
		return (json_null());
	}
}

/* One bond member. */
static json_t *
enc_member(const struct bonding_slave *s)
{
	json_t	*o;
	int	 rc = 0;

	if ((o = json_object()) == NULL)
		return (NULL);
	rc |= enc_set(o, "name", enc_text_or_null(s->name));
	rc |= enc_set(o, "mii_status", enc_text_or_null(s->mii_status));
	rc |= enc_set(o, "speed_mbps", enc_speed(s->speed_mbps));
	rc |= enc_set(o, "duplex", enc_text_or_null(s->duplex));
	rc |= enc_set(o, "link_failures", enc_count(s->link_failures));
	if (rc != 0) {
		json_decref(o);
		return (NULL);
	}
	return (o);
}

/* A bond's mode, members and capacity. */
static json_t *
enc_bond(const struct bonding *b)
{
	json_t		*o, *members;
	const char	*mode;
	size_t		 i;
	int		 rc = 0;

	if ((o = json_object()) == NULL)
		return (NULL);
	if ((mode = bonding_mode_name(b->mode)) != NULL)
		rc |= enc_set(o, "mode", json_string(mode));
	else
		rc |= enc_set(o, "mode", json_null());
	rc |= enc_set(o, "mode_text", enc_text_or_null(b->mode_text));
	rc |= enc_set(o, "hash_policy", enc_text_or_null(b->hash_policy));
	rc |= enc_set(o, "lacp_rate", enc_text_or_null(b->lacp_rate));
	rc |= enc_set(o, "mii_status", enc_text_or_null(b->mii_status));
	rc |= enc_set(o, "active_member", enc_text_or_null(b->active_slave));
	if ((members = json_array()) == NULL)
		rc = -1;
	for (i = 0; members != NULL && i < b->nslaves; i++)
		if (json_array_append_new(members,
		    enc_member(&b->slaves[i])) == -1)
			rc = -1;
	rc |= enc_set(o, "members", members);
	rc |= enc_set(o, "capacity_mbps", enc_speed(bonding_capacity_mbps(b)));
	if (rc != 0) {
		json_decref(o);
		return (NULL);
	}
	return (o);
}

/* One interface. */
static json_t *
enc_nic(const struct nic_list *l, const struct nic *n)
{
	const struct bonding	*b;
	json_t			*o;
	int			 rc = 0;

	if ((o = json_object()) == NULL)
		return (NULL);
	rc |= enc_set(o, "name", enc_text_or_null(n->link.name));
	rc |= enc_set(o, "address", enc_text_or_null(n->link.address));
	rc |= enc_set(o, "speed_mbps", enc_speed(n->link.speed_mbps));
	rc |= enc_set(o, "duplex", enc_duplex(n->link.duplex));
	rc |= enc_set(o, "mtu", n->link.mtu > 0 ?
	    json_integer((json_int_t)n->link.mtu) : json_null());
	rc |= enc_set(o, "operstate", enc_text_or_null(n->link.operstate));
	rc |= enc_set(o, "driver", enc_text_or_null(n->driver));
	rc |= enc_set(o, "virtual", json_boolean(n->is_virtual));
	rc |= enc_set(o, "master", enc_text_or_null(n->link.master));
	if ((b = nic_bond(l, n)) != NULL)
		rc |= enc_set(o, "bond", enc_bond(b));
	else
		rc |= enc_set(o, "bond", json_null());
	if (rc != 0) {
		json_decref(o);
		return (NULL);
	}
	return (o);
}

/* The NICs as a JSON array, or null. */
json_t *
enc_nics(const struct nic_list *l)
{
	json_t	*a;
	size_t	 i;

	if (l == NULL || l->nnics == 0)
		return (json_null());	/* no sys/class/net: even lo is missing */
	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < l->nnics; i++)
		if (json_array_append_new(a, enc_nic(l, &l->nics[i])) == -1) {
			json_decref(a);
			return (NULL);
		}
	return (a);
}
