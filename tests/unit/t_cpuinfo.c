/*
 * t_cpuinfo.c: /proc/cpuinfo against the real ARM captures, damaged text,
 * the fixture boxes and the live root.
 */
#include "config.h"

#include <unistd.h>

#include "test.h"
#include "cpuinfo.h"

/*
 * nas-samples/synology-ds216j-dsm6.2-armada385/cpuinfo.txt (Hardware line,
 * tabs, trailing space after Features) and
 * synology-ds218-dsm6.2-rtd1296/cpuinfo.txt (arm64, no Hardware line).
 */
static const char ds216j_cpuinfo[] =
    "processor\t: 0\n"
    "model name\t: ARMv7 Processor rev 1 (v7l)\n"
    "BogoMIPS\t: 2131.55\n"
    "Features\t: swp half thumb fastmult vfp edsp neon vfpv3 tls \n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 7\n"
    "CPU variant\t: 0x4\n"
    "CPU part\t: 0xc09\n"
    "CPU revision\t: 1\n"
    "\n"
    "processor\t: 1\n"
    "model name\t: ARMv7 Processor rev 1 (v7l)\n"
    "BogoMIPS\t: 2125.00\n"
    "Features\t: swp half thumb fastmult vfp edsp neon vfpv3 tls \n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 7\n"
    "CPU variant\t: 0x4\n"
    "CPU part\t: 0xc09\n"
    "CPU revision\t: 1\n"
    "\n"
    "Hardware\t: Marvell Armada 380/381/382/383/384/385/388 (Device Tree)\n"
    "Revision\t: 0000\n"
    "Serial\t\t: 0000000000000000\n";

static const char ds218_cpuinfo[] =
    "processor\t: 0\n"
    "model name\t: ARMv8 Processor rev 4 (v8l)\n"
    "BogoMIPS\t: 54.00\n"
    "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32\n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 8\n"
    "CPU variant\t: 0x0\n"
    "CPU part\t: 0xd03\n"
    "CPU revision\t: 4\n"
    "\n"
    "processor\t: 1\n"
    "model name\t: ARMv8 Processor rev 4 (v8l)\n"
    "BogoMIPS\t: 54.00\n"
    "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32\n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 8\n"
    "CPU variant\t: 0x0\n"
    "CPU part\t: 0xd03\n"
    "CPU revision\t: 4\n"
    "\n"
    "processor\t: 2\n"
    "model name\t: ARMv8 Processor rev 4 (v8l)\n"
    "BogoMIPS\t: 54.00\n"
    "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32\n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 8\n"
    "CPU variant\t: 0x0\n"
    "CPU part\t: 0xd03\n"
    "CPU revision\t: 4\n"
    "\n"
    "processor\t: 3\n"
    "model name\t: ARMv8 Processor rev 4 (v8l)\n"
    "BogoMIPS\t: 54.00\n"
    "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32\n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 8\n"
    "CPU variant\t: 0x0\n"
    "CPU part\t: 0xd03\n"
    "CPU revision\t: 4\n";

/* A 2.6-era Kirkwood: "Processor" is the model and no index lines. */
static const char kirkwood_cpuinfo[] =
    "Processor\t: Feroceon 88FR131 rev 1 (v5l)\n"
    "BogoMIPS\t: 1192.75\n"
    "Features\t: swp half thumb fastmult edsp \n"
    "CPU implementer\t: 0x56\n"
    "CPU architecture: 5TE\n"
    "CPU variant\t: 0x2\n"
    "CPU part\t: 0x131\n"
    "CPU revision\t: 1\n"
    "\n"
    "Hardware\t: Marvell SheevaPlug Reference Board\n"
    "Revision\t: 0000\n"
    "Serial\t\t: 0000000000000000\n";

/* arm64 without model name lines (kernels before 4.x print none). */
static const char a72_cpuinfo[] =
    "processor\t: 0\n"
    "BogoMIPS\t: 50.00\n"
    "Features\t: fp asimd evtstrm crc32 cpuid\n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 8\n"
    "CPU variant\t: 0x0\n"
    "CPU part\t: 0xd08\n"
    "CPU revision\t: 2\n"
    "\n"
    "processor\t: 1\n"
    "BogoMIPS\t: 50.00\n"
    "Features\t: fp asimd evtstrm crc32 cpuid\n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 8\n"
    "CPU variant\t: 0x0\n"
    "CPU part\t: 0xd08\n"
    "CPU revision\t: 2\n";

/* The number of words in the flags list. */
static int
nflags(const struct cpuinfo *ci)
{
	const char	*p;
	int		 n;

	if (ci->flags[0] == '\0')
		return (0);
	for (n = 1, p = ci->flags; *p != '\0'; p++)
		if (*p == ' ')
			n++;
	return (n);
}

