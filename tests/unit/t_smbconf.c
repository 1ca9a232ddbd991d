/*
 * t_smbconf.c: smb.conf as Samba reads it: includes under the root,
 * synonyms, continuation lines, per-share encryption, defaults, a missing
 * include, a non-UTF-8 share name and garbage lines.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "smbconf.h"

/* 1 if one of sc's notes contains s. */
static int
has_note(const struct smbconf *sc, const char *s)
{
	size_t	i;

	for (i = 0; i < sc->nnotes; i++)
		if (strstr(sc->notes[i], s) != NULL)
			return (1);
	return (0);
}

/*
 * The [global] part follows the Samba 4.17.12 lab server's smb.conf
 * (LAB.md §5): "server signing = auto", "server min protocol = SMB2_10",
 * and an include.
 */
static const char lab_conf[] =
    "[global]\n"
    "  workgroup = LAB\n"
    "  server role = standalone server\n"
    "  smb ports = 445 4455\n"
    "  disable netbios = yes\n"
    "  log file = /var/log/samba/log.%m\n"
    "  map to guest = Bad User\n"
    "  load printers = no\n"
    "  server signing = auto\n"
    "  server min protocol = SMB2_10\n"
    "  include = /etc/samba/extra.conf\n"
    "  include = /etc/samba/%m.conf\n"
    "  include = /etc/samba/missing.conf\n"
    "; a comment = not a parameter\n"
    "# another\n"
    "[share]\n"
    "  path = /srv/share\n"
    "  read only = no\n"
    "  guest ok = yes\n"
    "[Media]\n"
    "\tPath = /srv/\\\n"
    "media\n"
    "\tWriteable = yes\n"
    "\tsmb_encrypt = Mandatory\n"
    "[homes]\n"
    "  browseable = no\n"
    "this line is garbage\n"
    "[broken\n"
    "[caf\xe9]\n"
    "  path = /srv/caf\xe9\n"
    "  server signing = disabled\n"
    "[share]\n"
    "  smb encrypt = desired\n";

/* ServerMaxProtocol spelled without spaces, in the included file. */
static const char extra_conf[] =
    "ServerMaxProtocol = smb3_11\n"
    "server_smb_encrypt = if_required\n"
    "[printers]\n"
    "  path = /var/spool/samba\n"
    "  printable = yes\n";

static void
test_lab(const char *dir)
{
	struct probe_root		 root;
	struct smbconf			*sc = calloc(1, sizeof *sc);
	const struct smbconf_share	*sh;
	const char			*e = NULL;

	t_put(dir, "etc/samba/smb.conf", lab_conf);
	t_put(dir, "etc/samba/extra.conf", extra_conf);
	T_OK(probe_root_open(&root, dir));
	T_OK(smbconf_read(&root, NULL, sc, &e));
	T_EQ_INT(sc->nfiles, 2);
	T_EQ_STR(sc->server_min_protocol, "SMB2_10");
	T_EQ_STR(sc->server_max_protocol, "SMB3_11");
	T_EQ_STR(sc->server_signing, "auto");
	T_EQ_STR(sc->smb_encrypt, "if_required");
	T_EQ_STR(sc->server_role, "standalone server");
	T_EQ_U64(sc->nports, 2);
	T_EQ_U64(sc->ports[0], 445);
	T_EQ_U64(sc->ports[1], 4455);
	T_EQ_INT(sc->set, SMBCONF_SET_MIN | SMBCONF_SET_MAX |
	    SMBCONF_SET_SIGNING | SMBCONF_SET_ENCRYPT);
	/* printers (included in [global]), share, Media, homes, caf\xe9 */
	T_EQ_INT(sc->nshares, 5);
	T_EQ_STR(sc->shares[0].name, "printers");
	T_EQ_STR(sc->shares[0].path, "/var/spool/samba");
	T_EQ_STR(sc->shares[1].name, "share");
	T_TRUE((sh = smbconf_find(sc, "share")) != NULL);
	if (sh != NULL) {
		T_EQ_STR(sh->path, "/srv/share");
		T_EQ_INT(sh->read_only, 0);
		/* the second [share] section adds to the first */
		T_EQ_STR(sh->smb_encrypt, "desired");
	}
	T_TRUE((sh = smbconf_find(sc, "media")) != NULL);
	if (sh != NULL) {
		T_EQ_STR(sh->name, "Media");
		T_EQ_STR(sh->path, "/srv/media");	/* continued line */
		T_EQ_INT(sh->read_only, 0);		/* writeable = yes */
		T_EQ_STR(sh->smb_encrypt, "required");
	}
	T_TRUE((sh = smbconf_find(sc, "homes")) != NULL);
	if (sh != NULL) {
		T_EQ_STR(sh->path, "");
		T_EQ_INT(sh->read_only, 1);		/* Samba's default */
		T_EQ_STR(sh->smb_encrypt, "if_required");	/* global */
	}
	T_TRUE((sh = smbconf_find(sc, "caf\xe9")) != NULL);
	if (sh != NULL)
		T_EQ_STR(sh->path, "/srv/caf\xe9");
	T_EQ_INT(sc->skipped, 2);	/* the garbage line, "[broken" */
	T_TRUE(has_note(sc, "include /etc/samba/%m.conf: depends on the "
	    "client"));
	T_TRUE(has_note(sc, "include /etc/samba/missing.conf: No such file"));
	T_TRUE(has_note(sc, "[caf\xe9] server signing: global only"));
	T_TRUE(!has_note(sc, "server signing default"));

	/* the same text, parsed alone: the include is noted, not followed */
	T_OK(smbconf_parse(lab_conf, sizeof lab_conf - 1, sc, &e));
	T_EQ_INT(sc->nfiles, 1);
	T_EQ_STR(sc->server_max_protocol, "SMB3");
	T_EQ_STR(sc->smb_encrypt, "default");
	T_TRUE(has_note(sc, "include /etc/samba/extra.conf: not followed"));
	T_EQ_INT(sc->nshares, 4);
	probe_root_close(&root);
	free(sc);
}

