/*
 * smbconf.h: the Samba settings that matter for speed, from smb.conf.
 *
 * Read as Samba's own parser reads it: section headers in brackets, "name =
 * value" lines, ";" and "#" comment lines, a trailing backslash joining the
 * next line, parameter names compared without case, spaces or underscores
 * ("server signing" is "ServerSigning").  "include = FILE" is read in place
 * under the same root; an include with a %-macro (%m, %U ...) depends on
 * the client and is skipped with a note, as is a missing include.
 *
 * Where smb.conf does not set a value, Samba 4.17's default is reported:
 * server min protocol SMB2_02, server max protocol SMB3 (the newest, 3.1.1),
 * server signing "default" (signing offered and used when the client asks,
 * not required, except on an AD domain controller where it is mandatory)
 * and smb encrypt "default" (encryption offered, not required).
 */
#ifndef SMBCONF_H
#define SMBCONF_H

#include <stddef.h>

#include "probe.h"

#define SMBCONF_NAME_MAX	128	/* share name */
#define SMBCONF_PATH_MAX	512
#define SMBCONF_VALUE_MAX	32
#define SMBCONF_MAX_SHARES	64
#define SMBCONF_MAX_NOTES	16
#define SMBCONF_NOTE_MAX	160
#define SMBCONF_MAX_DEPTH	8	/* nested includes */
#define SMBCONF_MAX_PORTS	4	/* smb ports kept */

/* Which global values smb.conf set (the rest are Samba's defaults). */
#define SMBCONF_SET_MIN		0x01
#define SMBCONF_SET_MAX		0x02
#define SMBCONF_SET_SIGNING	0x04
#define SMBCONF_SET_ENCRYPT	0x08
#define SMBCONF_SET_READONLY	0x10

struct smbconf_share {
	char	name[SMBCONF_NAME_MAX];	/* as written: "homes", "media" */
	char	path[SMBCONF_PATH_MAX];	/* "" when not set */
	int	read_only;		/* effective: 1 or 0 */
	int	read_only_set;		/* -1 unset, else the share's value */
	char	smb_encrypt[SMBCONF_VALUE_MAX];	/* effective */
	char	smb_encrypt_set[SMBCONF_VALUE_MAX];	/* "" unset */
};

struct smbconf {
	char	server_min_protocol[SMBCONF_VALUE_MAX];	/* "SMB2_02" */
	char	server_max_protocol[SMBCONF_VALUE_MAX];	/* "SMB3" */
	char	server_signing[SMBCONF_VALUE_MAX];	/* "default", "auto",
							 * "mandatory",
							 * "disabled" */
	char	smb_encrypt[SMBCONF_VALUE_MAX];	/* "default", "off",
						 * "if_required", "desired",
						 * "required" */
	char	server_role[64];	/* "" when not set */
	unsigned ports[SMBCONF_MAX_PORTS];	/* smb ports: 445 139 */
	size_t	nports;
	unsigned set;			/* SMBCONF_SET_* */
	int	read_only;		/* [global] read only, -1 unset */
	struct smbconf_share shares[SMBCONF_MAX_SHARES];
	size_t	nshares;
	char	notes[SMBCONF_MAX_NOTES][SMBCONF_NOTE_MAX];
	size_t	nnotes;
	size_t	nfiles;			/* files read, includes counted */
	size_t	skipped;		/* lines not understood */
};

/* Default location of smb.conf, under the root. */
#define SMBCONF_PATH	"/etc/samba/smb.conf"

/*
 * Parse smb.conf text into sc, with Samba's defaults where it is silent.
 * Pure: includes are noted, not followed.  -1 and EINVAL only when buf is
 * not text (a NUL byte).
 */
int	smbconf_parse(const char *buf, size_t len, struct smbconf *sc,
	    const char **errstr);
/*
 * Read path (NULL: SMBCONF_PATH) under root, following includes under the
 * same root.  -1 and ENOENT when there is no smb.conf.
 */
int	smbconf_read(const struct probe_root *, const char *path,
	    struct smbconf *sc, const char **errstr);
/* The share called name (without case), or NULL. */
const struct smbconf_share *smbconf_find(const struct smbconf *,
	    const char *name);

#endif /* SMBCONF_H */
