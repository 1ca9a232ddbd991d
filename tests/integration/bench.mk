# tests/integration/bench.mk: nasperf bench on a directory, over SMB
# (a real smbd) and over NFS (a real ganesha.nfsd)
dist_check_SCRIPTS += tests/integration/94-bench-local.sh \
	tests/integration/96-bench-nfs.sh
