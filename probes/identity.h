/*
 * identity.h: which NAS this is, its firmware and its kernel.
 *
 * Synology: <root>/etc.defaults/VERSION (then etc/VERSION) for the DSM
 * version, etc/synoinfo.conf for the model (upnpmodelname) and the platform
 * (unique="synology_<platform>_<model>"), which the kernel also appends to
 * uname and /proc/version.  QNAP: etc/config/uLinux.conf [System] and
 * etc/os-release (NAME="QTS"), a "-qnap" kernel release.  ReadyNAS OS 6:
 * etc/os-release NAME="ReadyNASOS".  Anything else is generic Linux named
 * by os-release and the DMI vendor and product.  Fixed-size: nothing to free.
 */
#ifndef IDENTITY_H
#define IDENTITY_H

#include <stddef.h>

#include "probe.h"

enum identity_vendor {
	IDENTITY_GENERIC,
	IDENTITY_SYNOLOGY,
	IDENTITY_QNAP,
	IDENTITY_NETGEAR		/* ReadyNAS */
};

struct identity {
	enum identity_vendor vendor;
	char		model[64];	/* "DS1821+", "TVS-872X", DMI product; "" */
	char		os[64];		/* "DSM", "QTS", "ReadyNASOS", os-release NAME */
	char		firmware[96];	/* "7.2.1-69057 Update 5", "5.2.3 build 20250108" */
	char		build[32];	/* "69057", "20250108"; "" */
	char		pretty_name[128];	/* os-release PRETTY_NAME; "" */
	char		kernel[64];	/* release, "4.4.302+" */
	char		kernel_version[128];	/* "#69057 SMP Fri Jan 12 …" */
	char		arch[32];	/* "x86_64", "armv7l"; "" when unknown */
	char		hostname[64];
	char		platform[32];	/* Synology "v1000", "armada38x"; "" */
	char		dmi_vendor[64];	/* sys/class/dmi/id/sys_vendor; "" */
};

/*
 * Read the identity of the box under root.  Fields that cannot be read are
 * "".  0, or -1 with errno ENOENT when nothing at all was readable.
 */
int	identity_read(const struct probe_root *, struct probe_buf *,
	    struct identity *);
/* "Synology", "QNAP", "NETGEAR" or "generic". */
const char *identity_vendor_name(enum identity_vendor);

/*
 * The pure parsers identity_read() is built from; each fills only the
 * fields its text has and leaves the others as they are.  Tests and the
 * fuzzer call them directly.  0, or -1 with EINVAL and *errstr.
 */
/* Synology etc/VERSION: os, firmware, build. */
int	identity_parse_version(const char *, size_t, struct identity *,
	    const char **);
/* Synology etc/synoinfo.conf: model and platform. */
int	identity_parse_synoinfo(const char *, size_t, struct identity *,
	    const char **);
/* QNAP etc/config/uLinux.conf [System]: model, firmware, build. */
int	identity_parse_ulinux(const char *, size_t, struct identity *,
	    const char **);
/* etc/os-release: os (NAME), pretty_name, and the vendor it names. */
int	identity_parse_os_release(const char *, size_t, struct identity *,
	    const char **);
/*
 * A "uname -a" line ("Linux host 3.10.105 #24922 SMP … armv7l GNU/Linux
 * synology_armada38x_ds216j") or the text of /proc/version ("Linux version
 * 4.4.302+ (…) (gcc …) #69057 SMP … synology_v1000_1821+"): kernel,
 * kernel_version, arch and hostname when given, platform and the vendor.
 */
int	identity_parse_uname(const char *, size_t, struct identity *,
	    const char **);

#endif /* IDENTITY_H */
