# daemon/cfg.mk: configuration
CFG_DAEMON_SOURCES =
