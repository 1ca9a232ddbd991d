/*
 * smbstatus.h: Samba's SMB sessions as smbstatus(1) lists them.
 *
 * Two forms exist.  "smbstatus -b --json" (Samba 4.16 on) is an object
 * whose "sessions" member holds one object per session, keyed by session
 * id: "server_id": {"pid"}, "username", "groupname", "remote_machine",
 * "hostname" ("ipv4:192.0.2.7:50112"), "session_dialect" ("SMB3_11"),
 * "encryption" and "signing" as {"cipher", "degree"} with degree "none",
 * "partial", "anonymous" or "full".  Pre-release layouts with "sessions" as
 * an array, a "0:79204" pid or crypto as the text form are read as well.
 * This library reads the text; the daemon reads the JSON with jansson
 * (daemon/smbsess.c) into the same structures.
 *
 * "smbstatus -b" is a table: "PID Username Group Machine Protocol Version
 * Encryption Signing" (the last three columns since Samba 4.4), a line of
 * dashes, then one session a line.  Columns do not always line up with the
 * header, so a row is split at blanks: the Machine column is "name
 * (ipv4:addr:port)" and the parenthesised part anchors the rest.  Crypto is
 * "-", "AES-128-GMAC" (every packet), "partial(AES-128-CMAC)" (only some,
 * e.g. the session setup) or "anonymous(...)".
 */
#ifndef SMBSTATUS_H
#define SMBSTATUS_H

#include <stddef.h>

#define SMBSTATUS_MAX_SESSIONS	4096
#define SMBSTATUS_ADDR_MAX	64	/* INET6_ADDRSTRLEN and more */

/* How much of the traffic a cipher covers. */
enum smbstatus_degree {
	SMBSTATUS_UNKNOWN,	/* not reported (Samba before 4.4) */
	SMBSTATUS_NONE,		/* "-" */
	SMBSTATUS_PARTIAL,	/* some packets, e.g. only the session setup */
	SMBSTATUS_ANONYMOUS,	/* an anonymous session's */
	SMBSTATUS_FULL		/* every packet */
};

struct smbstatus_crypto {
	enum smbstatus_degree	degree;
	char			cipher[32];	/* "AES-128-GMAC"; "" none */
};

struct smbstatus_session {
	int			pid;		/* the smbd serving it; 0 unknown */
	char			user[64];
	char			group[64];
	char			machine[128];	/* the client's name or address
						 * as smbd knows it */
	char			address[SMBSTATUS_ADDR_MAX];
					/* the client's IP address: "192.0.2.7",
					 * "2001:db8::7"; "" unknown */
	char			dialect[32];	/* "SMB3_11", "NT1"; "" unknown */
	struct smbstatus_crypto	signing;
	struct smbstatus_crypto	encryption;
	/* Not from smbstatus: the caller fills these from /proc/PID/stat. */
	double			cpu_percent;	/* of one core; -1 unknown */
	int			cpu;		/* core it last ran on; -1 */
};

struct smbstatus {
	struct smbstatus_session *v;	/* caller frees with smbstatus_clear */
	size_t			 n;
	size_t			 cap;
	char			 version[64];	/* "4.17.12-Debian"; "" unknown */
	size_t			 skipped;	/* rows not understood */
};

/* Initialise an empty list. */
void	smbstatus_init(struct smbstatus *);
/* Free the sessions; st may be reused after smbstatus_init. */
void	smbstatus_clear(struct smbstatus *);
/* Empty st, keeping its allocation. */
void	smbstatus_reset(struct smbstatus *);
/*
 * Append an empty session (pid 0, cpu -1); NULL with ENOMEM, or past
 * SMBSTATUS_MAX_SESSIONS (counted in skipped, errno 0).
 */
struct smbstatus_session *smbstatus_add(struct smbstatus *);
/* Crypto from smbstatus's text: "-", "CIPHER", "partial(CIPHER)". */
void	smbstatus_crypto_parse(const char *, struct smbstatus_crypto *);
/* A degree from its JSON name ("none", "full"...). */
enum smbstatus_degree smbstatus_degree_parse(const char *);
/* A pid from "15095" or "0:15095" (vnn:pid); 0 when there is none. */
int	smbstatus_pid(const char *);
/*
 * Parse "smbstatus -b" text into st (emptied first).  -1 and EINVAL when
 * there is no session table header, ENOMEM.
 */
int	smbstatus_parse_text(const char *buf, size_t len, struct smbstatus *st,
	    const char **errstr);
/* Crypto in smbstatus's own words: "-", "AES-128-GMAC", "partial(...)". */
void	smbstatus_crypto_text(const struct smbstatus_crypto *, char *out,
	    size_t outsz);
/* The name of a degree: "none", "partial", "anonymous", "full", "unknown". */
const char *smbstatus_degree_name(enum smbstatus_degree);
/*
 * The IP address in a Samba socket address ("ipv4:192.0.2.7:50112",
 * "ipv6:2001:db8::7:50112") or a bare address, in the canonical text form
 * (an IPv4-mapped IPv6 address becomes IPv4).  -1 when there is none.
 */
int	smbstatus_address(const char *s, char *out, size_t outsz);
/*
 * 1 when addresses a and b are the same host, whatever their text form
 * ("::ffff:192.0.2.7" and "192.0.2.7" are).
 */
int	smbstatus_same_address(const char *a, const char *b);

#endif /* SMBSTATUS_H */
