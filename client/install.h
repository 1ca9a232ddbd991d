/*
 * install.h: what nasperf install and uninstall share between their three
 * files: cmd_install.c (the commands: options, the plan, the files written
 * on the NAS, the result), install_ssh.c (OpenSSH run as a child: the
 * control master, scripts read by sh -s, their np.KEY=VALUE answers, the
 * upload) and install_detect.c (what the box is: architecture, vendor,
 * init system, a previous install, and the daemon binary that fits).
 */
#ifndef INSTALL_H
#define INSTALL_H

#include <sys/types.h>

#include <stdio.h>

#include "client.h"
#include "identity.h"

#ifndef NASPERF_STATIC_DIR
#define NASPERF_STATIC_DIR	"/usr/local/lib/nasperf/static"
#endif
#define INSTALL_PREFIX		"/opt/nasperf"
#define INSTALL_LISTEN		"0.0.0.0:9631"
#define INSTALL_MANIFEST	".nasperf-install"
#define INSTALL_MAX_SSHARGS	64	/* -p, -i, -F, -o and their values */
#define INSTALL_OUT_MAX		(4U << 20)	/* what a script may print */
#define INSTALL_FILE_MAX	65536	/* a vendor file, as sent */
#define INSTALL_PATH_MAX	256
#define INSTALL_MAX_FILES	12

/* How nasperfd is started on the NAS, and started again at boot. */
enum install_init {
	INSTALL_INIT_AUTO,
	INSTALL_INIT_SYSTEMD,		/* a unit, where systemd is PID 1 */
	INSTALL_INIT_VENDOR,		/* Synology rc.d, QNAP qpkg.conf */
	INSTALL_INIT_PLAIN		/* a background process, a pid file */
};

enum install_vendor {
	INSTALL_OTHER,
	INSTALL_DEBIAN,
	INSTALL_SYNOLOGY,
	INSTALL_QNAP,
	INSTALL_READYNAS
};

/* A growing buffer: a child's output, a vendor file. */
struct install_buf {
	char	*p;
	size_t	 len, cap;
};

/* What the detection script found on the NAS. */
struct install_remote {
	char			 os[32];	/* uname -s */
	char			 uname[64];	/* uname -m */
	const char		*arch;		/* our name; NULL if unknown */
	long			 uid;
	char			 pid1[64];	/* /proc/1/comm */
	char			 fetch[16];	/* curl, wget or "" */
	unsigned		 markers;	/* INSTALL_M_* */
	enum install_vendor	 vendor;
	struct identity		 id;		/* model, firmware, os */
	int			 installed;	/* a manifest at the prefix */
	int			 busy;		/* the port already answers */
	char			 old_init[32];	/* the manifest's init */
	char			 old_unit[INSTALL_PATH_MAX];
	char			 old_rcd[INSTALL_PATH_MAX];
	char			 old_qpkg[64];
	int			 has_unit, has_rcd, has_qpkg;
	struct install_buf	 f_version, f_synoinfo, f_ulinux, f_osrel;
};

#define INSTALL_M_SYNOINFO	0x01
#define INSTALL_M_DSMVERSION	0x02
#define INSTALL_M_ULINUX	0x04
#define INSTALL_M_GETCFG	0x08
#define INSTALL_M_READYNASD	0x10
#define INSTALL_M_DEBIAN	0x20

/* One install or uninstall. */
struct install {
	struct client		*c;
	const char		*dest;		/* [user@]host */
	const char		*sshargs[INSTALL_MAX_SSHARGS];
	size_t			 nsshargs;
	char			 prefix[INSTALL_PATH_MAX];
	char			 state[INSTALL_PATH_MAX];
	const char		*bindir;
	char			 listen_addr[128];	/* as in the config */
	unsigned		 port;
	int			 wildcard;	/* listens on every address */
	enum install_init	 init_opt;
	const char		*save_token;
	int			 dry_run;
	const char		*detect_root;	/* NASPERF_DETECT_ROOT */
	int			 batch;		/* BatchMode: no terminal */
	int			 mux;		/* sessions share a master */

	char			 tmpdir[64];	/* control socket, scratch */
	int			 master;	/* the control master runs */
	char			 hostname[256];	/* ssh -G hostname */
	char			 sshport[16];	/* ssh -G port */

	struct install_remote	 r;
	const char		*init_name;	/* "systemd", "plain" ... */
	const char		*init_why;
	char			 binary[INSTALL_PATH_MAX + 32];
	off_t			 binsize;
};

/* install_ssh.c: the SSH runner */
int	install_buf_add(struct install_buf *b, const char *s, size_t n);
void	install_buf_free(struct install_buf *b);
void	install_shvar(FILE *fp, const char *name, const char *value);
void	install_resolve(struct install *in);
int	install_script(struct install *in, const char *script,
	    size_t len, struct install_buf *out);
void	install_close(struct install *in);
void	install_lines(struct install_buf *out, void (*fn)(void *,
	    const char *, char *), void *arg);
int	install_upload(struct install *in, char *up, size_t upsz);

/* install_detect.c: the box */
int	install_detect(struct install *in);
int	install_binary(struct install *in);
int	install_choose_init(struct install *in);
void	install_url(const struct install *in, char *out, size_t outsz);
const char	*install_vendor_name(enum install_vendor v, int json);
void	install_remote_clear(struct install_remote *r);

#endif
