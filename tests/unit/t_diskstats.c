/*
 * t_diskstats.c: /proc/diskstats in its 14-, 18- and 20-field forms.
 */
#include "config.h"

#include "test.h"
#include "diskstats.h"

/*
 * A real 20-field line (Synology, sataN naming), a 4.18 18-field line, a
 * 3.10 14-field line, an unknown 22-field layout, then lines that must be
 * skipped: 12 fields, a non-number, an overflow, a name too long.  A
 * non-UTF-8 name is kept as bytes; the encoders escape it.
 */
static const char lines[] =
    "   8       0 sata1 18289234 126574923 9396705207 1333168424 11374085 37209420 2406587341 2249203429 0 199683401 3618694472 0 0 0 0 364389 36322618\n"
    "   8      16 sdb 100 1 800 40 200 2 1600 90 3 130 170 7 0 56 9\n"
    "   9       2 md2 10531812 0 2063801013 0 945271 0 541549108 0 0 0 0\n"
    " 259       0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n"
    "   8      32 sdc 1 2 3 4 5 6 7 8 9\n"
    "   8      48 sdd 1 2 3 4 5 x 7 8 9 10 11\n"
    "   8      64 sde 1 2 3 4 5 6 7 8 9 10 99999999999999999999\n"
    "   8      80 averyveryveryverylongdevicename0123 1 2 3 4 5 6 7 8 9 10 11\n"
    "   8      96 sd\xff\xfe 1 2 3 4 5 6 7 8 9 10 11\n"
    "garbage\n"
    "   8\n";

/* The parser on inline lines. */
static void
t_parse(void)
{
	struct diskstats		 ds;
	const struct diskstats_dev	*d;
	const char			*errstr;

	diskstats_init(&ds);
	T_OK(diskstats_parse(lines, sizeof lines - 1, &ds, &errstr));
	T_EQ_INT(ds.ndevs, 5);
	T_EQ_INT(ds.skipped, 6);
	T_TRUE(errstr != NULL);
	d = &ds.devs[0];
	T_EQ_STR(d->name, "sata1");
	T_EQ_INT(d->nfields, 20);
	T_EQ_U64(d->rd_ios, 18289234);
	T_EQ_U64(d->rd_sectors, 9396705207ULL);
	T_EQ_U64(d->wr_ticks, 2249203429ULL);
	T_EQ_U64(d->io_ticks, 199683401);
	T_EQ_U64(d->time_in_queue, 3618694472ULL);
	T_EQ_U64(d->fl_ios, 364389);
	T_EQ_U64(d->fl_ticks, 36322618);
	d = &ds.devs[1];
	T_EQ_INT(d->nfields, 18);
	T_EQ_U64(d->dc_ios, 7);
	T_EQ_U64(d->dc_sectors, 56);
	T_EQ_U64(d->fl_ios, 0);
	d = &ds.devs[2];
	T_EQ_STR(d->name, "md2");
	T_EQ_INT(d->major, 9);
	T_EQ_INT(d->minor, 2);
	T_EQ_INT(d->nfields, 14);
	T_EQ_U64(d->wr_sectors, 541549108);
	T_EQ_U64(d->io_ticks, 0);
	d = &ds.devs[3];
	T_EQ_INT(d->nfields, 22);
	T_EQ_U64(d->fl_ticks, 17);
	T_EQ_STR(ds.devs[4].name, "sd\xff\xfe");
	T_TRUE(diskstats_find(&ds, "sdc") == NULL);
	T_TRUE(diskstats_find(&ds, "md2") == &ds.devs[2]);
	T_OK(diskstats_parse("", 0, &ds, NULL));
	T_EQ_INT(ds.ndevs, 0);
	diskstats_clear(&ds);
}

/* Each fixture box and the empty one. */
static void
t_read(void)
{
	struct diskstats		 ds;
	struct probe_buf		 b;
	const struct diskstats_dev	*d;

	diskstats_init(&ds);
	probe_buf_init(&b);
	T_OK(diskstats_read(t_root("dsm6-3.10-armhf"), &b, &ds, NULL));
	T_TRUE((d = diskstats_find(&ds, "sda")) != NULL);
	if (d != NULL) {
		T_EQ_INT(d->nfields, 14);
		T_EQ_U64(d->rd_ios, 2896958);
		T_EQ_U64(d->wr_sectors, 172870716);
		T_EQ_U64(d->io_ticks, 18769647);
	}
	T_TRUE((d = diskstats_find(&ds, "dm-0")) != NULL);
	if (d != NULL)
		T_EQ_U64(d->time_in_queue, 86969015);
	T_EQ_INT(ds.skipped, 0);

	T_OK(diskstats_read(t_root("dsm7-4.4-x86_64"), &b, &ds, NULL));
	T_TRUE((d = diskstats_find(&ds, "sata1")) != NULL);
	if (d != NULL) {
		T_EQ_INT(d->nfields, 14);
		T_EQ_U64(d->rd_sectors, 4200738360ULL);
		T_EQ_U64(d->wr_ticks, 30262964);
	}
	T_TRUE((d = diskstats_find(&ds, "md2")) != NULL);
	if (d != NULL) {
		T_EQ_U64(d->rd_sectors, 32859617599ULL);
		T_EQ_U64(d->rd_ticks, 0);
	}

	T_OK(diskstats_read(t_root("qts5-5.10-x86_64"), &b, &ds, NULL));
	T_TRUE((d = diskstats_find(&ds, "sda")) != NULL);
	if (d != NULL) {
		T_EQ_INT(d->nfields, 20);
		T_EQ_U64(d->rd_ios, 7783259);
		T_EQ_U64(d->fl_ios, 102336);
		T_EQ_U64(d->fl_ticks, 1109355);
	}
	T_TRUE((d = diskstats_find(&ds, "md1")) != NULL);
	if (d != NULL)
		T_EQ_U64(d->wr_sectors, 4212365875ULL);

	T_ERRNO(diskstats_read(t_root("empty"), &b, &ds, NULL), ENOENT);
	diskstats_clear(&ds);
	probe_buf_free(&b);
}

int
main(void)
{
	t_parse();
	t_read();
	(void)t_skip;
	return (t_done());
}
