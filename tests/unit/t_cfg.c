/*
 * t_cfg.c: the configuration: defaults, etc/nasperfd.yaml, a file that
 * changes every key, each class of mistake with its exact file:line:column
 * message, the allow-list, and the keys nasperfd.yaml(5) must document.
 */
#include "config.h"

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "test.h"

static char	t_srcdir[2048];

/* The path of a file under the source tree. */
static const char *
t_path(const char *rel)
{
	static char	path[4096];

	snprintf(path, sizeof path, "%s/%s", t_srcdir, rel);
	return (path);
}

/* Load tests/unit/cfg/name; NULL (and a failed check) if it does not load. */
static struct cfg *
t_load(const char *name)
{
	struct cfg	*c;
	char		 rel[256], *cause;

	snprintf(rel, sizeof rel, "tests/unit/cfg/%s", name);
	c = cfg_load(t_path(rel), &cause);
	if (c == NULL)
		printf("# %s\n", cause);
	T_TRUE(c != NULL);
	free(cause);
	return (c);
}

/* Check that tests/unit/cfg/name fails with "path:want". */
static void
t_fails(const char *name, const char *want)
{
	struct cfg	*c;
	char		 rel[256], exp[8192], *cause;

	snprintf(rel, sizeof rel, "tests/unit/cfg/%s", name);
	snprintf(exp, sizeof exp, "%s:%s", t_path(rel), want);
	c = cfg_load(t_path(rel), &cause);
	T_TRUE(c == NULL);
	T_EQ_STR(cause, exp);
	cfg_free(c);
	free(cause);
}

/* Check that the buffer s fails with "t.yaml:want". */
static void
t_buf_fails(const char *s, const char *want)
{
	struct cfg	*c;
	char		 exp[1024], *cause;

	snprintf(exp, sizeof exp, "t.yaml:%s", want);
	c = cfg_parse("t.yaml", s, strlen(s), &cause);
	T_TRUE(c == NULL);
	T_EQ_STR(cause, exp);
	cfg_free(c);
	free(cause);
}

/* Parse the buffer s, which must be valid. */
static struct cfg *
t_buf(const char *s)
{
	struct cfg	*c;
	char		*cause;

	c = cfg_parse("t.yaml", s, strlen(s), &cause);
	if (c == NULL)
		printf("# %s\n", cause);
	T_TRUE(c != NULL);
	free(cause);
	return (c);
}

/* 1 if the IPv4 or IPv6 address text is allowed by c. */
static int
t_allowed(const struct cfg *c, const char *addr)
{
	struct sockaddr_in	sin;
	struct sockaddr_in6	sin6;

	memset(&sin, 0, sizeof sin);
	memset(&sin6, 0, sizeof sin6);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) == 1) {
		sin.sin_family = AF_INET;
		return (cfg_allowed(c, (struct sockaddr *)&sin));
	}
	if (inet_pton(AF_INET6, addr, &sin6.sin6_addr) == 1) {
		sin6.sin6_family = AF_INET6;
		return (cfg_allowed(c, (struct sockaddr *)&sin6));
	}
	return (-1);
}

