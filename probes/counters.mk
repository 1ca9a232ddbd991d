# probes/counters.mk: counter probes (owned by the counters work)
COUNTERS_DAEMON_SOURCES =
COUNTERS_CLIENT_SOURCES =
