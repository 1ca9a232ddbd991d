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

# serve SYNTH_TLS: nasperfd with api.tls, and synth.tls as given, on free
# ports PORT and SPORT (others when one was taken meanwhile).
serve() {
	local i try
	for ((try = 0; try < 5; try++)); do
		PORT=$(free_port)
		SPORT=$(free_port)
		[ "$SPORT" != "$PORT" ] || continue
		ST=$T_TMP/st.$PORT
		mkdir -m 700 "$ST"
		printf 'api:\n  listen: 127.0.0.1:%d\n  tls: true\nsynth:\n  listen: 127.0.0.1:%d\n  tls: %s\n' \
		    "$PORT" "$SPORT" "$1" >"$T_TMP/c.yaml"
		"$NASPERFD" -f -c "$T_TMP/c.yaml" -s "$ST" \
		    >"$T_TMP/d.$PORT.log" 2>&1 &
		PID=$!
		at_exit "kill $PID 2>/dev/null"
		for ((i = 0; i < 100; i++)); do
			if curl -fsk -o /dev/null \
			    "https://127.0.0.1:$PORT/healthz" &&
			    grep -q "synth: listening on 127.0.0.1:$SPORT" \
			    "$T_TMP/d.$PORT.log"; then
				return 0
			fi
			kill -0 "$PID" 2>/dev/null || break
			sleep 0.1
		done
		kill "$PID" 2>/dev/null
		wait "$PID" 2>/dev/null
		grep -q "already in use" "$T_TMP/d.$PORT.log" || return 1
	done
	return 1
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
kill "$PID"
wait "$PID" 2>/dev/null

serve false || { echo "Bail out! nasperfd did not start"; exit 1; }
browse PLAIN_SYNTH=1
echo "# screenshots in $SHOTS"
done_testing
