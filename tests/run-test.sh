#!/bin/sh
# Runs one test for make check: compiled tests directly, shell tests with sh.
# NP_SKIP_INTEGRATION=1 (set by make distcheck) skips the integration scripts.
case "$1" in
*.sh)
	if [ -n "${NP_SKIP_INTEGRATION:-}" ]; then
		echo "1..0 # SKIP integration tests are not run by distcheck"
		exit 0
	fi
	exec bash "$@" ;;
*)	exec "$@" ;;
esac
