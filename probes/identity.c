/*
 * identity.c: vendor, model, firmware and kernel of the box.
 */
#include "config.h"

#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuinfo.h"
#include "identity.h"

#define IDENTITY_MAX_WORDS	64

/* Copy v into out, or "" when it does not fit. */
static void
identity_copy(char *out, size_t outsz, const char *v)
{
	if (probe_strlcpy(out, v, outsz) == -1)
		out[0] = '\0';
}

/* Copy the n bytes at v into out with blanks trimmed; "" if it does not fit. */
static void
identity_copyn(char *out, size_t outsz, const char *v, size_t n)
{
	while (n > 0 && (*v == ' ' || *v == '\t')) {
		v++;
		n--;
	}
	while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t' ||
	    v[n - 1] == '\r' || v[n - 1] == '\n'))
		n--;
	if (n >= outsz) {
		out[0] = '\0';
		return;
	}
	memcpy(out, v, n);
	out[n] = '\0';
}

/*
 * Find key in shell-style key=value text (VERSION, synoinfo.conf,
 * os-release) and copy its value, unquoted, into out.  -1 when absent.
 */
static int
identity_kv(const char *s, size_t len, const char *key, char *out,
    size_t outsz)
{
	const char	*end = s + len, *eol, *v;
	size_t		 klen = strlen(key), n;

	for (; s < end; s = eol + 1) {
		if ((eol = memchr(s, '\n', (size_t)(end - s))) == NULL)
			eol = end;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (s + klen >= eol || memcmp(s, key, klen) != 0 ||
		    s[klen] != '=')
			continue;
		v = s + klen + 1;
		n = (size_t)(eol - v);
		while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t' ||
		    v[n - 1] == '\r'))
			n--;
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') &&
		    v[n - 1] == v[0]) {
			v++;
			n -= 2;
		} else if (n >= 1 && (v[0] == '"' || v[0] == '\'')) {
			v++;		/* an unclosed quote: take the rest */
			n--;
		}
		identity_copyn(out, outsz, v, n);
		return (0);
	}
	return (-1);
}

/* The vendor's name as the API shows it. */
const char *
identity_vendor_name(enum identity_vendor v)
{
	switch (v) {
	case IDENTITY_SYNOLOGY:
		return ("Synology");
	case IDENTITY_QNAP:
		return ("QNAP");
	case IDENTITY_NETGEAR:
		return ("NETGEAR");
	default:
		return ("generic");
	}
}

/* Fail a parse with EINVAL and a reason. */
static int
identity_invalid(const char **errstr, const char *why)
{
	if (errstr != NULL)
		*errstr = why;
	errno = EINVAL;
	return (-1);
}

/* Synology etc/VERSION: os, firmware ("7.2.1-69057 Update 5"), build. */
int
identity_parse_version(const char *s, size_t len, struct identity *id,
    const char **errstr)
{
	char	prod[32], build[32], fix[16], major[16], minor[16], os[32];

	if (errstr != NULL)
		*errstr = NULL;
	if (identity_kv(s, len, "buildnumber", build, sizeof build) == -1 ||
	    build[0] == '\0')
		return (identity_invalid(errstr, "no buildnumber"));
	if (identity_kv(s, len, "productversion", prod, sizeof prod) == -1 ||
	    prod[0] == '\0') {
		/* DSM 5 and older: majorversion.minorversion only. */
		if (identity_kv(s, len, "majorversion", major,
		    sizeof major) == -1 ||
		    identity_kv(s, len, "minorversion", minor,
		    sizeof minor) == -1)
			return (identity_invalid(errstr, "no productversion"));
		snprintf(prod, sizeof prod, "%.15s.%.15s", major, minor);
	}
	if (identity_kv(s, len, "smallfixnumber", fix, sizeof fix) == -1)
		fix[0] = '\0';
	if (identity_kv(s, len, "os_name", os, sizeof os) == -1 ||
	    os[0] == '\0')
		identity_copy(os, sizeof os, "DSM");

	id->vendor = IDENTITY_SYNOLOGY;
	identity_copy(id->os, sizeof id->os, os);
	identity_copy(id->build, sizeof id->build, build);
	if (fix[0] != '\0' && strcmp(fix, "0") != 0)
		snprintf(id->firmware, sizeof id->firmware, "%s-%s Update %s",
		    prod, build, fix);
	else
		snprintf(id->firmware, sizeof id->firmware, "%s-%s", prod,
		    build);
	return (0);
}

