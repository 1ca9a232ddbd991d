# packaging/vendor.mk: the Synology (.spk) and QNAP (.qpkg) packages
#
# "make spk qpkg" builds, for each architecture of NASPKG_ARCHES, the
# packages nasperf-ARCH-VERSION-BUILD.spk and nasperf_VERSION_ARCH.qpkg in
# NASPKG_OUTDIR from the static binaries in static/ARCH ("make static").
# Without them, x86_64 packages are made from the build tree's own,
# dynamically linked daemon/nasperfd and client/nasperf: they install and
# run on this machine, for the tests, but not on a NAS; the other
# architectures are skipped.  NASPKG_BUILD is DSM's build number.

NASPKG_ARCHES = x86_64 armhf aarch64
NASPKG_BUILD = 1
NASPKG_OUTDIR = .

VENDOR_FILES = packaging/spk.sh packaging/qpkg.sh packaging/vendor-lib.sh \
	packaging/nasperfd-ctl.sh \
	packaging/synology/installer packaging/synology/start-stop-status \
	packaging/synology/privilege packaging/synology/resource \
	packaging/synology/nasperf.sc \
	packaging/qnap/header.sh packaging/qnap/qinstall.sh \
	packaging/qnap/nasperf.sh packaging/qnap/uninstall.sh \
	packaging/qnap/package_routines packaging/qnap/qpkg.cfg.in \
	packaging/icons/mkicons.py packaging/icons/nasperf-64.png \
	packaging/icons/nasperf-80.png packaging/icons/nasperf-gray.png \
	packaging/icons/nasperf-256.png
EXTRA_DIST += $(VENDOR_FILES)

dist_check_SCRIPTS += tests/packaging/vendor.sh

.PHONY: spk qpkg
spk qpkg: daemon/nasperfd$(EXEEXT) client/nasperf$(EXEEXT)
	@set -e; mkdir -p '$(NASPKG_OUTDIR)'; \
	for a in $(NASPKG_ARCHES); do \
		if [ -x static/$$a/nasperfd ] && [ -x static/$$a/nasperf ]; then \
			dir=static/$$a; \
		elif [ $$a = x86_64 ] && [ "`uname -m`" = x86_64 ]; then \
			echo "$@: no static/$$a (make static): packaging the" \
			    "build tree's dynamically linked binaries, which" \
			    "run here but not on a NAS"; \
			dir=naspkg-bin/$$a; mkdir -p $$dir; \
			cp daemon/nasperfd$(EXEEXT) $$dir/nasperfd; \
			cp client/nasperf$(EXEEXT) $$dir/nasperf; \
		else \
			echo "$@: no static/$$a (make static): $$a skipped"; \
			continue; \
		fi; \
		if [ $@ = spk ]; then \
			$(SHELL) $(srcdir)/packaging/spk.sh --arch $$a \
			    --bin $$dir --version $(VERSION) \
			    --build $(NASPKG_BUILD) --out '$(NASPKG_OUTDIR)'/nasperf-$$a-$(VERSION)-$(NASPKG_BUILD).spk; \
		else \
			$(SHELL) $(srcdir)/packaging/qpkg.sh --arch $$a \
			    --bin $$dir --version $(VERSION) \
			    --out '$(NASPKG_OUTDIR)'/nasperf_$(VERSION)_$$a.qpkg; \
		fi; \
	done

clean-local: clean-naspkg
.PHONY: clean-naspkg
clean-naspkg:
	rm -rf naspkg-bin
	rm -f nasperf-*.spk nasperf_*.qpkg
