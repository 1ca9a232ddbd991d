#!/bin/bash
# The page over TLS: a nasperfd with api.tls and synth.tls serves the page
# over https with a policy that names the data port over https only, and a
# real Chromium (web-tls.mjs) logs in and runs the network test from the
# browser both ways over TLS, each with a rate and a verdict.  With
# synth.tls off, the page says the data plane must speak TLS too, since a
# browser will not fetch a plain port from an https page.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq openssl
need_page

SHOTS=$NP_BUILDDIR/tests/artifacts/65-web-tls
rm -rf "$SHOTS"
mkdir -p "$SHOTS"

# serve SYNTH_TLS: nasperfd with api.tls (lib.sh), and synth.tls as
# given, its state in a directory of its own.
serve() {
	ST=$T_TMP/st.$RANDOM
	tls_daemon "$ST" "" "  tls: $1
"
}
# browse [ENV...]: web-tls.mjs against the page, its checks numbered here.
browse() {
	env "$@" URL="https://127.0.0.1:$PORT/" TOKEN="$(cat "$ST/token")" \
	    SHOTS="$SHOTS" SEED="$SEED" PLAYWRIGHT="$PLAYWRIGHT" CHROMIUM="$CHROMIUM" \
	    timeout 300 node "$NP_SRCDIR/tests/integration/web-tls.mjs" \
	    >"$T_TMP/page.out" 2>&1
	page_checks "$T_TMP/page.out"
}

serve true || { echo "Bail out! nasperfd did not start"; exit 1; }
csp=$(curl -sSk -o /dev/null -D - "https://127.0.0.1:$PORT/" | tr -d '\r' |
    sed -n 's/^content-security-policy: //Ip')
case $csp in
*"connect-src 'self' https://127.0.0.1:$SPORT;"*)
	ok "the page's policy names the data port over https" ;;
*)	not_ok "the page's policy names the data port over https" "got: $csp" ;;
esac
browse
kill "$NPD_PID"
wait "$NPD_PID" 2>/dev/null

serve false || { echo "Bail out! nasperfd did not start"; exit 1; }
browse PLAIN_SYNTH=1
echo "# screenshots in $SHOTS"
done_testing
