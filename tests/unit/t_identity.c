/*
 * t_identity.c: NAS identity from the real uname and os-release captures,
 * vendor files, and the fixture boxes.
 */
#include "config.h"

#include <unistd.h>

#include "test.h"
#include "identity.h"

/* nas-samples/<box>/uname.txt, verbatim. */
static const char uname_ds216j[] =
    "Linux <HOSTNAME> 3.10.105 #24922 SMP Fri May 10 02:48:35 CST 2019 "
    "armv7l GNU/Linux synology_armada38x_ds216j\n";
static const char uname_ds218[] =
    "Linux <HOSTNAME> 4.4.59+ #24922 SMP Thu Mar 12 13:01:18 CST 2020 "
    "aarch64 GNU/Linux synology_rtd1296_ds218\n";
static const char uname_ds218plus[] =
    "Linux <HOSTNAME> 4.4.180+ #42962 SMP Tue Jul 29 14:30:39 CST 2025 "
    "x86_64 GNU/Linux synology_apollolake_218+\n";
static const char uname_qnap[] =
    "Linux <HOSTNAME> 5.10.60-qnap #1 SMP Tue Jul 15 02:15:00 CST 2025 "
    "x86_64 GNU/Linux\n";

/* nas-samples/qnap-qts5.2.3/etc-os-release.txt, verbatim. */
static const char os_release_qts[] =
    "NAME=\"QTS\"\n"
    "VERSION=\"5.2.3 (20250108)\"\n"
    "ID=qts\n"
    "PRETTY_NAME=\"QTS 5.2.3 (20250108)\"\n"
    "VERSION_ID=\"5.2.3\"\n";

/* Debian 12's /etc/os-release. */
static const char os_release_debian[] =
    "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
    "NAME=\"Debian GNU/Linux\"\n"
    "VERSION_ID=\"12\"\n"
    "VERSION=\"12 (bookworm)\"\n"
    "VERSION_CODENAME=bookworm\n"
    "ID=debian\n"
    "HOME_URL=\"https://www.debian.org/\"\n";

/* The four real uname lines. */
static void
test_uname(void)
{
	struct identity	 id;
	const char	*errstr;

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_uname(uname_ds216j, sizeof uname_ds216j - 1, &id,
	    &errstr));
	T_EQ_INT(id.vendor, IDENTITY_SYNOLOGY);
	T_EQ_STR(id.hostname, "<HOSTNAME>");
	T_EQ_STR(id.kernel, "3.10.105");
	T_EQ_STR(id.kernel_version, "#24922 SMP Fri May 10 02:48:35 CST 2019");
	T_EQ_STR(id.arch, "armv7l");
	T_EQ_STR(id.platform, "armada38x");

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_uname(uname_ds218, sizeof uname_ds218 - 1, &id,
	    &errstr));
	T_EQ_INT(id.vendor, IDENTITY_SYNOLOGY);
	T_EQ_STR(id.kernel, "4.4.59+");
	T_EQ_STR(id.kernel_version, "#24922 SMP Thu Mar 12 13:01:18 CST 2020");
	T_EQ_STR(id.arch, "aarch64");
	T_EQ_STR(id.platform, "rtd1296");

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_uname(uname_ds218plus, sizeof uname_ds218plus - 1,
	    &id, &errstr));
	T_EQ_STR(id.kernel, "4.4.180+");
	T_EQ_STR(id.kernel_version, "#42962 SMP Tue Jul 29 14:30:39 CST 2025");
	T_EQ_STR(id.arch, "x86_64");
	T_EQ_STR(id.platform, "apollolake");

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_uname(uname_qnap, sizeof uname_qnap - 1, &id,
	    &errstr));
	T_EQ_INT(id.vendor, IDENTITY_QNAP);
	T_EQ_STR(id.kernel, "5.10.60-qnap");
	T_EQ_STR(id.kernel_version, "#1 SMP Tue Jul 15 02:15:00 CST 2025");
	T_EQ_STR(id.arch, "x86_64");
	T_EQ_STR(id.platform, "");

	/* /proc/version forms: nested parentheses, trailing platform. */
	memset(&id, 0, sizeof id);
	T_OK(identity_parse_uname("Linux version 3.10.105 (root@build1) (gcc "
	    "version 4.9.3 20150311 (prerelease) (crosstool-NG 1.20.0) ) "
	    "#25556 SMP Thu Mar 4 18:02:27 CST 2021 synology_armada38x_ds416j\n",
	    167, &id, &errstr));
	T_EQ_STR(id.kernel, "3.10.105");
	T_EQ_STR(id.kernel_version, "#25556 SMP Thu Mar 4 18:02:27 CST 2021");
	T_EQ_STR(id.platform, "armada38x");
	T_EQ_STR(id.arch, "");

	memset(&id, 0, sizeof id);
	errstr = NULL;
	T_ERRNO(identity_parse_uname("", 0, &id, &errstr), EINVAL);
	T_EQ_STR(errstr, "not a Linux uname line");
	T_ERRNO(identity_parse_uname("FreeBSD h 14.0 #0 amd64\n", 24, &id,
	    NULL), EINVAL);
	T_ERRNO(identity_parse_uname("Linux version ", 14, &id, &errstr),
	    EINVAL);
	T_ERRNO(identity_parse_uname("Linux version 6.1 (a (b) #1\n", 28, &id,
	    &errstr), EINVAL);
	T_EQ_STR(errstr, "unbalanced parentheses");
	/* Busybox style: no GNU/Linux word. */
	memset(&id, 0, sizeof id);
	T_OK(identity_parse_uname("Linux nas 4.4.302+ #69057 SMP x86_64\n", 37,
	    &id, NULL));
	T_EQ_STR(id.arch, "x86_64");
	T_EQ_STR(id.kernel_version, "#69057 SMP");
}