/* Set the platform from a "synology_<platform>_<model>" word. */
static int
identity_syno_unique(struct identity *id, const char *u)
{
	const char	*p, *us;

	if (strncmp(u, "synology_", 9) != 0)
		return (-1);
	p = u + 9;
	if ((us = strchr(p, '_')) == NULL || us == p)
		return (-1);
	identity_copyn(id->platform, sizeof id->platform, p, (size_t)(us - p));
	id->vendor = IDENTITY_SYNOLOGY;
	return (0);
}

/* Synology etc/synoinfo.conf: model (upnpmodelname) and platform (unique). */
int
identity_parse_synoinfo(const char *s, size_t len, struct identity *id,
    const char **errstr)
{
	char	model[64], unique[96];
	int	found = 0;

	if (errstr != NULL)
		*errstr = NULL;
	if (identity_kv(s, len, "upnpmodelname", model, sizeof model) == 0 &&
	    model[0] != '\0') {
		identity_copy(id->model, sizeof id->model, model);
		found = 1;
	}
	if (identity_kv(s, len, "unique", unique, sizeof unique) == 0 &&
	    identity_syno_unique(id, unique) == 0)
		found = 1;
	if (!found)
		return (identity_invalid(errstr, "no upnpmodelname or unique"));
	id->vendor = IDENTITY_SYNOLOGY;
	return (0);
}

/* QNAP etc/config/uLinux.conf [System]: model, firmware, build. */
int
identity_parse_ulinux(const char *s, size_t len, struct identity *id,
    const char **errstr)
{
	const char	*end = s + len, *eol, *eq;
	char		 key[64], val[64], model[64], version[32], build[32];
	int		 insys = 0;

	if (errstr != NULL)
		*errstr = NULL;
	model[0] = version[0] = build[0] = '\0';
	for (; s < end; s = eol + 1) {
		if ((eol = memchr(s, '\n', (size_t)(end - s))) == NULL)
			eol = end;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (s < eol && *s == '[') {
			insys = (size_t)(eol - s) >= 8 &&
			    memcmp(s, "[System]", 8) == 0;
			continue;
		}
		if (!insys || (eq = memchr(s, '=', (size_t)(eol - s))) == NULL)
			continue;
		identity_copyn(key, sizeof key, s, (size_t)(eq - s));
		identity_copyn(val, sizeof val, eq + 1, (size_t)(eol - eq - 1));
		if (strcmp(key, "Model") == 0)
			identity_copy(model, sizeof model, val);
		else if (strcmp(key, "Version") == 0)
			identity_copy(version, sizeof version, val);
		else if (strcmp(key, "Build Number") == 0)
			identity_copy(build, sizeof build, val);
	}
	if (model[0] == '\0' && version[0] == '\0')
		return (identity_invalid(errstr, "no [System] Model or Version"));
	id->vendor = IDENTITY_QNAP;
	if (model[0] != '\0')
		identity_copy(id->model, sizeof id->model, model);
	if (id->os[0] == '\0')
		identity_copy(id->os, sizeof id->os, "QTS");
	if (version[0] != '\0') {
		if (build[0] != '\0')
			snprintf(id->firmware, sizeof id->firmware,
			    "%s build %s", version, build);
		else
			identity_copy(id->firmware, sizeof id->firmware,
			    version);
	}
	if (build[0] != '\0')
		identity_copy(id->build, sizeof id->build, build);
	return (0);
}

