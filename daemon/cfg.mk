# daemon/cfg.mk
