/*
 * install_detect.c: what the NAS is, for nasperf install: its
 * architecture, vendor and firmware (from the files the detection script
 * sends back, read by identity.c as the daemon reads them), its init
 * system, a previous install at the prefix, and the static daemon that
 * fits it.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "install.h"
#include "install_sh.h"

/* One line of the detection script's answer. */
static void
install_detect_cb(void *arg, const char *k, char *v)
{
	struct install_remote	*r = arg;
	struct install_buf	*f = NULL;
	static const struct {
		const char	*name;
		unsigned	 bit;
	} markers[] = {
		{ "synoinfo", INSTALL_M_SYNOINFO },
		{ "dsm-version", INSTALL_M_DSMVERSION },
		{ "ulinux", INSTALL_M_ULINUX },
		{ "getcfg", INSTALL_M_GETCFG },
		{ "readynasd", INSTALL_M_READYNASD },
		{ "debian", INSTALL_M_DEBIAN },
	};
	size_t			 i;

	if (strcmp(k, "os") == 0)
		snprintf(r->os, sizeof r->os, "%s", v);
	else if (strcmp(k, "uname") == 0)
		snprintf(r->uname, sizeof r->uname, "%s", v);
	else if (strcmp(k, "uid") == 0)
		r->uid = strtol(v, NULL, 10);
	else if (strcmp(k, "pid1") == 0)
		snprintf(r->pid1, sizeof r->pid1, "%s", v);
	else if (strcmp(k, "fetch") == 0)
		snprintf(r->fetch, sizeof r->fetch, "%s", v);
	else if (strcmp(k, "busy") == 0)
		r->busy = 1;
	else if (strcmp(k, "marker") == 0) {
		for (i = 0; i < NP_NITEMS(markers); i++)
			if (strcmp(v, markers[i].name) == 0)
				r->markers |= markers[i].bit;
	} else if (strcmp(k, "exists") == 0) {
		if (strcmp(v, "qpkg") == 0)
			r->has_qpkg = 1;
		else if (strstr(v, "systemd") != NULL)
			r->has_unit = 1;
		else
			r->has_rcd = 1;
	} else if (strncmp(k, "m.", 2) == 0) {
		/* The manifest, whose lines are KEY=VALUE themselves. */
		r->installed = 1;
		if (strcmp(k + 2, "init") == 0)
			snprintf(r->old_init, sizeof r->old_init, "%s", v);
		else if (strcmp(k + 2, "unit") == 0)
			snprintf(r->old_unit, sizeof r->old_unit, "%s", v);
		else if (strcmp(k + 2, "rcd") == 0)
			snprintf(r->old_rcd, sizeof r->old_rcd, "%s", v);
		else if (strcmp(k + 2, "qpkg") == 0)
			snprintf(r->old_qpkg, sizeof r->old_qpkg, "%s", v);
	} else if (strcmp(k, "f.version") == 0)
		f = &r->f_version;
	else if (strcmp(k, "f.synoinfo") == 0)
		f = &r->f_synoinfo;
	else if (strcmp(k, "f.ulinux") == 0)
		f = &r->f_ulinux;
	else if (strcmp(k, "f.osrelease") == 0)
		f = &r->f_osrel;
	if (f != NULL && f->len + strlen(v) + 2 <= INSTALL_FILE_MAX &&
	    install_buf_add(f, v, strlen(v)) == 0)
		(void)install_buf_add(f, "\n", 1);
}

/* Our name of an architecture uname -m gives; NULL when we build none. */
static const char *
install_arch(const char *m)
{
	if (strcmp(m, "x86_64") == 0 || strcmp(m, "amd64") == 0)
		return ("x86_64");
	/* armv8l: a 32-bit userland on a 64-bit ARM kernel. */
	if (strcmp(m, "armv7l") == 0 || strcmp(m, "armv7") == 0 ||
	    strcmp(m, "armv8l") == 0 || strcmp(m, "armhf") == 0)
		return ("armhf");
	if (strcmp(m, "aarch64") == 0 || strcmp(m, "arm64") == 0)
		return ("aarch64");
	return (NULL);
}

/*
 * The vendor from its marker files: Synology's synoinfo.conf or
 * etc.defaults/VERSION, QNAP's uLinux.conf or getcfg, ReadyNAS OS's
 * os-release or readynasd, then Debian and anything else.  The identity
 * parsers that nasperfd uses fill in model and firmware.
 */
