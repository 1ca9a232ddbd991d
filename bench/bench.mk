# bench/bench.mk: benchmarks against the reference tools (not run by make check)
EXTRA_PROGRAMS = bench/probe-cost-bin
bench_probe_cost_bin_SOURCES = bench/probe-cost.c
bench_probe_cost_bin_LDADD = probes/libnasprobe.a
CLEANFILES += bench/probe-cost-bin
# bench/probe-cost is a script beside probe-cost.c: make's built-in rule
# must not try to compile it when the C file is the newer.
bench/probe-cost: ;
EXTRA_DIST += bench/probe-cost bench/mkbox24.sh bench/sampler-cost \
	bench/disk-vs-fio bench/synth-vs-iperf3 bench/smb-vs-smbclient \
	bench/footprint bench/verdict-accuracy bench/conn-load.py \
	bench/page-cost bench/page-watch.mjs

# make bench: every benchmark, each printing ratios to its reference tool.
bench: bench/probe-cost-bin daemon/nasperfd client/nasperf \
    tests/integration/diskbench-run$(EXEEXT)
	bash $(srcdir)/bench/probe-cost $(abs_top_builddir)
	bash $(srcdir)/bench/sampler-cost $(abs_top_builddir)
	bash $(srcdir)/bench/page-cost $(abs_top_builddir)
	bash $(srcdir)/bench/disk-vs-fio $(abs_top_builddir)
	bash $(srcdir)/bench/synth-vs-iperf3 $(abs_top_builddir)
	bash $(srcdir)/bench/smb-vs-smbclient $(abs_top_builddir)
	bash $(srcdir)/bench/footprint $(abs_top_builddir)
	bash $(srcdir)/bench/verdict-accuracy $(abs_top_builddir)
.PHONY: bench