/* Vendor files: os-release, VERSION, synoinfo.conf, uLinux.conf. */
static void
test_files(void)
{
	struct identity	 id;
	const char	*errstr;
	static const char version_dsm5[] =
	    "majorversion=\"5\"\nminorversion=\"2\"\nbuildnumber=\"5967\"\n"
	    "smallfixnumber=\"0\"\n";
	static const char ulinux[] =
	    "[Network]\nModel = wrong\n[System]\n  Model = TS-453D \n"
	    "Version = 5.1.0\nBuild Number = 20230822\n[Other]\n"
	    "Version = 9\n";

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_os_release(os_release_qts,
	    sizeof os_release_qts - 1, &id, &errstr));
	T_EQ_INT(id.vendor, IDENTITY_QNAP);
	T_EQ_STR(id.os, "QTS");
	T_EQ_STR(id.pretty_name, "QTS 5.2.3 (20250108)");
	T_EQ_STR(id.build, "20250108");
	T_EQ_STR(id.firmware, "5.2.3 build 20250108");

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_os_release(os_release_debian,
	    sizeof os_release_debian - 1, &id, &errstr));
	T_EQ_INT(id.vendor, IDENTITY_GENERIC);
	T_EQ_STR(id.os, "Debian GNU/Linux");
	T_EQ_STR(id.pretty_name, "Debian GNU/Linux 12 (bookworm)");
	T_EQ_STR(id.firmware, "12");

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_os_release("NAME=\"ReadyNASOS\"\nVERSION_ID=6.10.8"
	    "\nID=readynasos\n", 50, &id, NULL));
	T_EQ_INT(id.vendor, IDENTITY_NETGEAR);
	T_EQ_STR(id.os, "ReadyNASOS");
	T_EQ_STR(id.firmware, "6.10.8");
	T_ERRNO(identity_parse_os_release("ID=x\n", 5, &id, &errstr), EINVAL);

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_version(version_dsm5, sizeof version_dsm5 - 1,
	    &id, &errstr));
	T_EQ_STR(id.firmware, "5.2-5967");
	T_EQ_STR(id.os, "DSM");
	T_ERRNO(identity_parse_version("productversion=\"7.2\"\n", 21, &id,
	    &errstr), EINVAL);
	T_EQ_STR(errstr, "no buildnumber");

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_synoinfo("unique=\"synology_geminilake_920+\"\n",
	    34, &id, NULL));
	T_EQ_STR(id.platform, "geminilake");
	T_EQ_STR(id.model, "");
	T_ERRNO(identity_parse_synoinfo("unique=\"synology\"\n", 18, &id,
	    NULL), EINVAL);

	memset(&id, 0, sizeof id);
	T_OK(identity_parse_ulinux(ulinux, sizeof ulinux - 1, &id, &errstr));
	T_EQ_INT(id.vendor, IDENTITY_QNAP);
	T_EQ_STR(id.model, "TS-453D");
	T_EQ_STR(id.firmware, "5.1.0 build 20230822");
	T_EQ_STR(id.build, "20230822");
	T_ERRNO(identity_parse_ulinux("[Network]\nModel = x\n", 20, &id,
	    &errstr), EINVAL);

	T_EQ_STR(identity_vendor_name(IDENTITY_SYNOLOGY), "Synology");
	T_EQ_STR(identity_vendor_name(IDENTITY_QNAP), "QNAP");
	T_EQ_STR(identity_vendor_name(IDENTITY_NETGEAR), "NETGEAR");
	T_EQ_STR(identity_vendor_name(IDENTITY_GENERIC), "generic");
}

