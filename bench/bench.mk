# bench/bench.mk
