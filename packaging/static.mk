# packaging/static.mk: static builds of nasperfd and nasperf for x86_64, armhf and aarch64