/* etc/os-release: os, pretty_name, and for QTS and ReadyNAS the firmware. */
int
identity_parse_os_release(const char *s, size_t len, struct identity *id,
    const char **errstr)
{
	char		 name[64], osid[32], pretty[128], vid[32], ver[64];
	const char	*lp, *rp;

	if (errstr != NULL)
		*errstr = NULL;
	if (identity_kv(s, len, "NAME", name, sizeof name) == -1)
		name[0] = '\0';
	if (identity_kv(s, len, "ID", osid, sizeof osid) == -1)
		osid[0] = '\0';
	if (identity_kv(s, len, "PRETTY_NAME", pretty, sizeof pretty) == -1)
		pretty[0] = '\0';
	if (identity_kv(s, len, "VERSION_ID", vid, sizeof vid) == -1)
		vid[0] = '\0';
	if (identity_kv(s, len, "VERSION", ver, sizeof ver) == -1)
		ver[0] = '\0';
	if (name[0] == '\0' && pretty[0] == '\0')
		return (identity_invalid(errstr, "no NAME or PRETTY_NAME"));

	if (pretty[0] != '\0')
		identity_copy(id->pretty_name, sizeof id->pretty_name, pretty);
	if (id->os[0] == '\0')
		identity_copy(id->os, sizeof id->os,
		    name[0] != '\0' ? name : pretty);

	if (strcmp(name, "QTS") == 0 || strcmp(osid, "qts") == 0 ||
	    strcmp(name, "QuTS hero") == 0) {
		id->vendor = IDENTITY_QNAP;
		/* VERSION="5.2.3 (20250108)": the build in parentheses. */
		if ((lp = strchr(ver, '(')) != NULL &&
		    (rp = strchr(lp, ')')) != NULL && rp > lp + 1 &&
		    id->build[0] == '\0')
			identity_copyn(id->build, sizeof id->build, lp + 1,
			    (size_t)(rp - lp - 1));
		if (id->firmware[0] == '\0' && vid[0] != '\0') {
			if (id->build[0] != '\0')
				snprintf(id->firmware, sizeof id->firmware,
				    "%s build %s", vid, id->build);
			else
				identity_copy(id->firmware,
				    sizeof id->firmware, vid);
		}
	} else if (strcmp(name, "ReadyNASOS") == 0 ||
	    strcmp(osid, "readynasos") == 0) {
		id->vendor = IDENTITY_NETGEAR;
		if (id->firmware[0] == '\0')
			identity_copy(id->firmware, sizeof id->firmware,
			    vid[0] != '\0' ? vid : ver);
	} else if (id->vendor == IDENTITY_GENERIC && id->firmware[0] == '\0')
		identity_copy(id->firmware, sizeof id->firmware,
		    vid[0] != '\0' ? vid : ver);
	return (0);
}

/* 1 if w looks like a uname -m value. */
static int
identity_is_arch(const char *w)
{
	static const char *const arches[] = {
		"x86_64", "i386", "i486", "i586", "i686", "aarch64",
		"armv5tel", "armv5l", "armv6l", "armv7l", "armv8l", "ppc",
		"ppc64", "ppc64le", "mips", "mips64", "riscv64", "s390x"
	};
	size_t	i;

	for (i = 0; i < NP_NITEMS(arches); i++)
		if (strcmp(w, arches[i]) == 0)
			return (1);
	return (0);
}

/* Note the vendor a kernel release names ("5.10.60-qnap"). */
static void
identity_release_vendor(struct identity *id, const char *rel)
{
	size_t	n = strlen(rel);

	if (id->vendor == IDENTITY_GENERIC && n > 5 &&
	    strcmp(rel + n - 5, "-qnap") == 0)
		id->vendor = IDENTITY_QNAP;
}

/* Parse the text of /proc/version: after "Linux version ". */
static int
identity_parse_proc_version(const char *s, const char *end,
    struct identity *id, const char **errstr)
{
	const char	*p, *w;
	int		 depth;

	p = s + 14;
	while (p < end && *p == ' ')
		p++;
	for (w = p; p < end && *p != ' ' && *p != '\n'; p++)
		;
	if (p == w)
		return (identity_invalid(errstr, "no kernel release"));
	identity_copyn(id->kernel, sizeof id->kernel, w, (size_t)(p - w));
	identity_release_vendor(id, id->kernel);

