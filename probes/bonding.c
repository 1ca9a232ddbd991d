/*
 * bonding.c: /proc/net/bonding/<bond> and sysfs bonding/ attributes.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bonding.h"

/* The mode lines the driver prints (bond_mode_name()), by mode number. */
static const struct {
	const char	*text;		/* prefix of "Bonding Mode:" */
	const char	*name;		/* sysfs bonding/mode word */
} bonding_modes[] = {
	{ "load balancing (round-robin)", "balance-rr" },
	{ "fault-tolerance (active-backup)", "active-backup" },
	{ "load balancing (xor)", "balance-xor" },
	{ "fault-tolerance (broadcast)", "broadcast" },
	{ "IEEE 802.3ad Dynamic link aggregation", "802.3ad" },
	{ "transmit load balancing", "balance-tlb" },
	{ "adaptive load balancing", "balance-alb" },
};

/* Where in the file a line is. */
enum bonding_section {
	BONDING_TOP,
	BONDING_ACTIVE_AGG,	/* under "Active Aggregator Info:" */
	BONDING_OTHER_SUB,	/* under another key ending in ':' */
	BONDING_SLAVE
};

/* Copy the value v into out, or "" when it does not fit. */
static void
bonding_copy(char *out, size_t outsz, const char *v)
{
	if (probe_strlcpy(out, v, outsz) == -1)
		out[0] = '\0';
}

/* Parse a decimal, possibly negative, value; -1 if it is not one. */
static int64_t
bonding_number(const char *v)
{
	const char	*s = v;
	uint64_t	 u;

	if (*s == '-')
		return (-1);
	if (probe_scan_u64(&s, &u) == -1 || u > INT64_MAX)
		return (-1);
	return ((int64_t)u);
}

/* Parse a "Speed:" value, "1000 Mbps" or "Unknown"; -1 when unknown. */
static int64_t
bonding_speed(const char *v)
{
	int64_t	speed;

	speed = bonding_number(v);
	/*
	 * SPEED_UNKNOWN printed as u16 (old drivers) or u32 (4.x); more than
	 * a u32 is no speed the kernel has, and the sum of the slaves'
	 * (bonding_capacity_mbps) must not overflow.
	 */
	if (speed == 65535 || speed >= 4294967295LL)
		return (-1);
	return (speed);
}

/* The mode a "Bonding Mode:" line names. */
static enum bonding_mode
bonding_mode_parse(const char *v)
{
	size_t	i;

	for (i = 0; i < NP_NITEMS(bonding_modes); i++)
		if (strncmp(v, bonding_modes[i].text,
		    strlen(bonding_modes[i].text)) == 0)
			return ((enum bonding_mode)i);
	return (BONDING_MODE_UNKNOWN);
}

/* The mode a sysfs bonding/mode value ("802.3ad 4") names. */
static enum bonding_mode
bonding_mode_sysfs(const char *v)
{
	size_t	i;

	for (i = 0; i < NP_NITEMS(bonding_modes); i++) {
		size_t	n = strlen(bonding_modes[i].name);

		if (strncmp(v, bonding_modes[i].name, n) == 0 &&
		    (v[n] == '\0' || v[n] == ' '))
			return ((enum bonding_mode)i);
	}
	return (BONDING_MODE_UNKNOWN);
}

/* The driver's short name of a mode, or NULL. */
const char *
bonding_mode_name(enum bonding_mode mode)
{
	if (mode < 0 || (size_t)mode >= NP_NITEMS(bonding_modes))
		return (NULL);
	return (bonding_modes[mode].name);
}

/* 1 if the mode spreads traffic over every up slave. */
int
bonding_mode_aggregates(enum bonding_mode mode)
{
	switch (mode) {
	case BONDING_MODE_RR:
	case BONDING_MODE_XOR:
	case BONDING_MODE_8023AD:
	case BONDING_MODE_TLB:
	case BONDING_MODE_ALB:
		return (1);
	default:
		return (0);
	}
}

