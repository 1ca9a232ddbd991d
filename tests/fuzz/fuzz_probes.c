/*
 * fuzz_probes.c: every pure parser of libnasprobe against hostile input.
 *
 * Built two ways.  With --enable-fuzzing (clang), LLVMFuzzerTestOneInput is
 * a libFuzzer target: in fuzz-probes the first byte picks the parser, the
 * rest is the file; in a target of one parser (FUZZ_PARSER is its name:
 * fuzz-mdstat, fuzz-bonding, fuzz-cpuinfo) the input is the file.
 * Otherwise main() is a TAP test for make check: each parser gets
 * the real files of every fixture box, then thousands of mutations of them
 * (bytes flipped, lines cut, garbage and huge numbers spliced in) with a
 * fixed seed.  It passes when nothing crashes, which the ASan and UBSan
 * build makes strict, and every parser returns 0 or -1.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_probes.h"

#ifdef NP_LIBFUZZER
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#ifdef FUZZ_PARSER
/* The index of the parser called FUZZ_PARSER; found once. */
static size_t
fuzz_parser(void)
{
	static size_t	i = SIZE_MAX;

	if (i == SIZE_MAX) {
		for (i = 0; i < fuzz_nparsers; i++)
			if (strcmp(fuzz_parsers[i].name, FUZZ_PARSER) == 0)
				break;
		if (i == fuzz_nparsers)
			abort();	/* a target of no parser: a build error */
	}
	return (i);
}
#endif

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef FUZZ_PARSER
	size_t	i = fuzz_parser();
#else
	size_t	i;

	if (size == 0)
		return (0);
	i = data[0] % fuzz_nparsers;
	data++;
	size--;
#endif
	if (fuzz_run(i, (const char *)data, size) != 0)
		abort();	/* the parser returned neither 0 nor -1 */
	return (0);
}
#else
#include "test.h"

/* A small deterministic generator (xorshift), so failures reproduce. */
static uint64_t	fuzz_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
fuzz_rand(void)
{
	fuzz_state ^= fuzz_state << 13;
	fuzz_state ^= fuzz_state >> 7;
	fuzz_state ^= fuzz_state << 17;
	return (fuzz_state);
}

/* Change buf (len bytes, cap allocated) in one of several ways. */
static size_t
fuzz_mutate(char *buf, size_t len, size_t cap)
{
	static const char *const splice[] = {
		"18446744073709551616", "-1", "\xff\xfe", " ", "\n", "\t",
		"99999999999999999999999999", "(null)", "[", "]", ":", "=",
		"nan", "0x10", "\n\n\n", "sda", "md0 : active raid5"
	};
	size_t	pos, n, i;
	const char *s;

	if (len == 0)
		return (0);
	pos = (size_t)(fuzz_rand() % len);
	switch (fuzz_rand() % 5) {
	case 0:		/* flip bytes */
		for (i = 0; i < 1 + fuzz_rand() % 8; i++)
			buf[fuzz_rand() % len] ^= (char)(1 << (fuzz_rand() % 8));
		return (len);
	case 1:		/* truncate */
		return (pos);
	case 2:		/* delete a run */
		n = (size_t)(fuzz_rand() % (len - pos + 1));
		memmove(buf + pos, buf + pos + n, len - pos - n);
		return (len - n);
	default:	/* splice a token in */
		s = splice[fuzz_rand() % NP_NITEMS(splice)];
		n = strlen(s);
		if (len + n >= cap)
			return (len);
		memmove(buf + pos + n, buf + pos, len - pos);
		memcpy(buf + pos, s, n);
		return (len + n);
	}
}

static const char *const fuzz_boxes[] = {
	"dsm6-3.10-armhf", "dsm7-4.4-x86_64", "qts5-5.10-x86_64",
	"readynas6-4.4-armhf", "debian12-6.1-btrfs"
};

/*
 * Seeds for parsers whose file no fixture box holds, shaped like the
 * files the unit tests read (LAB.md's ganesha.conf and smb.conf).
 */
static const struct {
	const char	*name;
	const char	*text;
} fuzz_builtin[] = {
	{ "ganesha", "NFS_CORE_PARAM { Protocols = 3, 4; NFS_Port = 2049; }\n"
	    "EXPORT { Export_Id = 1; Path = \"/srv/nfs\"; Pseudo = /export;\n"
	    "  Access_Type = RW; Squash = No_Root_Squash; Protocols = 3, 4;\n"
	    "  SecType = sys; CLIENT { Clients = 10.0.0.0/8; }\n"
	    "  FSAL { Name = VFS; } }\n%include \"/etc/ganesha/more.conf\"\n" },
	{ "smbconf", "[global]\n  workgroup = LAB\n  server min protocol = "
	    "SMB2_10\n  server signing = mandatory\n  smb encrypt = desired\n"
	    "  include = /etc/samba/extra.conf\n; a comment\n[share]\n"
	    "  path = /srv/share\n  read only = no \\\n  # continued\n"
	    "  smb encrypt = required\n[homes]\n  browseable = no\n" },
};

