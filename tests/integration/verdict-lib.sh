# verdict-lib.sh: what the verdict tests (80-84) share: opening and
# closing a run on the test daemon, reading its report, waiting for a
# quiet machine and retrying a measurement whose verdict other tests'
# load took.  Sourced after lib.sh's start_daemon.

# The headers of a request with a JSON body.
H=(-H "Authorization: Bearer $NPD_TOKEN" -H "Content-Type: application/json")

# run_open JSON: open a live run; its id goes to RUN.
run_open() {
	RUN=$(api /v1/runs -X POST "${H[@]}" -d "$1" | jq -r .id)
}

# run_close JSON: end run RUN; the report goes to $T_TMP/rep.$RUN.
run_close() {
	api "/v1/runs/$RUN/end" -X POST "${H[@]}" -d "$1" >"$T_TMP/rep.$RUN"
}

# vget FILTER: a figure of the last report.
vget() {
	jq -r "$1" "$T_TMP/rep.$RUN" 2>/dev/null
}

# quiet: wait, up to a minute, for a second in which no disk but those in
# OURS was busy more than half the time and together they moved less than
# 10 MB, tasks stalled on I/O less than a third of it and the CPUs were
# less than QUIET_CPU (60) % busy: the machine may be running other tests,
# whose load would be the bottleneck.
quiet() {
	local i
	for ((i = 0; i < 30; i++)); do
		{ cat /proc/stat /proc/diskstats /proc/pressure/io; sleep 1
		  cat /proc/stat /proc/diskstats /proc/pressure/io; } |
		    awk -v ours=" ${OURS:-} " -v cpu="${QUIET_CPU:-60}" '
		    $1 == "cpu" { n++; b[n] = $2 + $3 + $4 + $7 + $8 + $9;
			t[n] = b[n] + $5 + $6; next }
		    NF >= 14 && $1 ~ /^[0-9]+$/ && index(ours, " " $3 " ") == 0 {
			if (n == 1) { io[$3] = $13; mv[$3] = $6 + $10 }
			else if ($13 - io[$3] > 500) busy = 1
			else moved += $6 + $10 - mv[$3] }
		    $1 == "some" { sub(/.*total=/, ""); psi[n] = $0 }
		    END { exit !(busy == 0 && moved < 20000 &&
			psi[2] - psi[1] < 333333 &&
			t[2] > t[1] &&
			(b[2] - b[1]) / (t[2] - t[1]) < cpu / 100) }' && return 0
		sleep 1
	done
	echo "# the machine stayed busy for a minute"
}

# measure FUNC WANT [RESOURCE]: run FUNC (it opens and closes a run) until
# the verdict is class WANT (naming RESOURCE), at most five times: when
# other tests share the machine their load can be the real bottleneck of an
# attempt.
measure() {
	local k want="$2${3:+: $3}"
	for k in 1 2 3 4 5; do
		quiet
		"$1"
		if [ -z "$(vget '.verdict.class // empty')" ]; then
			head -c 300 "$T_TMP/rep.$RUN" | sed 's/^/# no report: /'
			echo
		fi
		echo "# $(vget '.verdict.class + ": " + .verdict.resource')"
		echo "# $(vget .verdict.summary)"
		[ "$(vget .verdict.class)${3:+: $(vget .verdict.resource)}" = \
		    "$want" ] && return 0
		[ "$k" -lt 5 ] && echo "# attempt $k was not $want; again"
	done
	return 0
}