static void
install_vendor(struct install_remote *r)
{
	const char	*errstr;
	char		 id[64] = "", like[128] = "";
	const char	*p;

	memset(&r->id, 0, sizeof r->id);
	if (r->f_osrel.p != NULL) {
		(void)identity_parse_os_release(r->f_osrel.p, r->f_osrel.len,
		    &r->id, &errstr);
		for (p = r->f_osrel.p; p != NULL; p = strchr(p, '\n')) {
			p += *p == '\n';
			if (strncmp(p, "ID=", 3) == 0)
				sscanf(p + 3, "%63[^\n]", id);
			else if (strncmp(p, "ID_LIKE=", 8) == 0)
				sscanf(p + 8, "%127[^\n]", like);
		}
	}
	if (r->f_version.p != NULL)
		(void)identity_parse_version(r->f_version.p, r->f_version.len,
		    &r->id, &errstr);
	if (r->f_synoinfo.p != NULL)
		(void)identity_parse_synoinfo(r->f_synoinfo.p,
		    r->f_synoinfo.len, &r->id, &errstr);
	if (r->f_ulinux.p != NULL)
		(void)identity_parse_ulinux(r->f_ulinux.p, r->f_ulinux.len,
		    &r->id, &errstr);

	if (r->markers & (INSTALL_M_SYNOINFO | INSTALL_M_DSMVERSION))
		r->vendor = INSTALL_SYNOLOGY;
	else if (r->markers & (INSTALL_M_ULINUX | INSTALL_M_GETCFG))
		r->vendor = INSTALL_QNAP;
	else if ((r->markers & INSTALL_M_READYNASD) ||
	    r->id.vendor == IDENTITY_NETGEAR)
		r->vendor = INSTALL_READYNAS;
	else if ((r->markers & INSTALL_M_DEBIAN) ||
	    strstr(id, "debian") != NULL || strstr(like, "debian") != NULL)
		r->vendor = INSTALL_DEBIAN;
	else
		r->vendor = INSTALL_OTHER;
}

/* The vendor's name, for people ("Synology") or for JSON ("synology"). */
const char *
install_vendor_name(enum install_vendor v, int json)
{
	switch (v) {
	case INSTALL_SYNOLOGY:
		return (json ? "synology" : "Synology");
	case INSTALL_QNAP:
		return (json ? "qnap" : "QNAP");
	case INSTALL_READYNAS:
		return (json ? "readynas" : "ReadyNAS");
	case INSTALL_DEBIAN:
		return (json ? "debian" : "Debian");
	default:
		return (json ? "other" : "Linux");
	}
}

/* Free what detection kept. */
void
install_remote_clear(struct install_remote *r)
{
	install_buf_free(&r->f_version);
	install_buf_free(&r->f_synoinfo);
	install_buf_free(&r->f_ulinux);
	install_buf_free(&r->f_osrel);
}

/* The local /healthz URL the NAS itself asks. */
void
install_url(const struct install *in, char *out, size_t outsz)
{
	const char	*colon = strrchr(in->listen_addr, ':');
	int		 alen = (int)(colon - in->listen_addr);

	if (in->wildcard)
		snprintf(out, outsz, "http://%s:%u/healthz",
		    in->listen_addr[0] == '[' ? "[::1]" : "127.0.0.1",
		    in->port);
	else
		snprintf(out, outsz, "http://%.*s:%u/healthz", alen,
		    in->listen_addr, in->port);
}

/* Open the scratch directory and run detection, which starts the master. */
int
install_detect(struct install *in)
{
	struct install_buf	 out = { NULL, 0, 0 };
	char			*s = NULL, url[200];
	size_t			 len = 0;
	FILE			*fp;
	int			 status;

	if ((fp = open_memstream(&s, &len)) == NULL)
		return (client_fail("out of memory"));
	install_shvar(fp, "P", in->prefix);
	install_shvar(fp, "MANIFEST", INSTALL_MANIFEST);
	install_shvar(fp, "R", in->detect_root);
	install_url(in, url, sizeof url);
	install_shvar(fp, "URL", url);
	install_shvar(fp, "DRY", "1");
	fputs(install_common_sh, fp);
	fputs(install_detect_sh, fp);
	if (fclose(fp) != 0) {
		free(s);
		return (client_fail("out of memory"));
	}
	status = install_script(in, s, len, &out);
	free(s);
	if (status == 0)
		in->master = 1;
	else {
		if (status != 255 && status != -1)
			client_fail("%s: the detection script failed with "
			    "status %d", in->dest, status);
		install_buf_free(&out);
		return (1);
	}
	install_lines(&out, install_detect_cb, &in->r);
	install_buf_free(&out);
	if (in->r.uname[0] == '\0')
		return (client_fail("%s: no answer from the NAS's shell "
		    "(does the account have /bin/sh?)", in->dest));
	if (strcmp(in->r.os, "Linux") != 0)
		return (client_fail("%s runs %s, not Linux: nasperfd needs "
		    "Linux", in->dest, in->r.os));
	install_vendor(&in->r);
	in->r.arch = install_arch(in->r.uname);
	return (0);
}

/*
 * Find the static nasperfd for the architecture and check that it is one:
 * an ELF file for that machine.  0, or 1 with a message.
 */
