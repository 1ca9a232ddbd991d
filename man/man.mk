# man/man.mk: man pages and the systemd unit
