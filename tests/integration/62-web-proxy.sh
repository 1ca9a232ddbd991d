#!/bin/bash
# The page behind a reverse proxy under a path prefix, as DSM's and QTS's
# reverse proxies serve it: a real nginx maps /nasperf/ to the daemon, and
# the whole browser test of 61 runs through it (the token prompt, live
# values, a marked run and its verdict), every API call of the page
# taking the prefix.  Screenshots in tests/artifacts/62-web-proxy/.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq nginx
need_page
page_daemon

NGPORT=$(free_port)
mkdir -p "$T_TMP/nginx"
cat >"$T_TMP/nginx/nginx.conf" <<CONF
user root;
daemon off;
worker_processes 1;
pid $T_TMP/nginx/nginx.pid;
error_log $T_TMP/nginx/error.log;
events { worker_connections 64; }
http {
	access_log $T_TMP/nginx/access.log;
	client_body_temp_path $T_TMP/nginx/body;
	proxy_temp_path $T_TMP/nginx/proxy;
	fastcgi_temp_path $T_TMP/nginx/fastcgi;
	uwsgi_temp_path $T_TMP/nginx/uwsgi;
	scgi_temp_path $T_TMP/nginx/scgi;
	server {
		listen 127.0.0.1:$NGPORT;
		location = /nasperf { return 301 /nasperf/; }
		location /nasperf/ {
			proxy_pass http://127.0.0.1:$NPD_PORT/;
			proxy_http_version 1.1;
			proxy_buffering off;
		}
	}
}
CONF
nginx -p "$T_TMP/nginx" -c "$T_TMP/nginx/nginx.conf" \
    >"$T_TMP/nginx/out.log" 2>&1 &
NGPID=$!
at_exit "kill -TERM $NGPID; wait $NGPID"
for ((i = 0; i < 50; i++)); do
	curl -fs -o /dev/null "http://127.0.0.1:$NGPORT/nasperf/healthz" &&
	    break
	sleep 0.1
done
P=http://127.0.0.1:$NGPORT/nasperf
is "nginx serves the page under /nasperf/" \
    "$(curl -sS -o /dev/null -w '%{http_code}' "$P/")" 200
is "and its chart library" \
    "$(curl -sS -o /dev/null -w '%{http_code}' "$P/ui/uplot.js")" 200
is "an API call through the prefix needs the token" \
    "$(curl -sS -o /dev/null -w '%{http_code}' "$P/v1/info")" 401
is "and passes with it" "$(curl -sS -o /dev/null -w '%{http_code}' \
    -H "Authorization: Bearer $NPD_TOKEN" "$P/v1/info")" 200

page_test "$P/" "$NP_BUILDDIR/tests/artifacts/62-web-proxy"
check "the page's calls went through the prefix" \
    grep -q 'GET /nasperf/v1/samples' "$T_TMP/nginx/access.log"
check "and none missed it" \
    bash -c "! grep -Eq '\"[A-Z]+ /(v1|ui)/' '$T_TMP/nginx/access.log'"
done_testing