int
install_binary(struct install *in)
{
	static const struct {
		const char	*arch;
		int		 class;		/* 1: 32-bit, 2: 64-bit */
		unsigned	 machine;
	} elf[] = {
		{ "x86_64", 2, 62 },		/* EM_X86_64 */
		{ "armhf", 1, 40 },		/* EM_ARM */
		{ "aarch64", 2, 183 },		/* EM_AARCH64 */
	};
	unsigned char	 h[20];
	struct stat	 st;
	unsigned	 machine;
	size_t		 i;
	int		 fd;

	if (in->r.arch == NULL)
		return (client_fail("%s: unknown architecture: uname -m says "
		    "'%s'; nasperfd is built for x86_64, armhf (armv7l) and "
		    "aarch64", in->dest, in->r.uname));
	snprintf(in->binary, sizeof in->binary, "%s/%s/nasperfd", in->bindir,
	    in->r.arch);
	if ((fd = open(in->binary, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
		if (fd != -1)
			close(fd);
		return (client_fail("no nasperfd for %s (uname -m: %s): %s: "
		    "%s; build the static daemons with make static, or give "
		    "the directory holding %s/nasperfd with --binaries DIR",
		    in->r.arch, in->r.uname, in->binary, strerror(errno),
		    in->r.arch));
	}
	in->binsize = st.st_size;
	if (read(fd, h, sizeof h) != (ssize_t)sizeof h ||
	    memcmp(h, "\177ELF", 4) != 0) {
		close(fd);
		return (client_fail("%s: not an ELF program", in->binary));
	}
	close(fd);
	machine = (unsigned)h[18] | (unsigned)h[19] << 8;	/* LE */
	for (i = 0; i < NP_NITEMS(elf); i++)
		if (strcmp(elf[i].arch, in->r.arch) == 0 &&
		    (elf[i].class != h[4] || elf[i].machine != machine))
			return (client_fail("%s is not a program for %s "
			    "(ELF class %u, machine %u)", in->binary,
			    in->r.arch, h[4], machine));
	return (0);
}

/* Choose how the daemon is started; 0, or 1 with a message. */
int
install_choose_init(struct install *in)
{
	struct install_remote	*r = &in->r;
	int			 systemd = strcmp(r->pid1, "systemd") == 0;
	int			 vendor = r->vendor == INSTALL_SYNOLOGY ||
				    r->vendor == INSTALL_QNAP;
	enum install_init	 init = in->init_opt;

	if (init != INSTALL_INIT_PLAIN && init != INSTALL_INIT_AUTO &&
	    r->uid != 0)
		return (client_fail("%s: --init %s needs root on the NAS; "
		    "log in as root (or use --init plain)", in->dest,
		    init == INSTALL_INIT_SYSTEMD ? "systemd" : "vendor"));
	if (init == INSTALL_INIT_SYSTEMD && !systemd)
		return (client_fail("%s: --init systemd: systemd is not PID 1 "
		    "there (PID 1 is %s)", in->dest, r->pid1[0] != '\0' ?
		    r->pid1 : "unknown"));
	if (init == INSTALL_INIT_VENDOR && !vendor)
		return (client_fail("%s: --init vendor: no vendor init known "
		    "for %s (Synology and QNAP have one)", in->dest,
		    install_vendor_name(r->vendor, 0)));
	if (init == INSTALL_INIT_AUTO) {
		if (r->uid != 0) {
			init = INSTALL_INIT_PLAIN;
			in->init_why = "not root on the NAS: not started at "
			    "boot";
		} else if (systemd)
			init = INSTALL_INIT_SYSTEMD;
		else if (vendor)
			init = INSTALL_INIT_VENDOR;
		else {
			init = INSTALL_INIT_PLAIN;
			in->init_why = "no systemd or vendor init there: not "
			    "started at boot";
		}
	}
	if (init == INSTALL_INIT_SYSTEMD)
		in->init_name = "systemd";
	else if (init == INSTALL_INIT_VENDOR)
		in->init_name = r->vendor == INSTALL_SYNOLOGY ?
		    "synology-rc.d" : "qnap-qpkg";
	else
		in->init_name = "plain";

	/* Never take over what another install of nasperfd owns. */
	if (strcmp(in->init_name, "systemd") == 0 && r->has_unit &&
	    strcmp(r->old_unit, "/etc/systemd/system/nasperfd.service") != 0)
		return (client_fail("%s: /etc/systemd/system/nasperfd.service "
		    "exists and is not from an install at %s: remove it first, "
		    "or use --init plain", in->dest, in->prefix));
	if (strcmp(in->init_name, "synology-rc.d") == 0 && r->has_rcd &&
	    r->old_rcd[0] == '\0')
		return (client_fail("%s: /usr/local/etc/rc.d/nasperfd.sh "
		    "exists and is not from an install at %s: remove it first, "
		    "or use --init plain", in->dest, in->prefix));
	if (strcmp(in->init_name, "qnap-qpkg") == 0 && r->has_qpkg &&
	    r->old_qpkg[0] == '\0')
		return (client_fail("%s: a QPKG named nasperfd is installed "
		    "(App Center): remove it first, or use --init plain",
		    in->dest));
	if (r->busy && !r->installed)
		return (client_fail("%s: something already answers %s:%u "
		    "/healthz there (another nasperfd?): choose another "
		    "address or port with --listen", in->dest,
		    in->wildcard ? "*" : in->listen_addr, in->port));
	return (0);
}
