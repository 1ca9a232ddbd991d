#!/bin/bash
# The disk analyzer from the page: a volume (ext4 on a RAM loop device)
# configured in disktest.volumes is offered, ticked and tested in a real
# Chromium; the page shows the test's progress while it runs, then the
# volume's measured figures beside what its disk leads to expect, as the
# API gives them, and the live view sets the volume against its new
# baseline.  Screenshots in tests/artifacts/63-web-disktest/.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd losetup mkfs.ext4 mount umount curl jq
need_page

STEP=$((1 + SEED % 2))
echo "# steps of $STEP s"
ram_loop VOL 300M
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$VOL" ||
    skip_all "mkfs.ext4 failed"
mkdir "$T_TMP/vol"
mount "$VOL" "$T_TMP/vol" || skip_all "cannot mount ext4"
at_exit "retry umount $T_TMP/vol"
# Random data below the free space, so that the zone reads are reads.
head -c 200M /dev/urandom >"$T_TMP/vol/fill" && rm -f "$T_TMP/vol/fill"
sync

page_daemon "disktest:
  volumes: [$T_TMP/vol]"
check "/v1/info names the volume a disk test may write in" \
    jq -e --arg v "$T_TMP/vol" '.disktest.volumes == [$v]' <(api /v1/info)
VOLUME=$T_TMP/vol STEP_SECONDS=$STEP SIZE_MIB=32 page_test "$NPD_URL/" \
    "$NP_BUILDDIR/tests/artifacts/63-web-disktest" web-disktest.mjs
done_testing