/* The built-in defaults, field by field. */
static void
t_defaults(void)
{
	struct cfg	*c;

	if ((c = cfg_default()) == NULL) {
		T_TRUE(c != NULL);
		return;
	}
	T_EQ_STR(c->path, "");
	T_EQ_STR(c->listen_addr, "0.0.0.0");
	T_EQ_INT(c->listen_port, 9631);
	T_EQ_INT(c->auth, 1);
	T_EQ_INT(c->nallow, 8);
	T_EQ_INT(c->allow[0].family, AF_INET);
	T_EQ_INT(c->allow[0].addr[0], 127);
	T_EQ_INT(c->allow[0].prefix, 8);
	T_EQ_INT(c->allow[1].family, AF_INET6);
	T_EQ_INT(c->allow[1].addr[15], 1);
	T_EQ_INT(c->allow[1].prefix, 128);
	T_EQ_INT(c->allow[3].addr[0], 172);
	T_EQ_INT(c->allow[3].addr[1], 16);
	T_EQ_INT(c->allow[3].prefix, 12);
	T_EQ_INT(c->allow[6].addr[0], 0xfc);
	T_EQ_INT(c->allow[6].prefix, 7);
	T_EQ_INT(c->allow[7].addr[0], 0xfe);
	T_EQ_INT(c->allow[7].addr[1], 0x80);
	T_EQ_INT(c->allow[7].prefix, 10);
	T_EQ_U64(c->max_body, 1048576);
	T_EQ_U64(c->max_headers, 16384);
	T_EQ_INT(c->max_connections, 64);
	T_EQ_INT(c->max_per_address, 16);
	T_EQ_INT(c->idle_timeout, 30);
	T_EQ_INT(c->head_timeout, 10);
	T_EQ_STR(c->state_dir, "/var/lib/nasperfd");
	T_EQ_STR(c->root, "/");
	T_EQ_INT(c->debug, 0);
	T_EQ_INT(c->ngroups, 8);
	T_EQ_STR(c->groups[0].name, "smb");
	T_EQ_INT(c->groups[0].npatterns, 5);
	T_EQ_STR(c->groups[0].patterns[2], "samba-dcerpcd");
	T_EQ_STR(c->groups[0].patterns[3], "rpcd_*");
	T_EQ_STR(c->groups[1].name, "ksmbd");
	T_EQ_STR(c->groups[1].patterns[0], "ksmbd*");
	T_EQ_STR(c->groups[2].name, "nfs");
	T_EQ_INT(c->groups[2].npatterns, 4);
	T_EQ_STR(c->groups[2].patterns[1], "ganesha.nfsd");
	T_EQ_STR(c->groups[3].name, "afp");
	T_EQ_STR(c->groups[3].patterns[2], "cnid_dbd");
	T_EQ_STR(c->groups[4].name, "iscsi");
	T_EQ_STR(c->groups[4].patterns[2], "target_*");
	T_EQ_STR(c->groups[5].name, "ftp");
	T_EQ_STR(c->groups[5].patterns[1], "vsftpd");
	T_EQ_STR(c->groups[6].name, "rsync");
	T_EQ_STR(c->groups[7].name, "nasperfd");
	T_EQ_STR(c->groups[7].patterns[0], "nasperfd");
	T_EQ_INT(c->groups[7].npatterns, 1);
	T_EQ_INT(c->nnics, 0);
	T_EQ_U64(cfg_nic_speed(c, "eth0"), 0);
	T_EQ_INT(c->sample_interval_ms, 500);
	T_EQ_INT(c->sample_run_interval_ms, 200);
	T_EQ_INT(c->history_full_s, 300);
	T_EQ_INT(c->history_coarse_step_s, 10);
	T_EQ_INT(c->history_coarse_s, 14400);
	T_EQ_INT(c->v_disk_busy_pct, 90);
	T_EQ_INT(c->v_small_request, 65536);
	T_EQ_INT(c->v_idle_pct, 30);
	T_EQ_STR(c->synth_listen, "9632");
	T_EQ_INT(c->synth_max_streams, 8);
	T_EQ_U64(c->synth_max_bytes, 1099511627776ULL);
	T_EQ_INT(c->synth_max_rate_mbps, 0);
	T_EQ_INT(c->synth_idle_timeout, 30);
	T_EQ_INT(c->dt_nvolumes, 0);
	T_EQ_INT(c->dt_busy_iops, 100);
	T_EQ_INT(c->dt_busy_mbps, 10);
	T_EQ_U64(c->dt_max_bytes, 68719476736ULL);
	T_EQ_INT(c->runs_max_count, 2000);
	T_EQ_U64(c->runs_max_bytes, 67108864);
	cfg_free(c);
}

/* A full ring must hold two samples. */
static void
t_sampler_sizes(void)
{
	static const char	 y[] = "sampler:\n  interval_ms: 60000\n"
	    "  full_seconds: 10\n";
	struct cfg		*c;
	char			*cause = NULL;

	c = cfg_parse("small.yaml", y, sizeof y - 1, &cause);
	T_TRUE(c == NULL);
	T_TRUE(cause != NULL && strstr(cause, "at least two samples") != NULL);
	free(cause);
	cfg_free(c);
}

/* etc/nasperfd.yaml loads to exactly the built-in defaults. */
static void
t_etc(void)
{
	struct cfg	*c, *d;
	char		*cause;

	c = cfg_load(t_path("etc/nasperfd.yaml"), &cause);
	if (c == NULL)
		printf("# %s\n", cause);
	T_TRUE(c != NULL);
	free(cause);
	d = cfg_default();
	if (c != NULL && d != NULL) {
		T_EQ_STR(c->path, t_path("etc/nasperfd.yaml"));
		memset(c->path, 0, sizeof c->path);
		T_TRUE(memcmp(c, d, sizeof *c) == 0);
	}
	cfg_free(c);
	cfg_free(d);
}