/* Set one top-level key of the bond. */
static void
bonding_top(struct bonding *b, const char *k, const char *v)
{
	const char	*p;

	if (strcmp(k, "Bonding Mode") == 0) {
		bonding_copy(b->mode_text, sizeof b->mode_text, v);
		b->mode = bonding_mode_parse(v);
	} else if (strcmp(k, "Transmit Hash Policy") == 0) {
		/* "layer3+4 (1)": the name without the number. */
		p = v;
		if (probe_scan_word(&p, b->hash_policy,
		    sizeof b->hash_policy) == -1)
			b->hash_policy[0] = '\0';
	} else if (strcmp(k, "MII Status") == 0)
		bonding_copy(b->mii_status, sizeof b->mii_status, v);
	else if (strcmp(k, "LACP rate") == 0)
		bonding_copy(b->lacp_rate, sizeof b->lacp_rate, v);
	else if (strcmp(k, "Currently Active Slave") == 0) {
		if (strcmp(v, "None") != 0)
			bonding_copy(b->active_slave, sizeof b->active_slave, v);
	}
}

/* Set one key of a slave block. */
static void
bonding_slave_key(struct bonding_slave *s, const char *k, const char *v)
{
	size_t	i;

	if (strcmp(k, "MII Status") == 0)
		bonding_copy(s->mii_status, sizeof s->mii_status, v);
	else if (strcmp(k, "Speed") == 0)
		s->speed_mbps = bonding_speed(v);
	else if (strcmp(k, "Duplex") == 0) {
		if (strcasecmp(v, "full") == 0 || strcasecmp(v, "half") == 0) {
			for (i = 0; i < 4; i++)
				s->duplex[i] = (char)(v[i] | 0x20);
			s->duplex[4] = '\0';
		}
	} else if (strcmp(k, "Link Failure Count") == 0)
		s->link_failures = bonding_number(v);
	else if (strcmp(k, "Permanent HW addr") == 0)
		bonding_copy(s->perm_addr, sizeof s->perm_addr, v);
	else if (strcmp(k, "Aggregator ID") == 0)
		s->aggregator_id = bonding_number(v);
}

/* Start an empty slave record. */
static void
bonding_slave_init(struct bonding_slave *s, const char *name)
{
	memset(s, 0, sizeof *s);
	bonding_copy(s->name, sizeof s->name, name);
	s->speed_mbps = -1;
	s->link_failures = -1;
	s->aggregator_id = -1;
}

