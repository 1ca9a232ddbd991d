#!/bin/bash
# The page at / on the API port: served without the token but with a
# strict policy, compressed, revalidated by ETag, within its weight; then
# a real Chromium driven by playwright-core (web-page.mjs): the token
# prompt, a wrong token, live values moving during a synth download, a
# run marked by the buttons and its verdict, the run's page, compare.
# Screenshots are kept in tests/artifacts/61-web/ of the build tree.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq gzip node
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
    skip_all "chromium is not installed"
PLAYWRIGHT=$NP_SRCDIR/web/node_modules/playwright-core/index.mjs
[ -r "$PLAYWRIGHT" ] ||
    skip_all "web/node_modules is not installed (npm ci --prefix web)"

SEED=${NP_SEED:-$(od -An -tu4 -N4 /dev/urandom | tr -d ' ')}
echo "# seed $SEED (NP_SEED=$SEED repeats this run)"

SPORT=$(free_port)
printf 'synth:\n  listen: 127.0.0.1:%s\n' "$SPORT" >"$T_TMP/c.yaml"
export NASPERF_SYNTH_PORT=$SPORT
start_daemon -c "$T_TMP/c.yaml" ||
    { echo "Bail out! nasperfd did not start"; exit 1; }
SHOTS=$NP_BUILDDIR/tests/artifacts/61-web
rm -rf "$SHOTS"
mkdir -p "$SHOTS"

# hdr PATH NAME [CURL ARGS]: the value of response header NAME.
hdr() {
	local p=$1 n=$2
	shift 2
	curl -sS -o /dev/null -D - "$@" "$NPD_URL$p" |
	    tr -d '\r' | sed -n "s/^$n: //Ip" | head -1
}

is "/ is served without the token" "$(status /)" 200
is "/v1/baseline needs the token" "$(status /v1/baseline)" 401
is "an unknown file under /ui/ is 404" "$(status /ui/nothing.js)" 404
csp=$(hdr / Content-Security-Policy)
case $csp in
*"default-src 'none'"*"script-src 'self';"*"frame-ancestors 'none'"*)
	ok "the page's policy allows only its own scripts, no inline ones" ;;
*)	not_ok "the page's policy allows only its own scripts" "got: $csp" ;;
esac
is "nosniff" "$(hdr / X-Content-Type-Options)" nosniff
curl -sS "$NPD_URL/" >"$T_TMP/index.html"
check "index.html has no inline script or style" \
    bash -c "! grep -Eq '<script>|<script [^>]*>[^<]|<style|[[:space:]]on[a-z]+=' \
    '$T_TMP/index.html'"
check "every asset URL is relative (works under a path prefix)" \
    bash -c "! grep -Eq '(src|href)=\"/' '$T_TMP/index.html'"
is "app.js is sent compressed to a browser that takes gzip" \
    "$(hdr /ui/app.js Content-Encoding -H 'Accept-Encoding: gzip')" gzip
is "and as it is to one that does not" \
    "$(hdr /ui/app.js Content-Encoding)" ""
curl -sS -H 'Accept-Encoding: gzip' "$NPD_URL/ui/app.js" | gzip -dc |
    cmp -s - "$NP_SRCDIR/web/src/app.js"
is "the compressed app.js is the source's" "$?" 0
tag=$(hdr /ui/uplot.js ETag)
is "a known ETag is answered 304" \
    "$(status /ui/uplot.js -H "If-None-Match: $tag")" 304
weight=0
for f in / /ui/app.js /ui/app.css /ui/uplot.js /ui/uplot.css; do
	n=$(curl -sS -H 'Accept-Encoding: gzip' -o /dev/null \
	    -w '%{size_download}' "$NPD_URL$f")
	weight=$((weight + n))
done
echo "# page weight, compressed: $weight bytes"
check "the page weighs under 150 KB compressed ($weight bytes)" \
    test "$weight" -lt 153600
curl -sS -H "Authorization: Bearer $NPD_TOKEN" "$NPD_URL/v1/baseline" \
    >"$T_TMP/baseline.json"
check "/v1/baseline is an object before any disk test" \
    jq -e 'type == "object"' "$T_TMP/baseline.json"

# A run not yet ended is listed by ?open=1, an ended one is not.
api /v1/runs -X POST -d '{"label":"open-one","op":"read"}' >/dev/null
check "GET /v1/runs?open=1 lists the open run" \
    jq -e '[.runs[] | select(.label == "open-one")] | length == 1' \
    <(api "/v1/runs?open=1")
id=$(api "/v1/runs?open=1" | jq -r '.runs[0].id')
api "/v1/runs/$id/end" -X POST -d '{}' >/dev/null
check "and not once it has ended" \
    jq -e '[.runs[] | select(.label == "open-one")] | length == 0' \
    <(api "/v1/runs?open=1")

ncpu=$(api /v1/info | jq -r .cpu.logical_cpus)
URL=$NPD_URL/ TOKEN=$NPD_TOKEN NASPERF=$NASPERF API=127.0.0.1:$NPD_PORT \
    SHOTS=$SHOTS SEED=$SEED PLAYWRIGHT=$PLAYWRIGHT CHROMIUM=$CHROMIUM \
    NCPU=$ncpu timeout 300 node "$NP_SRCDIR/tests/integration/web-page.mjs" \
    >"$T_TMP/page.out" 2>&1
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "${line#ok - }" ;;
	"not ok - "*) not_ok "${line#not ok - }" ;;
	*) echo "# $line" ;;
	esac
done <"$T_TMP/page.out"
check "the browser test printed its checks" grep -q '^ok - ' "$T_TMP/page.out"
echo "# screenshots in $SHOTS"
done_testing
