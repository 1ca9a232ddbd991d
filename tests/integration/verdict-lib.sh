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