/* A file that changes every key. */
static void
t_all_keys(void)
{
	struct cfg	*c;

	if ((c = t_load("all-keys.yaml")) == NULL)
		return;
	T_EQ_STR(c->listen_addr, "::1");
	T_EQ_INT(c->listen_port, 8080);
	T_EQ_INT(c->auth, 0);
	T_EQ_INT(c->nallow, 3);
	T_EQ_INT(c->allow[0].family, AF_INET);
	T_EQ_INT(c->allow[0].addr[2], 7);
	T_EQ_INT(c->allow[0].prefix, 24);
	T_EQ_INT(c->allow[1].family, AF_INET6);
	T_EQ_INT(c->allow[1].addr[0], 0x20);
	T_EQ_INT(c->allow[1].addr[3], 0xb8);
	T_EQ_INT(c->allow[1].prefix, 32);
	T_EQ_INT(c->allow[2].addr[3], 3);
	T_EQ_INT(c->allow[2].prefix, 32);
	T_EQ_U64(c->max_body, 4096);
	T_EQ_U64(c->max_headers, 2048);
	T_EQ_INT(c->max_connections, 10000);
	T_EQ_INT(c->max_per_address, 3);
	T_EQ_INT(c->idle_timeout, 3600);
	T_EQ_INT(c->head_timeout, 120);
	T_EQ_INT(c->tls, 1);
	T_EQ_STR(c->tls_cert, "/etc/ssl/nas.pem");
	T_EQ_STR(c->tls_key, "/etc/ssl/private/nas.key");
	T_EQ_STR(c->state_dir, "/srv/nasperfd/state");
	T_EQ_STR(c->root, "/tmp/captured-box");
	T_EQ_INT(c->debug, 1);
	/* process_groups replaces the defaults entirely. */
	T_EQ_INT(c->ngroups, 2);
	T_EQ_STR(c->groups[0].name, "samba");
	T_EQ_INT(c->groups[0].npatterns, 2);
	T_EQ_STR(c->groups[0].patterns[0], "smbd");
	T_EQ_STR(c->groups[0].patterns[1], "rpcd_*");
	T_EQ_STR(c->groups[1].name, "nfs-ganesha");
	T_EQ_INT(c->groups[1].npatterns, 1);
	T_EQ_STR(c->groups[1].patterns[0], "ganesha.nfsd");
	T_EQ_INT(c->nnics, 2);
	T_EQ_U64(cfg_nic_speed(c, "veth0"), 2500);
	T_EQ_U64(cfg_nic_speed(c, "eth1.100"), 1000000);
	T_EQ_U64(cfg_nic_speed(c, "eth1"), 0);
	T_EQ_INT(c->sample_interval_ms, 250);
	T_EQ_INT(c->sample_run_interval_ms, 100);
	T_EQ_INT(c->history_full_s, 120);
	T_EQ_INT(c->history_coarse_step_s, 5);
	T_EQ_INT(c->history_coarse_s, 3600);
	T_EQ_INT(c->v_disk_busy_pct, 85);
	T_EQ_INT(c->v_nic_util_pct, 80);
	T_EQ_INT(c->v_core_busy_pct, 95);
	T_EQ_INT(c->v_cpu_busy_pct, 92);
	T_EQ_INT(c->v_throttled_pct, 10);
	T_EQ_INT(c->v_cache_disk_pct, 5);
	T_EQ_INT(c->v_small_request, 4096);
	T_EQ_INT(c->v_idle_pct, 25);
	T_EQ_STR(c->synth_listen, "[::1]:8081");
	T_EQ_INT(c->synth_max_streams, 0);
	T_EQ_U64(c->synth_max_bytes, 1ULL << 50);
	T_EQ_INT(c->synth_max_rate_mbps, 1000000);
	T_EQ_INT(c->synth_idle_timeout, 3600);
	T_EQ_INT(c->synth_tls, 1);
	T_EQ_INT(c->dt_nvolumes, 2);
	T_EQ_STR(c->dt_volumes[0], "/volume1");
	T_EQ_STR(c->dt_volumes[1], "/mnt/my vol");
	T_EQ_INT(c->dt_busy_iops, 0);
	T_EQ_INT(c->dt_busy_mbps, 1000000);
	T_EQ_U64(c->dt_max_bytes, 1048576);
	T_EQ_INT(c->runs_max_count, 10);
	T_EQ_U64(c->runs_max_bytes, 1099511627776ULL);

	T_EQ_INT(t_allowed(c, "192.168.7.200"), 1);
	T_EQ_INT(t_allowed(c, "192.168.8.1"), 0);
	T_EQ_INT(t_allowed(c, "127.0.0.1"), 0);
	T_EQ_INT(t_allowed(c, "10.1.2.3"), 1);
	T_EQ_INT(t_allowed(c, "10.1.2.4"), 0);
	T_EQ_INT(t_allowed(c, "::ffff:10.1.2.3"), 1);
	T_EQ_INT(t_allowed(c, "::ffff:10.1.2.4"), 0);
	T_EQ_INT(t_allowed(c, "2001:db8:ffff::1"), 1);
	T_EQ_INT(t_allowed(c, "2001:db9::1"), 0);
	T_EQ_INT(t_allowed(c, "::1"), 0);
	cfg_free(c);
}

