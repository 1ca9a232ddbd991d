[nasperf]
title="nasperf API and synthetic data"
desc="nasperf"
port_forward="yes"
dst.ports="9631,9632/tcp"