/* Defaults, synonyms, an include loop and a missing smb.conf. */
static void
test_defaults(const char *dir)
{
	static const char	syn[] =
	    "max protocol = SMB2\n"
	    "min protocol = nt1\n"
	    "read only = no\n"
	    "[data]\n"
	    "  directory = /data\n"
	    "  write ok = no\n"
	    "[scratch]\n"
	    "  path = /scratch\n";
	static const char	dc[] = "protocol = SMB3_00\n"
	    "server role = active directory domain controller\n";
	static const char	bad[] = "server signing = bogus\n"
	    "server max protocol = SMB9\n"
	    "smb ports = 445 x139\n";
	static const char	ports[] = "smb ports = 4450,4451 4452 4453 "
	    "4454\n";
	struct probe_root	 root;
	struct smbconf		*sc = calloc(1, sizeof *sc);
	const char		*e = NULL;

	T_OK(smbconf_parse("", 0, sc, &e));
	T_EQ_STR(sc->server_min_protocol, "SMB2_02");
	T_EQ_STR(sc->server_max_protocol, "SMB3");
	T_EQ_STR(sc->server_signing, "default");
	T_EQ_STR(sc->smb_encrypt, "default");
	T_EQ_INT(sc->set, 0);
	T_TRUE(has_note(sc, "server signing default: offered, not required"));
	T_EQ_U64(sc->nports, 2);	/* Samba's 445 and 139 */
	T_EQ_U64(sc->ports[0], 445);
	T_EQ_U64(sc->ports[1], 139);
	/* Commas or spaces; past SMBCONF_MAX_PORTS the rest are dropped. */
	T_OK(smbconf_parse(ports, sizeof ports - 1, sc, &e));
	T_EQ_U64(sc->nports, SMBCONF_MAX_PORTS);
	T_EQ_U64(sc->ports[0], 4450);
	T_EQ_U64(sc->ports[3], 4453);

	T_OK(smbconf_parse(syn, sizeof syn - 1, sc, &e));
	T_EQ_STR(sc->server_max_protocol, "SMB2");
	T_EQ_STR(sc->server_min_protocol, "NT1");
	T_EQ_STR(smbconf_find(sc, "data")->path, "/data");
	T_EQ_INT(smbconf_find(sc, "data")->read_only, 1);
	/* [global] read only = no is every share's default */
	T_EQ_INT(smbconf_find(sc, "scratch")->read_only, 0);

	T_OK(smbconf_parse(dc, sizeof dc - 1, sc, &e));
	T_EQ_STR(sc->server_max_protocol, "SMB3_00");
	T_TRUE(has_note(sc, "mandatory on this AD domain controller"));

	T_OK(smbconf_parse(bad, sizeof bad - 1, sc, &e));
	T_EQ_STR(sc->server_signing, "default");
	T_EQ_STR(sc->server_max_protocol, "SMB3");
	T_TRUE(has_note(sc, "server signing = bogus: unknown value"));
	T_TRUE(has_note(sc, "server max protocol = SMB9: unknown protocol"));
	T_TRUE(has_note(sc, "smb ports = 445 x139: not a list of ports"));
	T_EQ_U64(sc->nports, 2);
	T_EQ_U64(sc->ports[1], 139);

	T_ERRNO(smbconf_parse("a = b\0c", 7, sc, &e), EINVAL);

	/* a file that includes itself stops at the depth limit */
	t_put(dir, "etc/samba/loop.conf", "include = /etc/samba/loop.conf\n"
	    "server signing = mandatory\n");
	T_OK(probe_root_open(&root, dir));
	T_OK(smbconf_read(&root, "/etc/samba/loop.conf", sc, &e));
	T_EQ_INT(sc->nfiles, SMBCONF_MAX_DEPTH);
	T_EQ_STR(sc->server_signing, "mandatory");
	T_TRUE(has_note(sc, "nested too deep"));
	T_ERRNO(smbconf_read(&root, "/etc/samba/none.conf", sc, &e), ENOENT);
	probe_root_close(&root);
	free(sc);
}

int
main(void)
{
	char	dir[] = "/tmp/t_smbconf.XXXXXX";
	char	cmd[64];

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return (1);
	}
	test_lab(dir);
	test_defaults(dir);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	T_EQ_INT(system(cmd), 0);
	return (t_done());
}
