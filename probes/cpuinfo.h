/*
 * cpuinfo.h: what the CPU is, from /proc/cpuinfo.
 *
 * x86 prints one block per logical CPU with "model name", "cpu MHz" and
 * "flags".  32-bit ARM prints "model name" (older kernels "Processor") per
 * CPU and the board or SoC once, on a "Hardware" line; arm64 usually has no
 * Hardware line and no model name worth showing, so the CPU is named from
 * "CPU implementer" and "CPU part".  Fixed-size: nothing to free.
 */
#ifndef CPUINFO_H
#define CPUINFO_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

struct cpuinfo {
	char		model[128];	/* model name (Processor), else the ARM core */
	char		soc[128];	/* Hardware line, "" when there is none */
	char		vendor[32];	/* vendor_id, or the ARM implementer name */
	char		core[32];	/* ARM core from implementer/part, "Cortex-A9" */
	unsigned	logical_cpus;	/* "processor" entries */
	double		mhz;		/* first CPU's "cpu MHz", -1 if none */
	int		is_arm;		/* "CPU implementer" seen */
	int		arm_arch;	/* "CPU architecture", 0 if none */
	int64_t		implementer;	/* 0x41 is ARM Ltd; -1 if none */
	int64_t		part;		/* 0xd03 is Cortex-A53; -1 if none */
	char		flags[4096];	/* x86 "flags" or ARM "Features", one space apart */
	int		flags_truncated;	/* the list did not fit */
};

/*
 * Read <root>/proc/cpuinfo.  -1 and errno: ENOENT not available, EINVAL
 * (*errstr set) when no processor entry is found.
 */
int	cpuinfo_read(const struct probe_root *, struct probe_buf *,
	    struct cpuinfo *, const char **errstr);
/* Parse the text of /proc/cpuinfo.  Pure: tests and the fuzzer call it. */
int	cpuinfo_parse(const char *, size_t, struct cpuinfo *, const char **);
/* 1 if the flags or Features list has the word flag ("aes", "pmull"). */
int	cpuinfo_has_flag(const struct cpuinfo *, const char *flag);
/*
 * 1 if the CPU does AES in hardware: the x86 "aes" flag (AES-NI) or the
 * ARMv8 "aes" feature (Crypto Extensions).  Marvell's CESA engine is a
 * separate device: /proc/crypto tells of it, not cpuinfo.
 */
int	cpuinfo_has_aes(const struct cpuinfo *);
/* uname -m of the CPU when it can be told: "x86_64", "armv7l", "aarch64"; or NULL. */
const char *cpuinfo_arch(const struct cpuinfo *);

#endif /* CPUINFO_H */
