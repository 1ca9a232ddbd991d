# packaging/deb.mk: the Debian package (debian/) and its build test
#
# "dpkg-buildpackage -b" at the top of the tree builds nasperf_VERSION_ARCH.deb
# (debian/rules runs this autotools build); tests/packaging/deb.sh builds it
# from a copy of the tree, runs lintian and installs it.
EXTRA_DIST += debian/changelog debian/control debian/copyright \
	debian/nasperf.README.Debian debian/nasperf.docs debian/nasperf.postinst \
	debian/nasperf.postrm debian/rules debian/source/format debian/.gitignore
dist_check_SCRIPTS += tests/packaging/deb.sh
