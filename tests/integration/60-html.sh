#!/bin/bash
# The HTML report as a browser shows it.  The example reports are rendered
# by t_report_render; headless Chromium (as in LAB.md section 9) takes a
# screenshot, which must have the window's size and must not be blank, and
# dumps the DOM it built, in which every chart must be an <svg> with its
# lines, and no label may have become markup.
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
    skip_all "chromium is not installed"
RENDER=$NP_BUILDDIR/tests/unit/t_report_render
[ -x "$RENDER" ] || { echo "Bail out! $RENDER is not built"; exit 1; }
REPORTS=$NP_SRCDIR/tests/fixtures/reports

# browse ARGS...: headless Chromium with a fresh profile and no network
# chatter; its complaints (dbus) go to a log.
browse() {
	local ud
	ud=$(mktemp -d "$T_TMP/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --disable-component-update \
	    --disable-sync --no-first-run --user-data-dir="$ud" "$@" \
	    2>>"$T_TMP/chromium.log"
}

# png_size FILE: "WIDTHxHEIGHT" from the PNG header, or nothing.
png_size() {
	local b
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
	    return
	b=($(od -An -tu1 -j16 -N8 "$1"))
	echo "$(((b[0] << 24) + (b[1] << 16) + (b[2] << 8) + b[3]))x$(((b[4] << 24) + (b[5] << 16) + (b[6] << 8) + b[7]))"
}

# colours FILE: the number of distinct colours in an 8-bit RGB or RGBA PNG
# (what Chromium writes), counted by python3 with zlib.
colours() {
	python3 - "$1" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
i, idat, hdr = 8, b"", None
while i < len(d):
    n, t = struct.unpack(">I4s", d[i:i + 8])
    if t == b"IHDR":
        hdr = struct.unpack(">IIBB", d[i + 8:i + 18])
    elif t == b"IDAT":
        idat += d[i + 8:i + 8 + n]
    i += n + 12
w, h, depth, ctype = hdr
bpp = {2: 3, 6: 4}[ctype] if depth == 8 else sys.exit("not 8-bit")
raw, stride = zlib.decompress(idat), w * bpp
prev, seen, p = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[p], bytearray(raw[p + 1:p + 1 + stride])
    p += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        seen.update(bytes(line[k:k + 3]) for k in range(0, stride, bpp * 2))
    prev = line
print(len(seen))
EOF
}

# count PATTERN FILE: occurrences of a fixed string in FILE.
count() {
	grep -oF -- "$1" "$2" | wc -l
}

# -- the screenshot: the RAID6 report, 8 members under their array
html=$T_TMP/disk-raid6.html png=$T_TMP/disk-raid6.png
"$RENDER" html "$REPORTS/disk-raid6.json" >"$html"
is "disk-raid6: rendered" "$?" 0
browse --window-size=1200,2400 --screenshot="$png" "file://$html" >/dev/null
is "a 1200x2400 PNG" "$(png_size "$png")" 1200x2400
# A blank page of this size is 13 KB; this one, about 220 KB.
size=$(stat -c %s "$png" 2>/dev/null || echo 0)
if [ "$size" -gt 60000 ]; then
	ok "not blank: $size bytes"
else
	not_ok "not blank" "$size bytes, a blank page is about 13000"
fi
if command -v python3 >/dev/null 2>&1; then
	n=$(colours "$png")
	if [ "${n:-0}" -ge 20 ]; then
		ok "$n colours drawn"
	else
		not_ok "colours drawn" "${n:-no} distinct colours"
	fi
else
	skip "python3 is not installed: colours not counted"
fi

# -- the DOM Chromium built from four reports
for name in disk-raid6 nulls-gaps cpu64-client transfer-stopped; do
	html=$T_TMP/$name.html dom=$T_TMP/$name.dom
	"$RENDER" html "$REPORTS/$name.json" >"$html"
	browse --dump-dom "file://$html" >"$dom"
	figs=$(count '<figure class="ch">' "$html")
	check "$name: the page has charts" test "$figs" -gt 0
	is "$name: every chart is an svg in the DOM" \
	    "$(count '<svg' "$dom")" "$figs"
	is "$name: every svg has its viewBox" \
	    "$(count 'viewBox="0 0 ' "$dom")" "$figs"
	check "$name: lines in the DOM" \
	    test "$(count '<path class="ln"' "$dom")" -ge "$figs"
	check "$name: the verdict in the DOM" grep -q 'class="big">' "$dom"
	is "$name: no script element" "$(count '<script' "$dom")" 0
done

# -- the charts as Chromium lays them out: a copy of the page with a script
# that writes each plot's size and the section's width into the DOM
# measure NAME WIDTH: "WxH WxH ... in W" for a window WIDTH pixels wide.
measure() {
	{
		sed '/^<\/body>$/,$d' "$T_TMP/$1.html"
		cat <<'EOF'
<script>
var r = function (e) { return e.getBoundingClientRect(); };
document.body.dataset.m = [].map.call(document.querySelectorAll(
    "figure.ch svg"), function (s) {
	return Math.round(r(s).width) + "x" + Math.round(r(s).height);
}).join(" ") + " in " + Math.round(r(document.getElementById("series")).width);
</script>
</body>
</html>
EOF
	} >"$T_TMP/$1.m.html"
	browse --window-size="$2,2000" --dump-dom "file://$T_TMP/$1.m.html" |
	    sed -n 's/.*data-m="\([^"]*\)".*/\1/p'
}
for w in 1200 600; do
	m=$(measure cpu64-client $w)
	echo "# at $w px: $m"
	first=${m%% *} section=${m##* in }
	# All of it but the y labels' column and the padding, 58 px.
	check "at $w px the client's chart spans the page" \
	    test "${first%x*}" -ge $((section - 64))
	is "at $w px a chart keeps its height" "${first#*x}" 200
done

# -- what the hostile labels became
dom=$T_TMP/nulls-gaps.dom
check "the label stays text in the DOM" \
    grep -qF '<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "x"</h1>' "$dom"
check "the observation's markup stays text" \
    grep -qF '&lt;b&gt;bold&lt;/b&gt;' "$dom"
check "gaps shaded" grep -q '<rect class="gap"' "$dom"
check "the 64 cores are limited" grep -q 'and 48 more cores' \
    "$T_TMP/cpu64-client.dom"

# -- a run its client stopped, its path seen
dom=$T_TMP/transfer-stopped.dom
is "the stopped run says so above its verdict" "$(grep -o \
    'id="interrupted"\|id="verdict"' "$dom" | head -1)" 'id="interrupted"'
check "the client's average is said to be one" \
    grep -q '<figcaption>Client rate: an average</figcaption>' "$dom"
check "the average is dotted" grep -q '<path class="ln avg"' "$dom"
check "what to try next, in the DOM" \
    grep -q '<h2>What to try next</h2>' "$T_TMP/disk-raid6.dom"
is "the run's interface is the first network chart" "$(grep -o \
    '<figcaption>[a-z0-9]* receive and send[^<]*' "$dom" | head -1)" \
    "<figcaption>eth0 receive and send: the run's interface"

done_testing