/* Parse the text of a /proc/net/bonding file into b. */
int
bonding_parse(const char *s, size_t len, struct bonding *b,
    const char **errstr)
{
	enum bonding_section	 sec = BONDING_TOP;
	struct bonding_slave	*slave = NULL, dropped;
	const char		*end = s + len, *eol, *colon;
	char			 line[512], *k, *v, *e;
	int			 indented, seen = 0;

	memset(b, 0, sizeof *b);
	b->mode = BONDING_MODE_UNKNOWN;
	b->active_aggregator = -1;
	b->aggregator_ports = -1;
	if (errstr != NULL)
		*errstr = NULL;

	for (; s < end; s = eol + 1) {
		size_t	n;

		if ((eol = memchr(s, '\n', (size_t)(end - s))) == NULL)
			break;		/* cut short: the kernel ends every line */
		n = (size_t)(eol - s);
		if (n >= sizeof line)
			continue;	/* no line of the driver is this long */
		memcpy(line, s, n);
		line[n] = '\0';
		while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' ||
		    line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		indented = line[0] == ' ' || line[0] == '\t';
		k = line + strspn(line, " \t");

		if (!seen) {
			/* "Ethernet Channel Bonding Driver: v3.7.1 (…)" */
			if (indented || strncmp(k, "Ethernet Channel Bonding "
			    "Driver:", 32) != 0)
				break;
			v = k + 32;
			bonding_copy(b->version, sizeof b->version,
			    v + strspn(v, " \t"));
			seen = 1;
			continue;
		}

		if ((colon = strchr(k, ':')) == NULL)
			continue;	/* "802.3ad info" and the like */
		e = (char *)colon;
		*e = '\0';
		v = e + 1 + strspn(e + 1, " \t");
		while (e > k && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';

		if (indented) {
			if (sec == BONDING_ACTIVE_AGG) {
				if (strcmp(k, "Aggregator ID") == 0)
					b->active_aggregator =
					    bonding_number(v);
				else if (strcmp(k, "Number of ports") == 0)
					b->aggregator_ports =
					    bonding_number(v);
				else if (strcmp(k, "Partner Mac Address") == 0)
					bonding_copy(b->partner_mac,
					    sizeof b->partner_mac, v);
			}
			continue;	/* lacp pdu details and the like */
		}

		if (strcmp(k, "Slave Interface") == 0) {
			if (b->nslaves < BONDING_SLAVES_MAX)
				slave = &b->slaves[b->nslaves++];
			else {
				slave = &dropped;
				b->dropped++;
			}
			bonding_slave_init(slave, v);
			sec = BONDING_SLAVE;
			continue;
		}
		if (*v == '\0') {
			/* A heading: "Active Aggregator Info:", "details …:" */
			if (strcmp(k, "Active Aggregator Info") == 0)
				sec = BONDING_ACTIVE_AGG;
			else if (sec != BONDING_SLAVE)
				sec = BONDING_OTHER_SUB;
			continue;
		}
		if (sec == BONDING_SLAVE)
			bonding_slave_key(slave, k, v);
		else {
			sec = BONDING_TOP;
			bonding_top(b, k, v);
		}
	}
	if (!seen) {
		if (errstr != NULL)
			*errstr = "not a bonding status file";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Read <root>/proc/net/bonding/<name> and the bond's sysfs attributes. */
int
bonding_read(const struct probe_root *root, struct probe_buf *buf,
    const char *name, struct bonding *b, const char **errstr)
{
	char	rel[128];

	if (errstr != NULL)
		*errstr = NULL;
	if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') != NULL ||
	    strlen(name) >= BONDING_NAME_MAX) {
		memset(b, 0, sizeof *b);
		errno = ENOENT;
		return (-1);
	}
	snprintf(rel, sizeof rel, "net/bonding/%s", name);
	if (probe_read(root, PROBE_PROC, rel, buf) == -1) {
		memset(b, 0, sizeof *b);
		return (-1);
	}
	if (bonding_parse(buf->p, buf->len, b, errstr) == -1)
		return (-1);
	bonding_copy(b->name, sizeof b->name, name);

	snprintf(rel, sizeof rel, "class/net/%s/bonding/mode", name);
	if (probe_read_attr(root, PROBE_SYS, rel, b->sysfs_mode,
	    sizeof b->sysfs_mode) == 0) {
		b->has_sysfs = 1;
		if (b->mode == BONDING_MODE_UNKNOWN)
			b->mode = bonding_mode_sysfs(b->sysfs_mode);
	} else
		b->sysfs_mode[0] = '\0';
	snprintf(rel, sizeof rel, "class/net/%s/bonding/slaves", name);
	if (probe_read_attr(root, PROBE_SYS, rel, b->sysfs_slaves,
	    sizeof b->sysfs_slaves) == 0)
		b->has_sysfs = 1;
	else
		b->sysfs_slaves[0] = '\0';
	return (0);
}

/* The slave called name in b, or NULL. */
const struct bonding_slave *
bonding_slave_find(const struct bonding *b, const char *name)
{
	size_t	i;

	for (i = 0; i < b->nslaves; i++)
		if (strcmp(b->slaves[i].name, name) == 0)
			return (&b->slaves[i]);
	return (NULL);
}

/* What the bond can carry in Mb/s, -1 when no up slave has a speed. */
int64_t
bonding_capacity_mbps(const struct bonding *b)
{
	const struct bonding_slave	*s;
	int64_t				 cap = -1;
	size_t				 i;

	if (b->mode == BONDING_MODE_ACTIVEBACKUP && b->active_slave[0] != '\0') {
		s = bonding_slave_find(b, b->active_slave);
		return (s != NULL && strcmp(s->mii_status, "up") == 0 ?
		    s->speed_mbps : -1);
	}
	for (i = 0; i < b->nslaves; i++) {
		s = &b->slaves[i];
		if (strcmp(s->mii_status, "up") != 0 || s->speed_mbps < 0)
			continue;
		/* 802.3ad: only the active aggregator's ports carry traffic. */
		if (b->mode == BONDING_MODE_8023AD &&
		    b->active_aggregator != -1 && s->aggregator_id != -1 &&
		    s->aggregator_id != b->active_aggregator)
			continue;
		if (bonding_mode_aggregates(b->mode))
			cap = (cap == -1 ? 0 : cap) + s->speed_mbps;
		else if (b->mode == BONDING_MODE_BROADCAST) {
			if (cap == -1 || s->speed_mbps < cap)
				cap = s->speed_mbps;
		} else
			return (s->speed_mbps);	/* the first up slave */
	}
	return (cap);
}
