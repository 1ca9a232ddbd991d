#!/bin/bash
# A fleet as an existing Prometheus watches it: contrib/prometheus's rules
# pass promtool's checks and their unit tests, and a real Prometheus
# scrapes two nasperfd instances, evaluates the rules over what they serve
# (the verdicts of runs ended on each), and answers every query of
# contrib/grafana's dashboard.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq prometheus promtool

C=$NP_SRCDIR/contrib
check "promtool check rules accepts nasperf.rules.yml" \
    promtool check rules "$C/prometheus/nasperf.rules.yml"
cp "$C/prometheus/nasperf.rules.yml" "$C/prometheus/nasperf.rules.test.yml" \
    "$T_TMP/"
if (cd "$T_TMP" && promtool test rules nasperf.rules.test.yml) \
    >"$T_TMP/ptest" 2>&1; then
	ok "promtool test rules: the rules' unit tests pass"
else
	not_ok "promtool test rules: the rules' unit tests pass" \
	    "$(tail -20 "$T_TMP/ptest")"
fi
check "the dashboard is JSON with panels" \
    jq -e '.panels | length >= 8' "$C/grafana/nasperf.json"

# Two NAS boxes.
start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
# Prometheus scrapes with the read-only tokens.
A_PORT=$NPD_PORT A_CTL=$NPD_TOKEN A_TOKEN=$(cat "$NPD_STATE/token.read")
start_daemon || { echo "Bail out! a second nasperfd did not start"; exit 1; }
B_PORT=$NPD_PORT B_CTL=$NPD_TOKEN B_TOKEN=$(cat "$NPD_STATE/token.read")
printf '%s' "$A_TOKEN" >"$T_TMP/a.token"
printf '%s' "$B_TOKEN" >"$T_TMP/b.token"

# One run ended on each box: a verdict each.
end_run() {	# end_run PORT TOKEN
	local id
	id=$(curl -sS -H "Authorization: Bearer $2" -X POST -d \
	    '{"label":"fleet","protocol":"local","op":"read"}' \
	    "http://127.0.0.1:$1/v1/runs" | jq .id)
	dd if=/dev/zero of=/dev/null bs=1M count=100 2>/dev/null
	sleep 1
	curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $2" \
	    -X POST -d '{"bytes":104857600}' \
	    "http://127.0.0.1:$1/v1/runs/$id/end"
}
is "box a: a run ends" "$(end_run "$A_PORT" "$A_CTL")" 200
is "box b: a run ends" "$(end_run "$B_PORT" "$B_CTL")" 200
check "box a's /metrics counts its verdict" sh -c "curl -sS -H \
    'Authorization: Bearer $A_TOKEN' http://127.0.0.1:$A_PORT/metrics |
    grep -q '^nasperf_verdicts_total{origin=\"run\",class=\"[a-z]*\"} 1\$'"

# A real Prometheus, scraping both every second, the rules every second.
PPORT=$(free_port)
cat >"$T_TMP/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $T_TMP/nasperf.rules.yml
scrape_configs:
  - job_name: nasperf-a
    authorization:
      credentials_file: $T_TMP/a.token
    static_configs:
      - targets: ['127.0.0.1:$A_PORT']
    relabel_configs:
      - target_label: job
        replacement: nasperf
  - job_name: nasperf-b
    authorization:
      credentials_file: $T_TMP/b.token
    static_configs:
      - targets: ['127.0.0.1:$B_PORT']
    relabel_configs:
      - target_label: job
        replacement: nasperf
CONF
prometheus --config.file="$T_TMP/prometheus.yml" \
    --storage.tsdb.path="$T_TMP/tsdb" \
    --web.listen-address="127.0.0.1:$PPORT" >"$T_TMP/prometheus.log" 2>&1 &
PPID_=$!
at_exit "kill -TERM $PPID_; wait $PPID_"
P=http://127.0.0.1:$PPORT
q() {	# q EXPR: the query's JSON answer
	curl -sS --get --data-urlencode "query=$1" "$P/api/v1/query"
}
# Ready when both boxes were scraped and were up.
for ((i = 0; i < 300; i++)); do
	[ "$(q 'sum(up{job="nasperf"})' 2>/dev/null |
	    jq -r '.data.result[0].value[1] // 0' 2>/dev/null)" = 2 ] && break
	kill -0 "$PPID_" 2>/dev/null || break
	sleep 0.2
done
is "Prometheus scrapes both boxes, up" \
    "$(q 'sum(up{job="nasperf"})' | jq -r '.data.result[0].value[1]')" 2
# A second run on box a after the first scrapes: an increase to record.
is "box a: a second run ends" "$(end_run "$A_PORT" "$A_CTL")" 200
# Until the rules have been evaluated over box a's scrape after that run
# (on a busy machine, box b's may come first).
for ((i = 0; i < 300; i++)); do
	q "sum(nasperf:verdicts:increase1h{instance=\"127.0.0.1:$A_PORT\"})" |
	    jq -e '.data.result[0].value[1] | tonumber > 0' >/dev/null 2>&1 &&
	    break
	sleep 0.2
done
is "the recording rules give both boxes' verdicts" \
    "$(q 'count(count by (instance) (nasperf:verdicts:increase1h))' |
    jq -r '.data.result[0].value[1]')" 2
check "box a's second verdict is an increase" sh -c "curl -sS --get \
    --data-urlencode 'query=sum(nasperf:verdicts:increase1h{instance=\"127.0.0.1:$A_PORT\"})' \
    '$P/api/v1/query' | jq -e '.data.result[0].value[1] | tonumber > 0'"
check "every rule is healthy" sh -c "curl -sS '$P/api/v1/rules' | jq -e \
    '([.data.groups[].rules[] | select(.health != \"ok\")] | length == 0)
    and ([.data.groups[].rules[]] | length >= 12)'"
is "no alert fires on two healthy boxes" \
    "$(curl -sS "$P/api/v1/alerts" | jq '[.data.alerts[] |
    select(.state == "firing")] | length')" 0

# Every dashboard query, as Grafana would send it.
n=0 bad=0
while IFS= read -r e; do
	e=${e//\$instance/.*}
	e=${e//\$__rate_interval/1m}
	e=${e//\$__interval/1m}
	n=$((n + 1))
	if ! q "$e" | jq -e '.status == "success"' >/dev/null 2>&1; then
		bad=$((bad + 1))
		echo "# dashboard query refused: $e"
	fi
done < <(jq -r '.panels[].targets[].expr' "$C/grafana/nasperf.json")
is "Prometheus answers all $n dashboard queries" "$bad" 0
panel() {	# panel TITLE: its first query, as Grafana would send it
	local e
	e=$(jq -r --arg t "$1" '.panels[] | select(.title == $t) |
	    .targets[0].expr' "$C/grafana/nasperf.json")
	e=${e//\$instance/.*}
	e=${e//\$__rate_interval/1m}
	e=${e//\$__interval/1m}
	printf '%s' "$e"
}
check "the dashboard's verdicts by class have data" sh -c "curl -sS --get \
    --data-urlencode 'query=$(panel "Verdicts by class")' '$P/api/v1/query' |
    jq -e '.data.result | length >= 1'"
for s in "CPU busy per core" "Disks busy" "Serving processes' CPU"; do
	check "the dashboard's \"$s\" has data for both boxes" sh -c \
	    "curl -sS --get --data-urlencode 'query=count(count by (instance) ($(panel "$s")))' \
	    '$P/api/v1/query' | jq -e '.data.result[0].value[1] == \"2\"'"
done
done_testing
