# verdict-lib.sh: what the verdict tests share: opening and closing a run
# on the test daemon and reading its report.  Sourced after lib.sh's
# start_daemon.  A verdict test builds its bottleneck with parameters
# drawn at random, puts a neighbour off the path, and asserts on its first
# attempt: it never waits for a quiet machine nor tries again.

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

# run_close_read BYTES T0 T1: end run RUN, a read of BYTES the client
# timed from T0 to T1 (date +%s.%N), stop the NEIGHBOUR and show the
# verdict.
run_close_read() {
	run_close "{\"bytes\":$1,\"client_seconds\":$(awk \
	    "BEGIN { print $3 - $2 }")}"
	kill "$NEIGHBOUR"
	wait "$NEIGHBOUR" 2>/dev/null
	vshow
}

# vget FILTER: a figure of the last report.
vget() {
	jq -r "$1" "$T_TMP/rep.$RUN" 2>/dev/null
}

# vshow: the last report's verdict, its path, volumes and observations,
# as TAP comments.
vshow() {
	echo "# $(vget '.verdict.class + ": " + .verdict.resource + ": " +
	    .verdict.summary')"
	vget '.path.summary, (.path.volumes[]?.summary), (.observations[].text)' |
	    sed 's/^/#   /'
}

# disk_verdict_checks: the last report, of a read in lib.sh's
# disk_scenario, is disk-bound on VOL; its path names VOL's mount and
# devices; NB, read by a neighbour, is an observation off the path.
disk_verdict_checks() {
	is "disk: class" "$(vget .verdict.class)" disk
	is "disk: the resource is the share's volume, $VOLN" \
	    "$(vget .verdict.resource)" "$VOLN"
	case $(vget .verdict.summary) in
	*"of what the disk analyzer measured it can do"*)
		ok "disk: judged against its baseline" ;;
	*)	not_ok "disk: judged against its baseline" ;;
	esac
	is "the path's volume is the share's mount" \
	    "$(vget '.path.volumes[0].mount')" "$T_TMP/vol"
	check "the path's devices are $VOLN's" jq -e --arg d "$VOLN" \
	    '.path.volumes[0].devices | index($d) != null' "$T_TMP/rep.$RUN"
	is "the disks' ceiling is $VOLN's baseline" \
	    "$(vget .ceilings.disks.of)" "$VOLN"
	is "the lower ceiling is the disks'" "$(vget .ceilings.lower)" disks
	check "the transfer got most of it" jq -e \
	    '.ceilings.share_of_lower_pct > 80' "$T_TMP/rep.$RUN"
	check "the path's connections sent the whole file" jq -e --argjson b \
	    $((RATE * SECS * 1048576)) '[.path.connections[].sent_bytes] | add |
	    . >= $b and . < $b * 1.1' "$T_TMP/rep.$RUN"
	check "the neighbour $NBN is an observation off the path" jq -e \
	    --arg d "$NBN was busy" '[.observations[].text |
	    select(startswith($d) and contains("off this transfer'"'"'s path"))] |
	    length == 1' "$T_TMP/rep.$RUN"
}