/* The default allow-list: loopback and the private ranges only. */
static void
t_allow_default(void)
{
	struct cfg	*c;

	if ((c = cfg_default()) == NULL)
		return;
	T_EQ_INT(t_allowed(c, "127.0.0.1"), 1);
	T_EQ_INT(t_allowed(c, "127.255.0.9"), 1);
	T_EQ_INT(t_allowed(c, "10.200.3.4"), 1);
	T_EQ_INT(t_allowed(c, "172.16.0.1"), 1);
	T_EQ_INT(t_allowed(c, "172.31.255.255"), 1);
	T_EQ_INT(t_allowed(c, "172.32.0.1"), 0);
	T_EQ_INT(t_allowed(c, "192.168.1.5"), 1);
	T_EQ_INT(t_allowed(c, "192.169.1.5"), 0);
	T_EQ_INT(t_allowed(c, "169.254.10.1"), 1);
	T_EQ_INT(t_allowed(c, "8.8.8.8"), 0);
	T_EQ_INT(t_allowed(c, "::1"), 1);
	T_EQ_INT(t_allowed(c, "::2"), 0);
	T_EQ_INT(t_allowed(c, "fd12:3456::1"), 1);
	T_EQ_INT(t_allowed(c, "fe80::1"), 1);
	T_EQ_INT(t_allowed(c, "febf::1"), 1);
	T_EQ_INT(t_allowed(c, "fec0::1"), 0);
	T_EQ_INT(t_allowed(c, "2001:4860::8888"), 0);
	/* Dual-stack sockets show IPv4 clients as v4-mapped addresses. */
	T_EQ_INT(t_allowed(c, "::ffff:192.168.1.5"), 1);
	T_EQ_INT(t_allowed(c, "::ffff:127.0.0.1"), 1);
	T_EQ_INT(t_allowed(c, "::ffff:8.8.8.8"), 0);
	cfg_free(c);
}