	/* Skip "(builder@host) (compiler (…) )", parentheses nested. */
	for (;;) {
		while (p < end && *p == ' ')
			p++;
		if (p == end || *p != '(')
			break;
		for (depth = 0; p < end && *p != '\n'; p++) {
			if (*p == '(')
				depth++;
			else if (*p == ')' && --depth == 0) {
				p++;
				break;
			}
		}
		if (depth != 0)
			return (identity_invalid(errstr,
			    "unbalanced parentheses"));
	}
	for (w = p; p < end && *p != '\n'; p++)
		;
	while (p > w && (p[-1] == ' ' || p[-1] == '\r'))
		p--;
	/* A trailing synology_<platform>_<model> word (DSM kernels). */
	for (s = p; s > w && s[-1] != ' '; s--)
		;
	if (s > w && (size_t)(p - s) > 9 && strncmp(s, "synology_", 9) == 0) {
		char	word[96];

		identity_copyn(word, sizeof word, s, (size_t)(p - s));
		(void)identity_syno_unique(id, word);
		p = s;
	}
	identity_copyn(id->kernel_version, sizeof id->kernel_version, w,
	    (size_t)(p - w));
	return (0);
}

/* A uname -a line or the text of /proc/version. */
int
identity_parse_uname(const char *s, size_t len, struct identity *id,
    const char **errstr)
{
	const char	*end, *p;
	const char	*words[IDENTITY_MAX_WORDS] = { NULL };
	const char	*wend[IDENTITY_MAX_WORDS] = { NULL };
	size_t		 n = 0, i, g;

	if (errstr != NULL)
		*errstr = NULL;
	if ((end = memchr(s, '\n', len)) == NULL)
		end = s + len;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s + 14 <= end && memcmp(s, "Linux version ", 14) == 0)
		return (identity_parse_proc_version(s, end, id, errstr));

	for (p = s; p < end && n < IDENTITY_MAX_WORDS;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			break;
		words[n] = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		wend[n++] = p;
	}
	if (n < 4 || wend[0] != words[0] + 5 ||
	    memcmp(words[0], "Linux", 5) != 0)
		return (identity_invalid(errstr, "not a Linux uname line"));

	/* Linux host release #version… machine [GNU/Linux] [platform] */
	for (g = n; g > 3; g--)
		if ((size_t)(wend[g - 1] - words[g - 1]) == 9 &&
		    memcmp(words[g - 1], "GNU/Linux", 9) == 0)
			break;
	if (g > 3) {
		for (i = g; i < n; i++) {
			char	word[96];

			identity_copyn(word, sizeof word, words[i],
			    (size_t)(wend[i] - words[i]));
			(void)identity_syno_unique(id, word);
		}
		g--;		/* the GNU/Linux word itself */
	} else {
		g = n;
		if (n > 4) {
			char	word[96];

			identity_copyn(word, sizeof word, words[n - 1],
			    (size_t)(wend[n - 1] - words[n - 1]));
			if (identity_syno_unique(id, word) == 0)
				g--;
		}
	}
	/* words[g - 1] is the machine when it looks like one. */
	if (g > 4) {
		char	word[32];

		identity_copyn(word, sizeof word, words[g - 1],
		    (size_t)(wend[g - 1] - words[g - 1]));
		if (identity_is_arch(word)) {
			identity_copy(id->arch, sizeof id->arch, word);
			g--;
		}
	}
	identity_copyn(id->hostname, sizeof id->hostname, words[1],
	    (size_t)(wend[1] - words[1]));
	identity_copyn(id->kernel, sizeof id->kernel, words[2],
	    (size_t)(wend[2] - words[2]));
	identity_release_vendor(id, id->kernel);
	if (g > 3)
		identity_copyn(id->kernel_version, sizeof id->kernel_version,
		    words[3], (size_t)(wend[g - 1] - words[3]));
	return (0);
}

/* Read a small file and run one of the parsers on it; 1 if it was read. */
static int
identity_file(const struct probe_root *root, struct probe_buf *b,
    enum probe_fs fs, const char *rel, struct identity *id,
    int (*parse)(const char *, size_t, struct identity *, const char **))
{
	if (probe_read(root, fs, rel, b) == -1)
		return (0);
	(void)parse(b->p, b->len, id, NULL);
	return (1);
}

