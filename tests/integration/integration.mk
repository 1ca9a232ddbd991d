# tests/integration/integration.mk: the real daemon, real devices
dist_check_SCRIPTS += tests/integration/10-api.sh \
	tests/integration/11-scopes.sh \
	tests/integration/12-api-attack.sh \
	tests/integration/18-http-heads.sh \
	tests/integration/13-per-address.sh \
	tests/integration/15-nonroot.sh tests/integration/16-state-strict.sh \
	tests/integration/17-tls.sh \
	tests/integration/20-btrfs.sh \
	tests/integration/30-counters.sh \
	tests/integration/50-root.sh tests/integration/85-runs.sh \
	tests/integration/92-bench-interrupt.sh
EXTRA_DIST += tests/integration/lib.sh
