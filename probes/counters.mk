# probes/counters.mk