/* Read a one-line attribute into out; 1 if it was read and is not empty. */
static int
identity_attr(const struct probe_root *root, enum probe_fs fs,
    const char *rel, char *out, size_t outsz)
{
	char	buf[256];
	size_t	n;

	if (probe_read_attr(root, fs, rel, buf, sizeof buf) == -1)
		return (0);
	/* A device-tree string ends in NUL; "To be filled by O.E.M." stays. */
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	if (n == 0)
		return (0);
	identity_copy(out, outsz, buf);
	return (1);
}

/* Read the identity of the box under root. */
int
identity_read(const struct probe_root *root, struct probe_buf *b,
    struct identity *id)
{
	struct cpuinfo	*ci = NULL;
	const char	*arch;
	char		 product[64];
	int		 got = 0;

	memset(id, 0, sizeof *id);

	got |= identity_file(root, b, PROBE_PROC, "version", id,
	    identity_parse_uname);
	got |= identity_attr(root, PROBE_PROC, "sys/kernel/osrelease",
	    id->kernel, sizeof id->kernel);
	identity_release_vendor(id, id->kernel);
	got |= identity_attr(root, PROBE_PROC, "sys/kernel/version",
	    id->kernel_version, sizeof id->kernel_version);
	if (!identity_attr(root, PROBE_PROC, "sys/kernel/hostname",
	    id->hostname, sizeof id->hostname))
		(void)identity_attr(root, PROBE_ETC, "hostname",
		    id->hostname, sizeof id->hostname);
	else
		got = 1;
	(void)identity_attr(root, PROBE_PROC, "sys/kernel/arch", id->arch,
	    sizeof id->arch);

	/* Synology: the shipped VERSION first, the live copy second. */
	if (!identity_file(root, b, PROBE_ROOT, "etc.defaults/VERSION", id,
	    identity_parse_version))
		got |= identity_file(root, b, PROBE_ETC, "VERSION", id,
		    identity_parse_version);
	else
		got = 1;
	if (!identity_file(root, b, PROBE_ETC, "synoinfo.conf", id,
	    identity_parse_synoinfo))
		got |= identity_file(root, b, PROBE_ROOT,
		    "etc.defaults/synoinfo.conf", id, identity_parse_synoinfo);
	else
		got = 1;

	/* QNAP: uLinux.conf before os-release, which has no model. */
	got |= identity_file(root, b, PROBE_ETC, "config/uLinux.conf", id,
	    identity_parse_ulinux);
	if (!identity_file(root, b, PROBE_ETC, "os-release", id,
	    identity_parse_os_release))
		got |= identity_file(root, b, PROBE_ROOT, "usr/lib/os-release",
		    id, identity_parse_os_release);
	else
		got = 1;

	/* The board: DMI on x86, the device tree's model on ARM. */
	got |= identity_attr(root, PROBE_SYS, "class/dmi/id/sys_vendor",
	    id->dmi_vendor, sizeof id->dmi_vendor);
	if (id->model[0] == '\0') {
		product[0] = '\0';
		if (identity_attr(root, PROBE_SYS, "class/dmi/id/product_name",
		    product, sizeof product) ||
		    identity_attr(root, PROBE_SYS,
		    "firmware/devicetree/base/model", product,
		    sizeof product) ||
		    identity_attr(root, PROBE_PROC, "device-tree/model",
		    product, sizeof product)) {
			got = 1;
			/* "NETGEAR ReadyNAS 104": the vendor is said apart. */
			if (strncmp(product, "NETGEAR ", 8) == 0)
				identity_copy(id->model, sizeof id->model,
				    product + 8);
			else
				identity_copy(id->model, sizeof id->model,
				    product);
		}
	}

	/* The machine, when neither uname nor kernel.arch said it. */
	if (id->arch[0] == '\0' && (ci = malloc(sizeof *ci)) != NULL &&
	    probe_read(root, PROBE_PROC, "cpuinfo", b) == 0 &&
	    cpuinfo_parse(b->p, b->len, ci, NULL) == 0 &&
	    (arch = cpuinfo_arch(ci)) != NULL)
		identity_copy(id->arch, sizeof id->arch, arch);
	free(ci);

	if (!got) {
		errno = ENOENT;
		return (-1);
	}
	return (0);
}
