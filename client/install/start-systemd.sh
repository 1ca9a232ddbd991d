# shellcheck shell=sh
# start-systemd.sh: nasperfd.service enabled and started, and how the
# wait (install-wait.sh) asks after it.
# shellcheck disable=SC2015
systemctl daemon-reload &&
    systemctl enable nasperfd.service >/dev/null 2>&1 &&
    systemctl restart nasperfd.service ||
    np_err "systemctl could not start nasperfd.service"
np_alive() { systemctl is-active --quiet nasperfd.service; }
np_pid() { systemctl show -p MainPID nasperfd.service | sed 's/^MainPID=//'; }
np_log() {
	journalctl -u nasperfd.service -n 20 --no-pager 2>/dev/null |
	    sed 's/^/np.log=/'
}