/* cfg_cidr_parse and cfg_listen_parse on their own. */
static void
t_parsers(void)
{
	struct cfg_cidr	 cidr;
	const char	*errstr;
	char		 host[64];
	uint16_t	 port;

	T_OK(cfg_cidr_parse("192.168.0.0/16", &cidr));
	T_EQ_INT(cidr.family, AF_INET);
	T_EQ_INT(cidr.prefix, 16);
	T_EQ_INT(cidr.addr[1], 168);
	T_OK(cfg_cidr_parse("10.0.0.1", &cidr));
	T_EQ_INT(cidr.prefix, 32);
	T_OK(cfg_cidr_parse("0.0.0.0/0", &cidr));
	T_EQ_INT(cidr.prefix, 0);
	T_OK(cfg_cidr_parse("fe80::/10", &cidr));
	T_EQ_INT(cidr.family, AF_INET6);
	T_EQ_INT(cidr.prefix, 10);
	T_OK(cfg_cidr_parse("::1", &cidr));
	T_EQ_INT(cidr.prefix, 128);
	T_ERRNO(cfg_cidr_parse("10.0.0.1/8", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("fe80::1/10", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("10.0.0.0/33", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("::/129", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("10.0.0.0/", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("10.0.0.0/08", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("10.0.0.0/-8", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("/8", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("10.0.0", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("256.0.0.0/8", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("localhost", &cidr), EINVAL);
	T_ERRNO(cfg_cidr_parse("", &cidr), EINVAL);

	T_OK(cfg_listen_parse("127.0.0.1:1", host, sizeof host, &port,
	    &errstr));
	T_EQ_STR(host, "127.0.0.1");
	T_EQ_INT(port, 1);
	T_OK(cfg_listen_parse("[::]:65535", host, sizeof host, &port,
	    &errstr));
	T_EQ_STR(host, "::");
	T_EQ_INT(port, 65535);
	T_TRUE(cfg_listen_parse("::1:9631", host, sizeof host, &port,
	    &errstr) == -1);
	T_EQ_STR(errstr, "an IPv6 address goes in brackets, as in [::]:9631");
	T_TRUE(cfg_listen_parse("0.0.0.0:0", host, sizeof host, &port,
	    &errstr) == -1);
	T_EQ_STR(errstr, "the port is not a number from 1 to 65535");
	T_TRUE(cfg_listen_parse("nas.local:80", host, sizeof host, &port,
	    &errstr) == -1);
	T_EQ_STR(errstr, "not an IPv4 address");
	T_TRUE(cfg_listen_parse("[10.0.0.1]:80", host, sizeof host, &port,
	    &errstr) == -1);
	T_EQ_STR(errstr, "not an IPv6 address");
	T_TRUE(cfg_listen_parse("0.0.0.0", host, sizeof host, &port,
	    &errstr) == -1);
	T_EQ_STR(errstr, "expected ADDR:PORT");
}

/* Each class of mistake, from a file, with its position. */
static void
t_mistakes(void)
{
	t_fails("unknown-key.yaml", "3:3: unknown key 'api.colour'");
	t_fails("typo.yaml",
	    "3:3: unknown key 'api.lisen'; did you mean 'api.listen'?");
	t_fails("nic-typo.yaml", "3:5: unknown key "
	    "'interfaces.eth0.sped_mbps'; did you mean "
	    "'interfaces.eth0.speed_mbps'?");
	t_fails("wrong-type.yaml",
	    "1:6: api: expected a mapping, got a scalar");
	t_fails("wrong-type-seq.yaml", "3:10: api.allow: expected a sequence "
	    "of addresses or CIDRs, got a scalar");
	t_fails("out-of-range.yaml",
	    "2:20: api.max_connections: '10001' is out of range 1-10000");
	t_fails("number.yaml",
	    "2:19: api.max_body_bytes: '1e3' is not a decimal number");
	t_fails("bad-cidr.yaml", "4:7: api.allow: '192.168.1.0/33': the "
	    "prefix is not a number from 0 to 32");
	t_fails("bad-listen.yaml", "2:11: api.listen: '0.0.0.0:70000': the "
	    "port is not a number from 1 to 65535");
	t_fails("duplicate.yaml",
	    "4:3: duplicate key 'api.listen', first given at 2:3");
	t_fails("anchor.yaml", "1:9: anchors are not supported: '&g'");
	t_fails("alias.yaml", "3:8: aliases are not supported: '*pats'");
	t_fails("merge.yaml", "2:3: merge keys ('<<') are not supported");
	t_fails("not-yaml.yaml", "1:16: did not find expected ',' or ']' "
	    "while parsing a flow sequence");
	t_fails("tab.yaml", "2:1: found character that cannot start any "
	    "token: a tab cannot indent YAML, use spaces");
	t_fails("two-docs.yaml", "3:1: only one YAML document is allowed");
	t_fails("empty-allow.yaml",
	    "2:10: api.allow: an empty list would refuse every client");
	t_fails("top-sequence.yaml",
	    "1:1: the top level must be a mapping of keys, not a sequence");
	t_fails("non-utf8.yaml", "1:26: invalid trailing UTF-8 octet 0x72; "
	    "the file must be UTF-8");
	t_fails("long-comm.yaml", "2:15: process_groups.smb: "
	    "'rpcd_lsarpc_extra' is longer than 15 characters and can never "
	    "match (the kernel truncates a process's comm to 15)");
}

/* Smaller mistakes and edge cases, from buffers. */
static void
t_buffers(void)
{
	struct cfg	*c;
	char		*cause;

	/* Numbers: decimal only, no sign, no leading zero, no overflow. */
	/* A certificate goes with its key. */
	t_buf_fails("api:\n  tls_certificate: /etc/ssl/nas.pem\n",
	    "1:1: api.tls_certificate and api.tls_key go together: name both, "
	    "or neither for the certificate nasperfd makes in its state "
	    "directory");
	t_buf_fails("api:\n  tls_key: /etc/ssl/nas.key\n",
	    "1:1: api.tls_certificate and api.tls_key go together: name both, "
	    "or neither for the certificate nasperfd makes in its state "
	    "directory");
	t_buf_fails("api:\n  tls_key: etc/nas.key\n",
	    "2:12: api.tls_key: 'etc/nas.key' is not an absolute path");
	t_buf_fails("api:\n  idle_timeout: -1\n",
	    "2:17: api.idle_timeout: '-1' is not a decimal number");
	t_buf_fails("api:\n  idle_timeout: 0x10\n",
	    "2:17: api.idle_timeout: '0x10' is not a decimal number");
	t_buf_fails("api:\n  idle_timeout: 010\n",
	    "2:17: api.idle_timeout: '010' is not a decimal number");
	t_buf_fails("api:\n  idle_timeout: 1_000\n",
	    "2:17: api.idle_timeout: '1_000' is not a decimal number");
	t_buf_fails("api:\n  max_body_bytes: 99999999999999999999\n",
	    "2:19: api.max_body_bytes: '99999999999999999999' is out of range "
	    "1-1073741824");
	t_buf_fails("api:\n  max_body_bytes: 18446744073709551616\n",
	    "2:19: api.max_body_bytes: '18446744073709551616' is out of range "
	    "1-1073741824");
	t_buf_fails("api:\n  idle_timeout: 0\n",
	    "2:17: api.idle_timeout: '0' is out of range 1-3600");
	t_buf_fails("api:\n  idle_timeout:\n",
	    "2:16: api.idle_timeout: expected a value, got an empty value");
	t_buf_fails("api:\n  idle_timeout: [30]\n",
	    "2:17: api.idle_timeout: expected a value, got a sequence");
	/* Booleans, paths, levels, addresses. */
	t_buf_fails("api:\n  auth: maybe\n", "2:9: api.auth: 'maybe' is not "
	    "a boolean (true/false, yes/no, on/off)");
	t_buf_fails("state_dir: var/lib/nasperfd\n", "1:12: state_dir: "
	    "'var/lib/nasperfd' is not an absolute path");
	t_buf_fails("log:\n  level: verbose\n",
	    "2:10: log.level: 'verbose' is not one of info, debug");
	t_buf_fails("synth:\n  listen: '0.0.0.0:0'\n", "2:11: synth.listen: "
	    "'0.0.0.0:0': the port is not a number from 1 to 65535");
	t_buf_fails("synth:\n  listen: 70000\n", "2:11: synth.listen: "
	    "'70000': expected ADDR:PORT or a port from 1 to 65535");
	t_buf_fails("synth:\n  listen: eth0\n", "2:11: synth.listen: "
	    "'eth0': expected ADDR:PORT or a port from 1 to 65535");
	t_buf_fails("synth:\n  max_streams: 1025\n", "2:16: "
	    "synth.max_streams: '1025' is out of range 0-1024");
	t_buf_fails("disktest:\n  volumes: [vol]\n", "2:13: "
	    "disktest.volumes: 'vol' is not an absolute path");
	t_buf_fails("disktest:\n  volumes: [/v, /v]\n", "2:17: "
	    "disktest.volumes: '/v' is listed twice");
	t_buf_fails("disktest:\n  volumes: /v\n", "2:12: "
	    "disktest.volumes: expected a sequence of absolute paths, got "
	    "a scalar");
	t_buf_fails("disktest:\n  max_bytes: 0\n", "2:14: "
	    "disktest.max_bytes: '0' is out of range 1048576-1125899906842624");
	c = t_buf("synth:\n  listen: 127.0.0.1:19632\n");
	if (c != NULL)
		T_EQ_STR(c->synth_listen, "127.0.0.1:19632");
	cfg_free(c);
	t_buf_fails("api:\n  listen: ':::9631'\n", "2:11: api.listen: "
	    "':::9631': an IPv6 address goes in brackets, as in [::]:9631");
	t_buf_fails("api:\n  allow: [10.0.0.1/8]\n", "2:11: api.allow: "
	    "'10.0.0.1/8': host bits are set beyond the prefix");
	/* Keys in the wrong place, or not ours. */
	t_buf_fails("colour: blue\n", "1:1: unknown key 'colour'");
	t_buf_fails("apu:\n  auth: true\n",
	    "1:1: unknown key 'apu'; did you mean 'api'?");
	t_buf_fails("stat_dir: /x\n",
	    "1:1: unknown key 'stat_dir'; did you mean 'state_dir'?");
	t_buf_fails("listen: 0.0.0.0:9631\n", "1:1: unknown key 'listen'");
	t_buf_fails("api.listen: 0.0.0.0:9631\n", "1:1: unknown key "
	    "'api.listen' (write a dotted key as nested mappings)");
	t_buf_fails("api:\n  listen:\n    port: 9631\n",
	    "3:5: api.listen: expected a value, got a mapping");
	t_buf_fails("? [a, b]\n: c\n", "1:3: a key must be a scalar, "
	    "not a sequence");
	t_buf_fails("api:\n  auth: !!bool true\n",
	    "2:9: tags are not supported: 'tag:yaml.org,2002:bool'");
	t_buf_fails("interfaces:\n  eth0: {}\n",
	    "2:9: interfaces.eth0: speed_mbps is required");
	t_buf_fails("interfaces:\n  eth0:\n    speed_mbps: 0\n",
	    "3:17: interfaces.eth0.speed_mbps: '0' is out of range 1-1000000");
	t_buf_fails("interfaces:\n  eth0: 1000\n", "2:9: interfaces.eth0: "
	    "expected a mapping such as { speed_mbps: 1000 }, got a scalar");
	t_buf_fails("interfaces:\n  averyverylongname0: {speed_mbps: 1}\n",
	    "2:3: interfaces: 'averyverylongname0': an interface name has 1 "
	    "to 15 characters");
	t_buf_fails("process_groups:\n  smb: []\n",
	    "2:8: process_groups.smb: a group with no patterns matches "
	    "nothing");
	t_buf_fails("process_groups:\n  smb: smbd\n",
	    "2:8: process_groups.smb: expected a sequence of patterns, got a "
	    "scalar");
	t_buf_fails("process_groups:\n  smb: [smbd]\n  smb: [nmbd]\n",
	    "3:3: duplicate key 'process_groups.smb', first given at 2:3");
	t_buf_fails("process_groups:\n  'a b': [smbd]\n",
	    "2:3: process_groups: 'a b': a group name has only letters, "
	    "digits, '_', '-', '.'");
	t_buf_fails("just some words\n", "1:1: the top level must be a "
	    "mapping of keys, not a scalar");
	t_buf_fails("api:\n  auth: \"on\\0\"\n",
	    "2:9: api.auth: value contains a NUL");
	t_buf_fails("a: b: c\n",
	    "1:5: mapping values are not allowed in this context");
	t_buf_fails("\x01\n", "1:1: control characters are not allowed 0x01; "
	    "the file must be UTF-8");

	/* Booleans in every spelling, a null section, the empty document. */
	if ((c = t_buf("api:\n  auth: No\n")) != NULL)
		T_EQ_INT(c->auth, 0);
	cfg_free(c);
	if ((c = t_buf("api:\n  auth: YES\n")) != NULL)
		T_EQ_INT(c->auth, 1);
	cfg_free(c);
	if ((c = t_buf("api:\n  auth: off\n")) != NULL)
		T_EQ_INT(c->auth, 0);
	cfg_free(c);
	if ((c = t_buf("# all commented out\napi:\nlog:\n")) != NULL) {
		T_EQ_INT(c->listen_port, 9631);
		T_EQ_INT(c->ngroups, 8);
	}
	cfg_free(c);
	if ((c = t_buf("---\n...\n")) != NULL)
		T_EQ_INT(c->nallow, 8);
	cfg_free(c);
	if ((c = t_buf("process_groups: {}\n")) != NULL)
		T_EQ_INT(c->ngroups, 0);
	cfg_free(c);
	if ((c = t_buf("api: {max_body_bytes: 1073741824}\n")) != NULL)
		T_EQ_U64(c->max_body, 1073741824);
	cfg_free(c);
	if ((c = t_buf("")) != NULL)
		T_EQ_STR(c->path, "t.yaml");
	cfg_free(c);

	/* A whole file of defaults, and a missing file. */
	if ((c = t_load("empty.yaml")) != NULL) {
		T_EQ_INT(c->listen_port, 9631);
		T_EQ_INT(c->nallow, 8);
		T_EQ_INT(c->ngroups, 8);
	}
	cfg_free(c);
	c = cfg_load("/nonexistent/nasperfd.yaml", &cause);
	T_TRUE(c == NULL);
	T_EQ_STR(cause,
	    "/nonexistent/nasperfd.yaml: No such file or directory");
	free(cause);
	c = cfg_load(t_path("tests/unit/cfg"), &cause);
	T_TRUE(c == NULL);
	T_TRUE(cause != NULL && strstr(cause, ": not a regular file") != NULL);
	free(cause);
}

/*
 * The data port's cap per address, and the open files a configuration
 * needs: every valid one fits in the systemd unit's LimitNOFILE.
 */
static void
t_limits(void)
{
	struct cfg	*c;
	FILE		*f;
	char		 line[256];
	unsigned	 unit = 0;

	if ((c = cfg_default()) != NULL) {
		T_EQ_INT(cfg_synth_per_address(c), 16);
		/* 64 + a backlog of 128 + 8 + 16 + 256 of the daemon's own */
		T_EQ_INT(cfg_nofile(c), 472);
	}
	cfg_free(c);
	if ((c = t_buf("api:\n  max_connections_per_address: 4\n"
	    "synth:\n  max_streams: 64\n")) != NULL)
		T_EQ_INT(cfg_synth_per_address(c), 64);
	cfg_free(c);
	if ((c = t_buf("api:\n  max_connections: 10000\n"
	    "synth:\n  max_streams: 1024\n")) != NULL)
		T_EQ_INT(cfg_nofile(c), 11424);
	if ((f = fopen(t_path("systemd/nasperfd.service.in"), "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL)
			if (sscanf(line, "LimitNOFILE=%u", &unit) == 1)
				break;
		fclose(f);
	}
	T_TRUE(c != NULL && unit >= cfg_nofile(c));
	cfg_free(c);
	t_buf_fails("api:\n  max_connections_per_address: 0\n", "2:32: "
	    "api.max_connections_per_address: '0' is out of range 1-10000");
}

/* Every key of the table is in nasperfd.yaml(5). */
static void
t_man(void)
{
	FILE		*f;
	char		*page = NULL, key[128];
	const char	*name;
	size_t		 len = 0, i;
	long		 size;

	if ((f = fopen(t_path("man/nasperfd.yaml.5"), "r")) == NULL) {
		T_TRUE(f != NULL);
		return;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 &&
	    (page = calloc(1, (size_t)size + 1)) != NULL)
		len = fread(page, 1, (size_t)size, f);
	fclose(f);
	T_TRUE(page != NULL && len > 0);
	for (i = 0; page != NULL && (name = cfg_key_name(i)) != NULL; i++) {
		/* Keys are listed as ".It Ic api.listen". */
		snprintf(key, sizeof key, ".It Ic %s ", name);
		if (!t_check(strstr(page, key) != NULL, name, __FILE__,
		    __LINE__, "'%s' is not in nasperfd.yaml(5)", key))
			continue;
		/* The default is stated too, in the key's string form. */
		T_TRUE(cfg_key_default(i) != NULL);
	}
	T_EQ_INT(i, 52);
	T_TRUE(cfg_key_name(52) == NULL);
	T_TRUE(cfg_key_default(52) == NULL);
	T_EQ_STR(cfg_key_name(0), "api.listen");
	T_EQ_STR(cfg_key_default(0), "0.0.0.0:9631");
	free(page);
}

int
main(void)
{
	const char	*s;

	(void)t_root;
	(void)t_skip;
	if ((s = getenv("NP_SRCDIR")) == NULL)
		s = ".";
	snprintf(t_srcdir, sizeof t_srcdir, "%s", s);
	t_defaults();
	t_sampler_sizes();
	t_etc();
	t_all_keys();
	t_allow_default();
	t_parsers();
	t_mistakes();
	t_buffers();
	t_limits();
	t_man();
	return (t_done());
}
