/*
 * t_exports.c: /etc/exports with default options, sync and async,
 * no_wdelay, sec=krb5p, quoted paths and continuations; ganesha.conf's
 * EXPORT blocks with %include; the kernel server's thread count.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "exports.h"

/*
 * The first line is nas-samples/synology-dsm7-nfs/etc-exports-line.txt
 * (oVirt/ovirt-site#2566: "the options set by Synology").
 */
static const char exports_txt[] =
    "/volume1/ovirt 1.1.1.1(rw,async,no_wdelay,crossmnt,insecure,"
    "no_root_squash,insecure_locks,sec=sys,anonuid=1025,anongid=100) "
    "1.1.1.2(rw,async,no_wdelay,crossmnt,insecure,no_root_squash,"
    "insecure_locks,sec=sys,anonuid=1025,anongid=100)\n"
    "# a comment line\n"
    "/srv/secure\t-rw,no_subtree_check  krb.example.org(sec=krb5p) \\\n"
    "\t@admins *.lan(ro,async)   # trailing comment\n"
    "\"/srv/with space\" 192.0.2.0/24\n"
    "/srv/odd\\040name (rw)\n"
    "/srv/bare\n"
    "not-a-path host(rw)\n"
    "/srv/broken host(rw\n";

static void
test_exports(const char *dir)
{
	struct probe_root		 root;
	struct probe_buf		 b;
	struct exports			 e;
	const struct exports_client	*c;
	const char			*err = NULL;

	exports_init(&e);
	T_OK(exports_parse(exports_txt, sizeof exports_txt - 1, &e, &err));
	T_EQ_INT(e.n, 6);
	T_EQ_INT(e.skipped, 2);		/* not-a-path, host(rw without ) */
	T_EQ_STR(e.v[0].path, "/volume1/ovirt");
	T_EQ_INT(e.v[0].nclients, 2);
	c = &e.v[0].clients[1];
	T_EQ_STR(c->host, "1.1.1.2");
	T_EQ_INT(c->sync, 0);
	T_EQ_INT(c->wdelay, 0);
	T_EQ_INT(c->rw, 1);
	T_EQ_INT(c->root_squash, 0);
	T_EQ_STR(c->sec, "sys");
	T_EQ_STR(c->options, "rw,async,no_wdelay,crossmnt,insecure,"
	    "no_root_squash,insecure_locks,sec=sys,anonuid=1025,anongid=100");

	T_EQ_STR(e.v[1].path, "/srv/secure");
	T_EQ_INT(e.v[1].nclients, 3);
	c = &e.v[1].clients[0];
	T_EQ_STR(c->host, "krb.example.org");
	T_EQ_STR(c->options, "rw,no_subtree_check,sec=krb5p");
	T_EQ_STR(c->sec, "krb5p");
	T_EQ_INT(c->rw, 1);
	T_EQ_INT(c->sync, 1);			/* nfs-utils' default */
	T_EQ_INT(c->wdelay, 1);
	T_EQ_INT(c->root_squash, 1);
	c = &e.v[1].clients[1];
	T_EQ_STR(c->host, "@admins");
	T_EQ_STR(c->options, "rw,no_subtree_check");
	c = &e.v[1].clients[2];
	T_EQ_STR(c->host, "*.lan");
	T_EQ_INT(c->rw, 0);
	T_EQ_INT(c->sync, 0);

	T_EQ_STR(e.v[2].path, "/srv/with space");
	T_EQ_STR(e.v[2].clients[0].host, "192.0.2.0/24");
	T_EQ_STR(e.v[2].clients[0].options, "");
	T_EQ_INT(e.v[2].clients[0].rw, 0);	/* ro by default */
	T_EQ_STR(e.v[3].path, "/srv/odd name");
	T_EQ_STR(e.v[3].clients[0].host, "*");	/* "(rw)" alone: the world */
	T_EQ_INT(e.v[3].clients[0].rw, 1);
	T_EQ_STR(e.v[4].path, "/srv/bare");
	T_EQ_STR(e.v[4].clients[0].host, "*");
	T_EQ_INT(e.v[5].nclients, 0);
	T_ERRNO(exports_parse("/a b\0", 5, &e, &err), EINVAL);

	probe_buf_init(&b);
	t_put(dir, "etc/exports", "/data\t10.0.0.0/8(rw,sync)\n");
	T_OK(probe_root_open(&root, dir));
	T_OK(exports_read(&root, &b, &e, &err));
	T_EQ_INT(e.n, 1);
	T_EQ_INT(e.v[0].clients[0].sync, 1);
	probe_root_close(&root);
	T_ERRNO(exports_read(t_root("empty"), &b, &e, &err), ENOENT);
	T_EQ_INT(e.n, 0);
	probe_buf_free(&b);
	exports_clear(&e);
}

