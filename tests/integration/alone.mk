# alone.mk: the integration tests that run with no other test beside them
# (lib.sh: alone), first in make check's list: three at a time, they
# queue for the machine one after another before the tests that can share
# it start (scripts/test.sh runs make check -j3).  Each is listed here
# only; its build rules, if any, stay with its part.
dist_check_SCRIPTS += tests/integration/70-diskbench.sh \
	tests/integration/71-disktest.sh \
	tests/integration/73-disktest-btrfs.sh \
	tests/integration/95-bench-smb.sh \
	tests/integration/91-synth-net.sh \
	tests/integration/88-verdict-client-upload.sh \
	tests/integration/82-verdict-cpu.sh \
	tests/integration/40-iostat.sh \
	tests/integration/83-verdict-cache.sh \
	tests/integration/84-verdict-latency.sh
