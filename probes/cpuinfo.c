/*
 * cpuinfo.c: /proc/cpuinfo.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpuinfo.h"

/* ARM core names by implementer and part, for arm64 boxes that print none. */
static const struct {
	int		 implementer;
	int		 part;
	const char	*name;
} cpuinfo_parts[] = {
	{ 0x41, 0xb76, "ARM1176" },
	{ 0x41, 0xc05, "Cortex-A5" },
	{ 0x41, 0xc07, "Cortex-A7" },
	{ 0x41, 0xc09, "Cortex-A9" },
	{ 0x41, 0xc0f, "Cortex-A15" },
	{ 0x41, 0xd03, "Cortex-A53" },
	{ 0x41, 0xd04, "Cortex-A35" },
	{ 0x41, 0xd05, "Cortex-A55" },
	{ 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" },
	{ 0x41, 0xd09, "Cortex-A73" },
	{ 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse-N1" },
	{ 0x56, 0x131, "Feroceon 88FR131" },
	{ 0x56, 0x581, "PJ4/PJ4b" },
	{ 0x56, 0x584, "PJ4B-MP" },
};

/* ARM implementer names by code. */
static const struct {
	int		 implementer;
	const char	*name;
} cpuinfo_implementers[] = {
	{ 0x41, "ARM" },
	{ 0x42, "Broadcom" },
	{ 0x43, "Cavium" },
	{ 0x48, "HiSilicon" },
	{ 0x4e, "NVIDIA" },
	{ 0x51, "Qualcomm" },
	{ 0x56, "Marvell" },
	{ 0x61, "Apple" },
	{ 0x69, "Intel" },
};

/* Copy v into out, or "" when it does not fit. */
static void
cpuinfo_copy(char *out, size_t outsz, const char *v)
{
	if (probe_strlcpy(out, v, outsz) == -1)
		out[0] = '\0';
}

/* A number in C notation ("0x41", "7", "5TE" gives 5); -1 if none. */
static int64_t
cpuinfo_number(const char *v)
{
	char		*end;
	long long	 n;

	errno = 0;
	n = strtoll(v, &end, 0);
	if (end == v || errno != 0 || n < 0)
		return (-1);
	return ((int64_t)n);
}

/* Store a flags or Features list with single spaces between the words. */
static void
cpuinfo_flags(struct cpuinfo *ci, const char *v)
{
	size_t	n = 0;

	while (*v != '\0') {
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v == '\0')
			break;
		if (n != 0) {
			if (n + 1 >= sizeof ci->flags)
				goto full;
			ci->flags[n++] = ' ';
		}
		while (*v != '\0' && *v != ' ' && *v != '\t') {
			if (n + 1 >= sizeof ci->flags)
				goto full;
			ci->flags[n++] = *v++;
		}
	}
	ci->flags[n] = '\0';
	return;
full:
	/* Drop the partial word. */
	while (n > 0 && ci->flags[n - 1] != ' ')
		n--;
	while (n > 0 && ci->flags[n - 1] == ' ')
		n--;
	ci->flags[n] = '\0';
	ci->flags_truncated = 1;
}

/* Name the CPU from its ARM implementer and part when nothing else did. */
static void
cpuinfo_arm_names(struct cpuinfo *ci)
{
	size_t	i;

	if (ci->vendor[0] == '\0')
		for (i = 0; i < NP_NITEMS(cpuinfo_implementers); i++)
			if (cpuinfo_implementers[i].implementer ==
			    ci->implementer)
				cpuinfo_copy(ci->vendor, sizeof ci->vendor,
				    cpuinfo_implementers[i].name);
	for (i = 0; i < NP_NITEMS(cpuinfo_parts); i++)
		if (cpuinfo_parts[i].implementer == ci->implementer &&
		    cpuinfo_parts[i].part == ci->part)
			cpuinfo_copy(ci->core, sizeof ci->core,
			    cpuinfo_parts[i].name);
	if (ci->model[0] == '\0')
		cpuinfo_copy(ci->model, sizeof ci->model, ci->core);
}

/* Parse the text of /proc/cpuinfo. */
int
cpuinfo_parse(const char *s, size_t len, struct cpuinfo *ci,
    const char **errstr)
{
	const char	*end = s + len, *eol;
	char		 line[8192], *k, *v, *e;
	size_t		 n;
	int		 have_mhz = 0, have_flags = 0;
	int64_t		 num;

	memset(ci, 0, sizeof *ci);
	ci->mhz = -1;
	ci->implementer = -1;
	ci->part = -1;
	if (errstr != NULL)
		*errstr = NULL;

	for (; s < end; s = eol + 1) {
		if ((eol = memchr(s, '\n', (size_t)(end - s))) == NULL)
			break;		/* cut short: the kernel ends every line */
		n = (size_t)(eol - s);
		if (n >= sizeof line)
			continue;
		memcpy(line, s, n);
		line[n] = '\0';
		if ((v = strchr(line, ':')) == NULL)
			continue;
		*v++ = '\0';
		v += strspn(v, " \t");
		e = v + strlen(v);
		while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		k = line + strspn(line, " \t");
		e = k + strlen(k);
		while (e > k && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';

		if (strcmp(k, "processor") == 0) {
			if (cpuinfo_number(v) != -1)
				ci->logical_cpus++;
		} else if (strcmp(k, "Processor") == 0) {
			/* Old ARM kernels: the model, not an index. */
			if (ci->model[0] == '\0')
				cpuinfo_copy(ci->model, sizeof ci->model, v);
		} else if (strcmp(k, "model name") == 0) {
			if (ci->model[0] == '\0')
				cpuinfo_copy(ci->model, sizeof ci->model, v);
		} else if (strcmp(k, "vendor_id") == 0) {
			if (ci->vendor[0] == '\0')
				cpuinfo_copy(ci->vendor, sizeof ci->vendor, v);
		} else if (strcmp(k, "cpu MHz") == 0) {
			if (!have_mhz) {
				char	*ep;
				double	 mhz = strtod(v, &ep);

				if (ep != v && mhz > 0 && mhz < 1e6) {
					ci->mhz = mhz;
					have_mhz = 1;
				}
			}
		} else if (strcmp(k, "flags") == 0 ||
		    strcmp(k, "Features") == 0) {
			if (!have_flags) {
				cpuinfo_flags(ci, v);
				have_flags = 1;
			}
		} else if (strcmp(k, "Hardware") == 0) {
			if (ci->soc[0] == '\0')
				cpuinfo_copy(ci->soc, sizeof ci->soc, v);
		} else if (strcmp(k, "CPU implementer") == 0) {
			ci->is_arm = 1;
			if (ci->implementer == -1)
				ci->implementer = cpuinfo_number(v);
		} else if (strcmp(k, "CPU part") == 0) {
			if (ci->part == -1)
				ci->part = cpuinfo_number(v);
		} else if (strcmp(k, "CPU architecture") == 0) {
			if (ci->arm_arch == 0 && (num = cpuinfo_number(v)) > 0 &&
			    num < 100)
				ci->arm_arch = (int)num;
		}
	}
	if (ci->is_arm)
		cpuinfo_arm_names(ci);
	if (ci->logical_cpus == 0 && ci->model[0] != '\0')
		ci->logical_cpus = 1;	/* uniprocessor ARM: no index lines */
	if (ci->logical_cpus == 0) {
		if (errstr != NULL)
			*errstr = "no processor entry";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Read <root>/proc/cpuinfo. */
int
cpuinfo_read(const struct probe_root *root, struct probe_buf *b,
    struct cpuinfo *ci, const char **errstr)
{
	if (errstr != NULL)
		*errstr = NULL;
	if (probe_read(root, PROBE_PROC, "cpuinfo", b) == -1) {
		memset(ci, 0, sizeof *ci);
		ci->mhz = -1;
		ci->implementer = ci->part = -1;
		return (-1);
	}
	return (cpuinfo_parse(b->p, b->len, ci, errstr));
}

/* 1 if the flags or Features list has the word flag. */
int
cpuinfo_has_flag(const struct cpuinfo *ci, const char *flag)
{
	const char	*p = ci->flags;
	size_t		 n = strlen(flag);

	if (n == 0)
		return (0);
	while ((p = strstr(p, flag)) != NULL) {
		if ((p == ci->flags || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' '))
			return (1);
		p += n;
	}
	return (0);
}

/* 1 if the CPU does AES in hardware. */
int
cpuinfo_has_aes(const struct cpuinfo *ci)
{
	return (cpuinfo_has_flag(ci, "aes"));
}

/* uname -m of the CPU when it can be told, or NULL. */
const char *
cpuinfo_arch(const struct cpuinfo *ci)
{
	if (ci->is_arm) {
		/* arm64 kernels print their own hwcap names. */
		if (cpuinfo_has_flag(ci, "asimd"))
			return ("aarch64");
		if (ci->arm_arch >= 7)
			return ("armv7l");
		if (ci->arm_arch == 6)
			return ("armv6l");
		if (ci->arm_arch == 5)
			return ("armv5tel");
		return (NULL);
	}
	if (ci->vendor[0] == '\0' && ci->flags[0] == '\0')
		return (NULL);
	if (cpuinfo_has_flag(ci, "lm"))
		return ("x86_64");
	if (cpuinfo_has_flag(ci, "fpu"))
		return ("i686");
	return (NULL);
}