/* The lab's ganesha.conf (LAB.md §6), one more EXPORT in an include. */
static const char ganesha_conf[] =
    "NFS_CORE_PARAM { Protocols = 3, 4; NFS_Port = 2049; "
    "MNT_Port = 20048; Bind_addr = 0.0.0.0;\n"
    "                 Enable_NLM = false; Enable_RQUOTA = false; "
    "Enable_UDP = false; }\n"
    "NFSv4 { RecoveryBackend = fs; RecoveryRoot = /srv/lab/ganesha/recov; "
    "Graceless = true; Lease_Lifetime = 10;\n"
    "        Allow_Numeric_Owners = true; Only_Numeric_Owners = true; }\n"
    "EXPORT { Export_Id = 1; Path = /srv/lab/mnt/nfs; Pseudo = /export; "
    "Access_Type = RW; Squash = No_Root_Squash;\n"
    "         Protocols = 3, 4; Transports = TCP; SecType = sys; "
    "FSAL { Name = VFS; } }\n"
    "LOG { Default_Log_Level = EVENT; }\n"
    "EXPORT_DEFAULTS { SecType = krb5p; }\n"
    "%include \"/etc/ganesha/more.conf\"\n"
    "%include /etc/ganesha/missing.conf\n";

static const char more_conf[] =
    "# another export\n"
    "EXPORT\n"
    "{\n"
    "\tExport_Id = 2;\n"
    "\tPath = \"/srv/two words\";\n"
    "\tCLIENT { Clients = 192.0.2.0/24; Access_Type = RW; }\n"
    "}\n";

static void
test_ganesha(const char *dir)
{
	struct probe_root		 root;
	struct exports_ganesha		*g = calloc(1, sizeof *g);
	const struct exports_ganesha_export *x;
	const char			*err = NULL;

	T_OK(exports_ganesha_parse(ganesha_conf, sizeof ganesha_conf - 1, g,
	    &err));
	T_EQ_INT(g->n, 1);
	T_EQ_INT(g->skipped, 2);		/* the includes */
	x = &g->exports[0];
	T_EQ_INT(x->export_id, 1);
	T_EQ_STR(x->path, "/srv/lab/mnt/nfs");
	T_EQ_STR(x->pseudo, "/export");
	T_EQ_STR(x->access_type, "RW");
	T_EQ_STR(x->protocols, "3,4");
	T_EQ_STR(x->sectype, "sys");
	T_EQ_STR(x->squash, "No_Root_Squash");

	t_put(dir, "etc/ganesha/ganesha.conf", ganesha_conf);
	t_put(dir, "etc/ganesha/more.conf", more_conf);
	T_OK(probe_root_open(&root, dir));
	T_OK(exports_ganesha_read(&root, NULL, g, &err));
	T_EQ_INT(g->files, 2);
	T_EQ_INT(g->skipped, 1);		/* missing.conf */
	T_EQ_INT(g->n, 2);
	x = &g->exports[1];
	T_EQ_INT(x->export_id, 2);
	T_EQ_STR(x->path, "/srv/two words");
	T_EQ_STR(x->pseudo, "");
	/* CLIENT's Access_Type is not the export's: ganesha's default */
	T_EQ_STR(x->access_type, "None");
	T_EQ_STR(x->protocols, "3,4");
	T_EQ_STR(x->sectype, "krb5p");		/* EXPORT_DEFAULTS */
	T_EQ_STR(x->squash, "root_squash");
	probe_root_close(&root);

	T_OK(exports_ganesha_parse("EXPORT { Path = /x; ", 20, g, &err));
	T_EQ_INT(g->n, 1);
	T_EQ_INT(g->skipped, 1);		/* unclosed block */
	T_EQ_STR(g->exports[0].path, "/x");
	T_OK(exports_ganesha_parse("} = ; { EXPORT EXPORT {", 23, g, &err));
	T_ERRNO(exports_ganesha_read(t_root("empty"), NULL, g, &err), ENOENT);
	free(g);
}