/*
 * Seeds from tests/fixtures for parsers of files no box holds: real
 * captures of ZFS and Unraid (their SOURCES.md).
 */
static const struct {
	const char	*name;
	const char	*file;
} fuzz_files[] = {
	{ "unraid", "unraid/mdstat-6.11-node_exporter2642.txt" },
	{ "zfs_kstat", "zfs/arcstats-2.2-htop1559.txt" },
	{ "zfs_kstat", "zfs/objset-zfs12957.txt" },
	{ "zfs_kstat", "zfs/io-zabbix-zfs-checks2.txt" },
	{ "zfs_txgs", "zfs/txgs-zfs3811.txt" },
	{ "zfs_txgs", "zfs/txgs-old-zfs2218.txt" },
	{ "zfs_status", "zfs/status-resilver-slog-zfs3267.txt" },
	{ "zfs_status", "zfs/status-unraid-resilver-webgui2547.txt" },
	{ "zfs_status", "zfs/status-raidz2-logs-cache-omnios1483.txt" },
	{ "zfs_get", "zfs/get-local-received-zfs12953.txt" },
	{ "zfs_get", "zfs/get-all-pve-zfs7038.txt" },
	{ "zfs_get", "zfs/get-all-sync-zfs8764.txt" },
	{ "zfs_iostat", "zfs/iostat-vl-interval-ubuntuforums.txt" },
	{ "zfs_iostat", "zfs/iostat-vl-logs-zfs4433.txt" },
	{ "zfs_iostat", "zfs/iostat-vlTd-mirrors-zfs11754.txt" },
	{ "zfs_iostat", "zfs/iostat-vly-rebuild-extrange.txt" },
};

/* Run parser p over text and 2000 mutations of it; add failures to bad. */
static size_t
fuzz_seed(size_t p, const char *text, size_t textlen, int *bad)
{
	char	*work;
	size_t	 runs, len, cap = textlen * 2 + 256;

	if ((work = malloc(cap)) == NULL)
		exit(1);
	if (fuzz_run(p, text, textlen) != 0)
		(*bad)++;
	for (runs = 0; runs < 2000; runs++) {
		memcpy(work, text, textlen);
		len = fuzz_mutate(work, textlen, cap);
		len = fuzz_mutate(work, len, cap);
		if (fuzz_run(p, work, len) != 0)
			(*bad)++;
	}
	free(work);
	return (runs);
}

int
main(void)
{
	struct probe_buf	 b;
	char			*text, what[128];
	size_t			 p, k, len, runs, nseeds;
	int			 bad;

	probe_buf_init(&b);
	for (p = 0; p < fuzz_nparsers; p++) {
		bad = 0;
		runs = nseeds = 0;
		for (k = 0; k < NP_NITEMS(fuzz_boxes); k++) {
			if (!t_have_box(fuzz_boxes[k]))
				continue;
			if (probe_read(t_root(fuzz_boxes[k]),
			    fuzz_parsers[p].fs, fuzz_parsers[p].file, &b) == -1)
				continue;
			nseeds++;
			runs = fuzz_seed(p, b.p, b.len, &bad);
		}
		for (k = 0; nseeds == 0 && k < NP_NITEMS(fuzz_builtin); k++) {
			if (strcmp(fuzz_builtin[k].name,
			    fuzz_parsers[p].name) != 0)
				continue;
			nseeds++;
			runs = fuzz_seed(p, fuzz_builtin[k].text,
			    strlen(fuzz_builtin[k].text), &bad);
		}
		for (k = 0; k < NP_NITEMS(fuzz_files); k++) {
			if (strcmp(fuzz_files[k].name,
			    fuzz_parsers[p].name) != 0)
				continue;
			nseeds++;
			text = t_fixture(fuzz_files[k].file, &len);
			runs = fuzz_seed(p, text, len, &bad);
			free(text);
		}
		snprintf(what, sizeof what, "%s: %zu seed files, %zu "
		    "mutations each, no crash, 0 or -1 returned",
		    fuzz_parsers[p].name, nseeds, runs);
		if (nseeds == 0)
			t_skip(what);
		else
			t_check(bad == 0, what, __FILE__, __LINE__,
			    "%d runs returned something else", bad);
	}
	/* An empty and a NUL-only input for every parser. */
	for (p = 0, bad = 0; p < fuzz_nparsers; p++)
		if (fuzz_run(p, "", 0) != 0 || fuzz_run(p, "\0\0\0", 3) != 0)
			bad++;
	T_EQ_INT(bad, 0);
	probe_buf_free(&b);
	return (t_done());
}
#endif
