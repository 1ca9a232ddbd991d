/*
 * unraid.h: Unraid's parity array from md_unraid's /proc/mdstat.
 *
 * Unraid replaces the kernel's md with its own driver, whose /proc/mdstat
 * (also what "mdcmd status" prints) is not md's table but "key=value"
 * lines: the superblock's (sb*), the array's (md*), then for each of the
 * 30 slots diskNumber.N, diskName.N, diskSize.N, ..., rdevNumErrors.N.
 * Slot 0 is parity P, slot 29 parity Q, 1 to 28 are data disks, each a
 * filesystem of its own mounted at /mnt/diskN through /dev/mdN (mdNp1
 * since Unraid 6.12).  A parity check, sync or disk rebuild shows in
 * mdResync* (sizes and positions in 1 KiB blocks).
 */
#ifndef UNRAID_H
#define UNRAID_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define UNRAID_SLOTS		30	/* the driver's MD_SB_DISKS */
#define UNRAID_SLOT_P		0	/* parity P */
#define UNRAID_SLOT_Q		29	/* parity Q */

/* What a slot holds. */
enum unraid_role {
	UNRAID_EMPTY,		/* nothing assigned */
	UNRAID_PARITY,		/* slot 0 (P) or 29 (Q) */
	UNRAID_DATA		/* slots 1 to 28 */
};

/* What the running (or next) operation is, from mdResyncAction. */
enum unraid_op {
	UNRAID_OP_NONE,
	UNRAID_OP_CHECK,	/* "check P Q": parity check */
	UNRAID_OP_RECON,	/* "recon P", "recon D5": sync, rebuild */
	UNRAID_OP_CLEAR,	/* "clear": zeroing new disks */
	UNRAID_OP_OTHER
};

struct unraid_slot {
	int		 seen;		/* any key of this slot was read */
	enum unraid_role role;
	char		 disk_name[32];	/* "md1", "md1p1"; "" for parity */
	uint64_t	 disk_size;	/* KiB */
	int		 disk_state;	/* diskState.N, -1 if absent */
	char		 disk_id[64];	/* model_serial, "" if absent */
	char		 status[24];	/* rdevStatus.N: "DISK_OK"... */
	char		 dev[32];	/* rdevName.N: "sdd", "" if none */
	uint64_t	 reads, writes;	/* rdevReads.N, rdevWrites.N */
	uint64_t	 errors;	/* rdevNumErrors.N */
};

struct unraid {
	char		 md_version[16];	/* "2.9.25" */
	char		 state[24];	/* mdState: "STARTED", "STOPPED"... */
	int		 num_disks;	/* mdNumDisks, -1 if absent */
	int		 num_disabled;	/* mdNumDisabled, -1 if absent */
	int		 num_invalid;	/* mdNumInvalid, -1 if absent */
	int		 num_missing;	/* mdNumMissing, -1 if absent */
	char		 action[40];	/* mdResyncAction: "check P Q" */
	enum unraid_op	 op;		/* from action */
	int		 running;	/* mdResync non-zero: op in progress */
	int		 correcting;	/* mdResyncCorr: a check writes fixes */
	uint64_t	 resync_size;	/* KiB the operation covers */
	uint64_t	 resync_pos;	/* KiB done */
	uint64_t	 resync_dt;	/* s since the last mark */
	uint64_t	 resync_db;	/* KiB done since the last mark */
	double		 resync_pct;	/* -1 when not running */
	uint64_t	 speed_kib;	/* KiB/s, 0 unknown */
	uint64_t	 last_check;	/* sbSynced2: Unix time of the last
					 * check's end, 0 if none */
	uint64_t	 sync_errs;	/* sbSyncErrs of the last check */
	struct unraid_slot slots[UNRAID_SLOTS];
	int		 nparity;	/* parity slots assigned (0 to 2) */
	int		 ndata;		/* data slots assigned */
	size_t		 skipped;	/* lines not understood */
};

/*
 * Read <root>/proc/mdstat as md_unraid writes it.  -1 and ENOENT when
 * there is no /proc/mdstat or it is the kernel md's (not an Unraid box).
 */
int	unraid_read(const struct probe_root *, struct probe_buf *,
	    struct unraid *u, const char **errstr);
/*
 * Parse md_unraid's /proc/mdstat text.  Pure: tests and the fuzzer call
 * it.  -1 and EINVAL when the text has no mdState key.
 */
int	unraid_parse(const char *, size_t, struct unraid *, const char **);

#endif /* UNRAID_H */
