#!/bin/bash
# The page at / on the API port: served without the token but with a
# strict policy, compressed, revalidated by ETag, within its weight; then
# a real Chromium driven by playwright-core (web-page.mjs): the token
# prompt, a wrong token, live values moving during a synth download, a
# run marked by the buttons and its verdict, the run's page, compare.
# Screenshots are kept in tests/artifacts/61-web/ of the build tree.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq gzip
need_page

page_daemon
SHOTS=$NP_BUILDDIR/tests/artifacts/61-web

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

page_test "$NPD_URL/" "$SHOTS"
done_testing