/* The two real ARM captures, and two older shapes. */
static void
test_arm(void)
{
	struct cpuinfo	 ci;
	const char	*errstr;

	T_OK(cpuinfo_parse(ds216j_cpuinfo, sizeof ds216j_cpuinfo - 1, &ci,
	    &errstr));
	T_EQ_STR(ci.model, "ARMv7 Processor rev 1 (v7l)");
	T_EQ_STR(ci.soc, "Marvell Armada 380/381/382/383/384/385/388 "
	    "(Device Tree)");
	T_EQ_INT(ci.logical_cpus, 2);
	T_TRUE(ci.mhz < 0);
	T_EQ_INT(ci.is_arm, 1);
	T_EQ_INT(ci.arm_arch, 7);
	T_EQ_INT(ci.implementer, 0x41);
	T_EQ_INT(ci.part, 0xc09);
	T_EQ_STR(ci.vendor, "ARM");
	T_EQ_STR(ci.core, "Cortex-A9");
	T_EQ_STR(ci.flags, "swp half thumb fastmult vfp edsp neon vfpv3 tls");
	T_EQ_INT(cpuinfo_has_flag(&ci, "neon"), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "vfp"), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "vf"), 0);
	T_EQ_INT(cpuinfo_has_flag(&ci, ""), 0);
	T_EQ_INT(cpuinfo_has_aes(&ci), 0);	/* CESA is not a CPU feature */
	T_EQ_STR(cpuinfo_arch(&ci), "armv7l");

	T_OK(cpuinfo_parse(ds218_cpuinfo, sizeof ds218_cpuinfo - 1, &ci,
	    &errstr));
	T_EQ_STR(ci.model, "ARMv8 Processor rev 4 (v8l)");
	T_EQ_STR(ci.soc, "");
	T_EQ_INT(ci.logical_cpus, 4);
	T_EQ_INT(ci.arm_arch, 8);
	T_EQ_INT(ci.part, 0xd03);
	T_EQ_STR(ci.core, "Cortex-A53");
	T_EQ_STR(ci.flags, "fp asimd evtstrm aes pmull sha1 sha2 crc32");
	T_EQ_INT(nflags(&ci), 8);
	T_EQ_INT(cpuinfo_has_aes(&ci), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "pmull"), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "sha2"), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "crc32"), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "sha512"), 0);
	T_EQ_STR(cpuinfo_arch(&ci), "aarch64");

	T_OK(cpuinfo_parse(kirkwood_cpuinfo, sizeof kirkwood_cpuinfo - 1, &ci,
	    NULL));
	T_EQ_STR(ci.model, "Feroceon 88FR131 rev 1 (v5l)");
	T_EQ_STR(ci.soc, "Marvell SheevaPlug Reference Board");
	T_EQ_INT(ci.logical_cpus, 1);
	T_EQ_INT(ci.arm_arch, 5);
	T_EQ_STR(ci.vendor, "Marvell");
	T_EQ_STR(ci.flags, "swp half thumb fastmult edsp");
	T_EQ_STR(cpuinfo_arch(&ci), "armv5tel");

	T_OK(cpuinfo_parse(a72_cpuinfo, sizeof a72_cpuinfo - 1, &ci, NULL));
	T_EQ_STR(ci.model, "Cortex-A72");
	T_EQ_INT(ci.logical_cpus, 2);
	T_EQ_INT(cpuinfo_has_aes(&ci), 0);
	T_EQ_STR(cpuinfo_arch(&ci), "aarch64");
}

/* Empty, foreign, cut and oversized text. */
static void
test_bad(void)
{
	struct cpuinfo	 ci;
	const char	*errstr;
	char		*big;
	size_t		 n, i;
	static const char mhz_text[] =
	    "processor : 0\ncpu MHz : nan\ncpu MHz : 1200\n";

	errstr = NULL;
	T_ERRNO(cpuinfo_parse("", 0, &ci, &errstr), EINVAL);
	T_EQ_STR(errstr, "no processor entry");
	T_ERRNO(cpuinfo_parse("processor\t: x\nflags\t: fpu\n", 26, &ci, NULL),
	    EINVAL);
	T_ERRNO(cpuinfo_parse("\n\n:\n::\n", 7, &ci, NULL), EINVAL);
	T_OK(cpuinfo_parse(mhz_text, sizeof mhz_text - 1, &ci, NULL));
	T_EQ_INT(ci.logical_cpus, 1);
	T_NEAR(ci.mhz, 1200, 0.001);
	T_TRUE(cpuinfo_arch(&ci) == NULL);

	/* Cut in the middle of the second CPU's Features line. */
	n = (size_t)(strstr(ds218_cpuinfo + 200, "Features") -
	    ds218_cpuinfo) + 20;
	T_OK(cpuinfo_parse(ds218_cpuinfo, n, &ci, NULL));
	T_EQ_INT(ci.logical_cpus, 2);
	T_EQ_STR(ci.flags, "fp asimd evtstrm aes pmull sha1 sha2 crc32");

	/* A flags line longer than the list keeps whole words only. */
	big = malloc(6000);
	memcpy(big, "processor\t: 0\nflags\t: ", 22);
	for (i = 22; i + 4 < 5990; i += 4)
		memcpy(big + i, "abc ", 4);
	big[i++] = '\n';
	T_OK(cpuinfo_parse(big, i, &ci, NULL));
	T_EQ_INT(ci.flags_truncated, 1);
	T_TRUE(strlen(ci.flags) < sizeof ci.flags);
	T_EQ_INT(strlen(ci.flags) % 4, 3);
	free(big);
}