/* Each fixture box, with the values of its "# facts: identity" line. */
static void
test_boxes(void)
{
	struct probe_root	live;
	struct probe_buf	pb;
	struct identity		id;

	probe_buf_init(&pb);
	T_OK(identity_read(t_root("dsm6-3.10-armhf"), &pb, &id));
	T_EQ_INT(id.vendor, IDENTITY_SYNOLOGY);
	T_EQ_STR(id.model, "DS416j");
	T_EQ_STR(id.os, "DSM");
	T_EQ_STR(id.firmware, "6.2.4-25556 Update 7");
	T_EQ_STR(id.build, "25556");
	T_EQ_STR(id.kernel, "3.10.105");
	T_EQ_STR(id.kernel_version, "#25556 SMP Thu Mar 4 18:02:27 CST 2021");
	T_EQ_STR(id.arch, "armv7l");
	T_EQ_STR(id.hostname, "nas");
	T_EQ_STR(id.platform, "armada38x");

	T_OK(identity_read(t_root("dsm7-4.4-x86_64"), &pb, &id));
	T_EQ_INT(id.vendor, IDENTITY_SYNOLOGY);
	T_EQ_STR(id.model, "DS1821+");
	T_EQ_STR(id.os, "DSM");
	T_EQ_STR(id.firmware, "7.2.1-69057 Update 5");
	T_EQ_STR(id.build, "69057");
	T_EQ_STR(id.kernel, "4.4.302+");
	T_EQ_STR(id.kernel_version, "#69057 SMP Fri Jan 12 17:02:28 CST 2024");
	T_EQ_STR(id.arch, "x86_64");
	T_EQ_STR(id.hostname, "nas");
	T_EQ_STR(id.platform, "v1000");

	T_OK(identity_read(t_root("qts5-5.10-x86_64"), &pb, &id));
	T_EQ_INT(id.vendor, IDENTITY_QNAP);
	T_EQ_STR(id.model, "TVS-872X");
	T_EQ_STR(id.os, "QTS");
	T_EQ_STR(id.firmware, "5.2.3 build 20250108");
	T_EQ_STR(id.build, "20250108");
	T_EQ_STR(id.pretty_name, "QTS 5.2.3 (20250108)");
	T_EQ_STR(id.kernel, "5.10.60-qnap");
	T_EQ_STR(id.kernel_version, "#1 SMP Tue Jul 15 02:15:00 CST 2025");
	T_EQ_STR(id.arch, "x86_64");
	T_EQ_STR(id.hostname, "nas");
	T_EQ_STR(id.platform, "");

	if (!t_have_box("readynas6-4.4-armhf"))
		t_skip("readynas6-4.4-armhf is not in the tree");
	else {
		T_OK(identity_read(t_root("readynas6-4.4-armhf"), &pb, &id));
		T_EQ_INT(id.vendor, IDENTITY_NETGEAR);
		T_EQ_STR(id.os, "ReadyNASOS");
		/* the device tree's "NETGEAR ReadyNAS 104" */
		T_EQ_STR(id.model, "ReadyNAS 104");
		T_EQ_STR(id.firmware, "6.10.8");
		T_EQ_STR(id.pretty_name, "ReadyNASOS 6.10.8");
		T_EQ_STR(id.kernel, "4.4.190.armada.1");
		T_EQ_STR(id.hostname, "nas");
	}
	if (!t_have_box("debian12-6.1-btrfs"))
		t_skip("debian12-6.1-btrfs is not in the tree");
	else {
		T_OK(identity_read(t_root("debian12-6.1-btrfs"), &pb, &id));
		T_EQ_INT(id.vendor, IDENTITY_GENERIC);
		T_EQ_STR(id.pretty_name, "Debian GNU/Linux 12 (bookworm)");
		T_EQ_STR(id.os, "Debian GNU/Linux");
		T_EQ_STR(id.model, "PowerEdge T140");
		T_EQ_STR(id.dmi_vendor, "Dell Inc.");
		T_EQ_STR(id.kernel, "6.1.0-27-amd64");
		T_EQ_STR(id.kernel_version, "#1 SMP PREEMPT_DYNAMIC Debian "
		    "6.1.115-1 (2024-11-01)");
		T_EQ_STR(id.hostname, "nas");
		T_EQ_STR(id.platform, "");
	}

	T_ERRNO(identity_read(t_root("empty"), &pb, &id), ENOENT);
	T_EQ_STR(id.model, "");

	/* The live root: a kernel release and a hostname at least. */
	T_OK(probe_root_open(&live, "/"));
	T_OK(identity_read(&live, &pb, &id));
	T_TRUE(id.kernel[0] != '\0');
	T_TRUE(id.hostname[0] != '\0');
	T_TRUE(id.kernel_version[0] == '#');
	probe_root_close(&live);
	probe_buf_free(&pb);
}

int
main(void)
{
	test_uname();
	test_files();
	test_boxes();
	return (t_done());
}
