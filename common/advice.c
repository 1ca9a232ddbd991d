/*
 * advice.c: what to try next, by verdict class and by likely cause.
 *
 * Each text says how to confirm the cause on the reviewer's own machines
 * and what lifts the limit, with the setting or command to use.  A likely
 * cause is more specific than its verdict class, so its advice comes first.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "advice.h"
#include "np.h"

struct advice {
	const char	*key;		/* a verdict class, a hint kind */
	const char	*text;
};

/* By verdict class: the classes of verdict.h. */
static const struct advice advice_classes[] = {
	{ "disk", "The disks are the limit: check that no resync, scrub or "
	    "rebuild ran during the copy (cat /proc/mdstat on the NAS, or its "
	    "storage manager), and measure what the volume does alone "
	    "(nasperf disktest VOLUME); more data disks, an SSD cache or "
	    "faster disks raise it." },
	{ "network", "The network is the limit: check the speed both ends "
	    "negotiated (ethtool on the NAS, the adapter's status on the "
	    "client), the cable and the switch port, and measure the path "
	    "alone (nasperf synth --both); a faster link, or SMB multichannel "
	    "over two, raises it." },
	{ "cpu", "The NAS's CPU is the limit: the verdict names the process "
	    "and its core.  SMB signing, SMB encryption and encrypted volumes "
	    "cost CPU for every byte (see the likely cause); without them, or "
	    "on a NAS with a faster CPU, the copy goes faster." },
	{ "contention", "Other work on the NAS took the CPU the copy needed "
	    "(the verdict names who): move indexing, thumbnails, virus scans "
	    "and backups out of the hours of copies, and test again with the "
	    "NAS otherwise idle." },
	{ "cache", "The NAS's memory served this copy, not its disks: a file "
	    "larger than the NAS's memory, or a copy right after its cache "
	    "was dropped (nasperf bench drops it before each read), measures "
	    "the disks." },
	{ "latency", "Round trips are the limit: each request waits for the "
	    "one before it; larger requests or more of them in flight go "
	    "faster (SMB3 multi-credit, NFS rsize and wsize, a copy tool with "
	    "several threads such as robocopy /MT)." },
	{ "client", "This client is the limit, not the NAS: its disk, its CPU "
	    "or the copying program.  To confirm, read into /dev/null (NUL on "
	    "Windows) or write from a RAM disk, or copy from another "
	    "machine." },
};

/* By likely cause: the kinds verdict_hints.c gives. */
static const struct advice advice_hints[] = {
	{ "smb_signing", "SMB signing: turn signing off on the client to "
	    "confirm, then copy again: macOS /etc/nsmb.conf "
	    "signing_required=no (under [default], then reconnect the share); "
	    "Windows: Set-SmbClientConfiguration -RequireSecuritySignature "
	    "$false (in an administrator PowerShell).  A NAS that requires "
	    "signing (server signing = mandatory) must allow it off too." },
	{ "smb_encryption", "SMB encryption: to confirm, copy from a share "
	    "without it: smb encrypt = if_required or off for that share in "
	    "smb.conf, or the share's encryption setting in DSM or QTS.  "
	    "Where it must stay, a NAS whose CPU has AES instructions "
	    "encrypts at a fraction of the cost." },
	{ "smb1", "SMB1: let the client speak SMB2 or SMB3: on the NAS, "
	    "server min protocol = SMB2 (smb.conf, or the minimum SMB "
	    "protocol in DSM or QTS); on macOS, /etc/nsmb.conf "
	    "protocol_vers_map=6; then reconnect the share." },
	{ "nfs_sync", "Sync NFS export: to confirm, export it async for a "
	    "test (/etc/exports, then exportfs -ra; in DSM, the NFS rule's "
	    "asynchronous option) and copy again; keep sync where a power cut "
	    "must not lose the last writes." },
	{ "sync_mount", "Sync mount: remount the volume without sync for a "
	    "test (mount -o remount,async MOUNTPOINT) and copy again; take "
	    "sync out of its options in /etc/fstab to keep it so." },
	{ "bond_member", "Bond: one copy uses one member.  Two clients at "
	    "once, or several streams (nasperf synth --streams 4) with a "
	    "layer3+4 hash on the bond and the switch, use more; a single "
	    "copy goes faster only over a faster link or SMB multichannel." },
	{ "mtu_mismatch", "MTU mismatch: give the bond and all its members "
	    "one MTU (ip link set DEV mtu N), and their switch ports too." },
	{ "mtu_path", "Jumbo frames on one end only: set one MTU on the NAS, "
	    "the switch and the client, or 1500 everywhere; from the client, "
	    "ping -M do -s 8972 NAS (Linux) or ping -D -s 8972 NAS (macOS) "
	    "passes only when 9000-byte frames get through." },
	{ "zfs_sync_always", "ZFS sync=always: to confirm, zfs set "
	    "sync=standard DATASET for a test and copy again; where every "
	    "write must be safe, a fast log device (zpool add POOL log DEV, "
	    "an SSD with power-loss protection) takes the intent log off the "
	    "pool's disks." },
	{ "zfs_sync_writes", "ZFS synchronous writes: a log device on an "
	    "SSD with power-loss protection (zpool add POOL log DEV) "
	    "shortens each wait.  zfs set sync=disabled DATASET for a test "
	    "shows what the pool does without it; do not leave it so where a "
	    "power cut must not lose the last writes." },
	{ "zfs_primarycache", "ZFS primarycache: zfs set primarycache=all "
	    "DATASET lets the ARC keep its file data, so a file read again is "
	    "served from memory." },
	{ "encrypted_volume", "Encrypted volume: copy to or from a volume "
	    "without encryption to confirm; where it must stay, a NAS whose "
	    "CPU has AES instructions ciphers at a fraction of the cost." },
};

/* The text for key in table t of n entries, or NULL. */
static const char *
advice_find(const struct advice *t, size_t n, const char *key)
{
	size_t	i;

	for (i = 0; key != NULL && i < n; i++) {
		if (strcmp(t[i].key, key) == 0)
			return (t[i].text);
	}
	return (NULL);
}

const char *
advice_class(const char *cls)
{
	return (advice_find(advice_classes, NP_NITEMS(advice_classes), cls));
}

const char *
advice_hint(const char *kind)
{
	return (advice_find(advice_hints, NP_NITEMS(advice_hints), kind));
}

/* Append text to next unless it is NULL or there already; -1 on ENOMEM. */
static int
advice_append(json_t *next, const char *text)
{
	json_t	*s;
	size_t	 i;

	if (text == NULL)
		return (0);
	json_array_foreach(next, i, s) {
		if (json_string_value(s) != NULL &&
		    strcmp(json_string_value(s), text) == 0)
			return (0);
	}
	if (json_array_append_new(next, json_string(text)) == -1) {
		errno = ENOMEM;
		return (-1);
	}
	return (0);
}

int
advice_add(json_t *next, const char *cls, const json_t *hints)
{
	json_t	*h;
	size_t	 i;

	json_array_foreach(hints, i, h) {
		if (advice_append(next, advice_hint(json_string_value(
		    json_object_get(h, "kind")))) == -1)
			return (-1);
	}
	return (advice_append(next, advice_class(cls)));
}