/* Each fixture box, with the values in its header. */
static void
test_boxes(void)
{
	struct probe_root	 live;
	struct probe_buf	 pb;
	struct cpuinfo		 ci;
	const char		*errstr;

	probe_buf_init(&pb);
	T_OK(cpuinfo_read(t_root("dsm6-3.10-armhf"), &pb, &ci, &errstr));
	T_EQ_STR(ci.model, "ARMv7 Processor rev 1 (v7l)");
	T_EQ_STR(ci.soc, "Marvell Armada 380/381/382/383/384/385/388 "
	    "(Device Tree)");
	T_EQ_INT(ci.logical_cpus, 2);
	T_EQ_STR(ci.core, "Cortex-A9");
	T_EQ_INT(cpuinfo_has_aes(&ci), 0);
	T_EQ_STR(cpuinfo_arch(&ci), "armv7l");

	T_OK(cpuinfo_read(t_root("dsm7-4.4-x86_64"), &pb, &ci, &errstr));
	T_EQ_STR(ci.model, "AMD Ryzen Embedded V1500B");
	T_EQ_STR(ci.vendor, "AuthenticAMD");
	T_EQ_STR(ci.soc, "");
	T_EQ_INT(ci.logical_cpus, 8);
	T_NEAR(ci.mhz, 2200.0, 0.0005);
	T_EQ_INT(ci.is_arm, 0);
	T_EQ_INT(nflags(&ci), 108);
	T_EQ_INT(cpuinfo_has_aes(&ci), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "sha_ni"), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "avx2"), 1);
	T_EQ_STR(cpuinfo_arch(&ci), "x86_64");

	T_OK(cpuinfo_read(t_root("qts5-5.10-x86_64"), &pb, &ci, &errstr));
	T_EQ_STR(ci.model, "Intel(R) Core(TM) i5-8400T CPU @ 1.70GHz");
	T_EQ_STR(ci.vendor, "GenuineIntel");
	T_EQ_INT(ci.logical_cpus, 6);
	T_NEAR(ci.mhz, 800.012, 0.0005);	/* cpu0's, not the fastest */
	T_EQ_INT(nflags(&ci), 117);		/* "flags", not "vmx flags" */
	T_EQ_INT(cpuinfo_has_flag(&ci, "ept_ad"), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "ept_x_only"), 0);
	T_EQ_INT(cpuinfo_has_aes(&ci), 1);
	T_EQ_INT(cpuinfo_has_flag(&ci, "sha_ni"), 0);
	T_EQ_STR(cpuinfo_arch(&ci), "x86_64");

	if (!t_have_box("readynas6-4.4-armhf"))
		t_skip("readynas6-4.4-armhf is not in the tree");
	else {
		T_OK(cpuinfo_read(t_root("readynas6-4.4-armhf"), &pb, &ci,
		    &errstr));
		T_EQ_INT(ci.is_arm, 1);
		T_EQ_INT(ci.logical_cpus, 1);
		T_EQ_STR(ci.model, "ARMv7 Processor rev 1 (v7l)");
		T_EQ_STR(ci.soc, "Marvell Armada 370/XP (Device Tree)");
		T_EQ_INT(ci.part, 0x581);
		T_EQ_INT(cpuinfo_has_flag(&ci, "vfpv3d16"), 1);
		T_EQ_INT(cpuinfo_has_aes(&ci), 0);
	}
	if (!t_have_box("debian12-6.1-btrfs"))
		t_skip("debian12-6.1-btrfs is not in the tree");
	else {
		T_OK(cpuinfo_read(t_root("debian12-6.1-btrfs"), &pb, &ci,
		    &errstr));
		T_EQ_INT(ci.logical_cpus, 4);
		T_EQ_STR(ci.model, "Intel(R) Xeon(R) E-2224 CPU @ 3.40GHz");
		T_EQ_STR(ci.soc, "");
		T_EQ_INT(ci.is_arm, 0);
		T_NEAR(ci.mhz, 3400.012, 1e-9);
		T_EQ_INT(cpuinfo_has_aes(&ci), 1);
		T_EQ_STR(cpuinfo_arch(&ci), "x86_64");
	}

	T_ERRNO(cpuinfo_read(t_root("empty"), &pb, &ci, &errstr), ENOENT);
	T_EQ_INT(ci.logical_cpus, 0);

	/* The live root: this machine has a CPU and a cpuinfo. */
	T_OK(probe_root_open(&live, "/"));
	T_OK(cpuinfo_read(&live, &pb, &ci, &errstr));
	T_EQ_INT(ci.logical_cpus, (long long)sysconf(_SC_NPROCESSORS_CONF));
	T_TRUE(ci.model[0] != '\0');
	probe_root_close(&live);
	probe_buf_free(&pb);
}

int
main(void)
{
	test_arm();
	test_bad();
	test_boxes();
	return (t_done());
}
