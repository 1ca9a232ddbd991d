/*
 * t_unraid.c: md_unraid's /proc/mdstat from a real Unraid 6.11 box
 * (tests/fixtures/unraid/SOURCES.md), every cut of it, and malformed
 * lines; reading it under a root, and the kernel md's mdstat refused.
 */
#include "config.h"

#include "test.h"
#include "unraid.h"

#define CAPTURE	"unraid/mdstat-6.11-node_exporter2642.txt"

/* The values of prometheus/node_exporter#2642's capture. */
static void
check_capture(const struct unraid *u)
{
	const struct unraid_slot	*p = &u->slots[UNRAID_SLOT_P];

	T_EQ_STR(u->md_version, "2.9.25");
	T_EQ_STR(u->state, "STARTED");
	T_EQ_INT(u->num_disks, 29);
	T_EQ_INT(u->num_disabled, 1);
	T_EQ_INT(u->num_invalid, 1);
	T_EQ_INT(u->num_missing, 0);
	T_EQ_STR(u->action, "check P");
	T_EQ_INT(u->op, UNRAID_OP_CHECK);
	T_EQ_INT(u->running, 0);
	T_EQ_INT(u->correcting, 1);
	T_EQ_U64(u->resync_size, 15625879500ULL);
	T_NEAR(u->resync_pct, -1, 0);
	T_EQ_U64(u->speed_kib, 0);
	T_EQ_U64(u->last_check, 1678709639);
	T_EQ_U64(u->sync_errs, 0);
	/* The stored copy holds slots 0 to 3: parity and three data. */
	T_EQ_INT(u->nparity, 1);
	T_EQ_INT(u->ndata, 3);
	T_EQ_INT(p->role, UNRAID_PARITY);
	T_EQ_STR(p->disk_name, "");
	T_EQ_STR(p->dev, "sdo");
	T_EQ_STR(p->status, "DISK_OK");
	T_EQ_U64(p->disk_size, 15625879500ULL);
	T_EQ_U64(p->reads, 4360982638ULL);
	T_EQ_U64(p->writes, 2218682115ULL);
	T_EQ_INT(p->disk_state, 7);
	T_EQ_STR(p->disk_id, "");
	T_EQ_INT(u->slots[1].role, UNRAID_DATA);
	T_EQ_STR(u->slots[1].disk_name, "md1");
	T_EQ_STR(u->slots[1].dev, "sdd");
	T_EQ_U64(u->slots[1].disk_size, 2930266532ULL);
	T_EQ_STR(u->slots[2].disk_name, "md2");
	T_EQ_STR(u->slots[2].dev, "sdae");
	T_EQ_U64(u->slots[2].writes, 104442749);
	T_EQ_STR(u->slots[3].dev, "sdb");
	T_EQ_U64(u->slots[3].errors, 0);
	T_EQ_INT(u->slots[4].seen, 0);
	T_EQ_INT(u->slots[UNRAID_SLOT_Q].role, UNRAID_EMPTY);
	T_EQ_INT(u->skipped, 0);
}

/* Every prefix of the capture parses or fails with EINVAL, never worse. */
static void
test_cuts(const char *buf, size_t len)
{
	static struct unraid	 u;
	size_t			 n, bad = 0, ok = 0;
	char			*copy;

	for (n = 0; n <= len; n++) {
		if ((copy = malloc(n + 1)) == NULL)
			exit(1);
		memcpy(copy, buf, n);	/* no NUL: none is needed */
		errno = 0;
		if (unraid_parse(copy, n, &u, NULL) == 0)
			ok++;
		else if (errno != EINVAL)
			bad++;
		free(copy);
	}
	T_EQ_U64(bad, 0);
	/* From the mdState line on (its 13th line) every cut parses. */
	T_TRUE(ok > len / 2);
}

/* Lines the parser must skip or refuse without harm. */
static void
test_malformed(void)
{
	static struct unraid	 u;
	const char		*err;
	static const char	 junk[] =
	    "mdState=STARTED\n"
	    "rdevName.30=sdx\n"			/* no slot 30 */
	    "rdevName.-1=sdx\n"
	    "rdevName.=sdx\n"
	    "rdevName.2x=sdx\n"
	    "diskSize.1=12ab\n"
	    "diskSize.1=\n"
	    "diskSize.1=99999999999999999999999\n"
	    "rdevName.1=abcdefghijklmnopqrstuvwxyz0123456789\n"
	    "=value\n"
	    "no equals sign\n"
	    "mdNumDisks=-3\n"
	    "unknownKey=1\n"
	    "rdevName.29=sdq\n"
	    "diskSize.29=3907018532\n"
	    "mdResyncAction=recon Q\n"
	    "mdResync=3907018532\n"
	    "mdResyncSize=3907018532\n"
	    "mdResyncPos=1953509266\n"
	    "mdResyncDt=10\n"
	    "mdResyncDb=1500000\n";

	T_OK(unraid_parse(junk, sizeof junk - 1, &u, &err));
	T_EQ_INT(u.skipped, 12);
	T_EQ_INT(u.num_disks, -1);
	T_EQ_U64(u.slots[1].disk_size, 0);
	T_EQ_INT(u.slots[1].role, UNRAID_EMPTY);
	T_EQ_INT(u.slots[UNRAID_SLOT_Q].role, UNRAID_PARITY);
	T_EQ_INT(u.nparity, 1);
	T_EQ_INT(u.op, UNRAID_OP_RECON);
	T_EQ_INT(u.running, 1);
	T_NEAR(u.resync_pct, 50.0, 1e-9);
	T_EQ_U64(u.speed_kib, 150000);
	T_ERRNO(unraid_parse("", 0, &u, &err), EINVAL);
	T_EQ_STR(err, "no mdState: not md_unraid's mdstat");
	T_ERRNO(unraid_parse("\0\0\0\n", 4, &u, NULL), EINVAL);
}

/* Under a root: the capture as proc/mdstat, the kernel md's, nothing. */
static void
test_read(const char *buf)
{
	static struct unraid	 u;
	struct probe_root	 root;
	struct probe_buf	 b;
	char			 dir[] = "/tmp/t_unraid.XXXXXX";

	probe_buf_init(&b);
	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	t_put(dir, "proc/mdstat", buf);
	T_OK(probe_root_open(&root, dir));
	T_OK(unraid_read(&root, &b, &u, NULL));
	check_capture(&u);
	probe_root_close(&root);
	T_ERRNO(unraid_read(t_root("empty"), &b, &u, NULL), ENOENT);
	if (t_have_box("qts5-5.10-x86_64"))
		T_ERRNO(unraid_read(t_root("qts5-5.10-x86_64"), &b, &u, NULL),
		    ENOENT);
	else
		t_skip("no qts5-5.10-x86_64 box");
	probe_buf_free(&b);
}

int
main(void)
{
	static struct unraid	 u;
	char			*buf;
	size_t			 len;

	buf = t_fixture(CAPTURE, &len);
	T_OK(unraid_parse(buf, len, &u, NULL));
	check_capture(&u);
	test_cuts(buf, len);
	test_malformed();
	test_read(buf);
	free(buf);
	return (t_done());
}
