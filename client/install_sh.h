/*
 * install_sh.h: the shell that nasperf install and uninstall run on the
 * NAS, from the files of client/install/ and the packages'
 * packaging/nasperfd-ctl.sh, embedded at build time by scripts/embed.awk
 * (install_sh.c).  Each follows the shell variables cmd_install.c sets
 * first.
 */
#ifndef INSTALL_SH_H
#define INSTALL_SH_H

extern const char	install_common_sh[];	/* common.sh: helpers */
extern const char	install_detect_sh[];	/* detect.sh */
extern const char	install_pre_sh[];	/* install-pre.sh */
extern const char	install_service_sh[];	/* nasperfd-ctl.sh: nasperfd.sh */
extern const char	install_systemd_sh[];	/* start-systemd.sh */
extern const char	install_wait_sh[];	/* install-wait.sh */
extern const char	install_uninstall_sh[];	/* uninstall.sh */

#endif /* INSTALL_SH_H */