static void
test_threads(const char *dir)
{
	struct probe_root	root;
	uint64_t		n = 99;

	T_ERRNO(exports_threads_read(t_root("empty"), &n), ENOENT);
	t_put(dir, "proc/fs/nfsd/threads", "16\n");
	T_OK(probe_root_open(&root, dir));
	T_OK(exports_threads_read(&root, &n));
	T_EQ_U64(n, 16);
	probe_root_close(&root);
}

/* Which clients a spec takes, and which it cannot tell without a name. */
static void
test_client_match(void)
{
	T_EQ_INT(exports_client_match("*", "192.0.2.10"), 1);
	T_EQ_INT(exports_client_match("192.0.2.10", "192.0.2.10"), 1);
	T_EQ_INT(exports_client_match("192.0.2.11", "192.0.2.10"), 0);
	T_EQ_INT(exports_client_match("192.0.2.0/24", "192.0.2.200"), 1);
	T_EQ_INT(exports_client_match("192.0.2.0/24", "192.0.3.1"), 0);
	T_EQ_INT(exports_client_match("10.0.0.0/9", "10.127.1.1"), 1);
	T_EQ_INT(exports_client_match("10.0.0.0/9", "10.128.1.1"), 0);
	T_EQ_INT(exports_client_match("192.0.2.0/255.255.255.128",
	    "192.0.2.127"), 1);
	T_EQ_INT(exports_client_match("192.0.2.0/255.255.255.128",
	    "192.0.2.128"), 0);
	T_EQ_INT(exports_client_match("0.0.0.0/0", "198.51.100.7"), 1);
	T_EQ_INT(exports_client_match("2001:db8::/32", "2001:db8:1::5"), 1);
	T_EQ_INT(exports_client_match("2001:db8::/32", "2001:db9::5"), 0);
	T_EQ_INT(exports_client_match("2001:db8::/32", "192.0.2.1"), 0);
	T_EQ_INT(exports_client_match("192.0.2.1", "2001:db8::1"), 0);
	T_EQ_INT(exports_client_match("nas-client.lan", "192.0.2.10"), -1);
	T_EQ_INT(exports_client_match("*.lan", "192.0.2.10"), -1);
	T_EQ_INT(exports_client_match("@trusted", "192.0.2.10"), -1);
	T_EQ_INT(exports_client_match("192.0.2.0/33", "192.0.2.10"), -1);
	T_EQ_INT(exports_client_match("192.0.2.0/255.0.255.0", "192.0.2.1"),
	    -1);
	T_EQ_INT(exports_client_match("*", "not an address"), 1);
	T_EQ_INT(exports_client_match("192.0.2.1", "not an address"), -1);
}

int
main(void)
{
	char	dir[] = "/tmp/t_exports.XXXXXX";
	char	cmd[64];

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return (1);
	}
	test_exports(dir);
	test_ganesha(dir);
	test_client_match();
	test_threads(dir);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	T_EQ_INT(system(cmd), 0);
	return (t_done());
}
