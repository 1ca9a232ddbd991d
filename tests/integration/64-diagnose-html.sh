#!/bin/bash
# nasperf diagnose --html: the answer as a page, rendered by a real
# Chromium.  Against the real daemon and a directory whose name holds
# what HTML must escape, with --json beside it: the page has one row per
# test of the JSON, each ceiling, the steps, no script, and the name as
# text.  Then two targets in one budget, set side by side.  The
# screenshots are kept in tests/artifacts/64-diagnose-html/.
. "$(dirname "$0")/lib.sh"
need_cmd jq
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
    skip_all "chromium is not installed"
start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
SHOTS=$NP_BUILDDIR/tests/artifacts/64-diagnose-html
rm -rf "$SHOTS"
mkdir -p "$SHOTS"
D="$T_TMP/share <b>&'\"x"
mkdir "$D"
client --json diagnose --budget 30 --html "$T_TMP/d.html" "$D" \
    >"$T_TMP/d.json" 2>"$T_TMP/d.err"
is "diagnose --html --json exits 0" "$?" 0 || sed 's/^/# /' "$T_TMP/d.err"
check "the page was written" test -s "$T_TMP/d.html"
check "and no temporary file is left" test ! -e "$T_TMP/d.html.tmp"
check "the page has no script" bash -c "! grep -qi '<script' '$T_TMP/d.html'"
ud=$(mktemp -d "$T_TMP/profile.XXXXXX")
browse() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --disable-component-update \
	    --disable-sync --no-first-run --user-data-dir="$ud" "$@" \
	    2>>"$T_TMP/chromium.log"
}
browse --dump-dom "file://$T_TMP/d.html" >"$T_TMP/dom.html"
browse --window-size=1200,1400 --screenshot="$SHOTS/diagnose.png" \
    "file://$T_TMP/d.html" >/dev/null
check "Chromium rendered it" test -s "$SHOTS/diagnose.png"
# The DOM as the browser built it, read back with python's parser.
python3 - "$T_TMP/dom.html" "$T_TMP/d.json" "$D" >"$T_TMP/dom.out" <<'PY'
import html.parser, json, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.h1 = ""; self.in_h1 = False; self.section = None
        self.rows = {}; self.tags = set(); self.in_h2 = False
    def handle_starttag(self, t, a):
        self.tags.add(t)
        if t == "h1": self.in_h1 = True
        if t == "h2": self.in_h2 = True; self.section = ""
        if t == "tr" and self.section:
            self.rows[self.section] = self.rows.get(self.section, 0) + 1
    def handle_endtag(self, t):
        if t == "h1": self.in_h1 = False
        if t == "h2": self.in_h2 = False
    def handle_data(self, d):
        if self.in_h1: self.h1 += d
        if self.in_h2: self.section += d
p = P(); p.feed(open(sys.argv[1]).read())
doc = json.load(open(sys.argv[2]))
print("h1", p.h1 == sys.argv[3])
print("b", "b" not in p.tags)
# Each table has its header row.
print("tests", p.rows.get("Tests", 0) - 1, len(doc["tests"]))
print("ceilings", p.rows.get("Ceilings", 0) - 1, 2)
print("steps", p.rows.get("Steps", 0) - 1, len(doc["steps"]))
PY
is "the name is text, not markup" "$(sed -n 's/^h1 //p' "$T_TMP/dom.out")" \
    True
is "no tag came from the name" "$(sed -n 's/^b //p' "$T_TMP/dom.out")" True
for what in tests ceilings steps; do
	set -- $(sed -n "s/^$what //p" "$T_TMP/dom.out")
	is "a row per $what (${2:-?})" "${1:-none}" "${2:-}"
done
check "the JSON says the tests' verdicts" \
    jq -e '[.tests[] | select(.verdict.class != null)] | length >= 1' \
    "$T_TMP/d.json"
# Two targets in one budget: each diagnosed in turn, then side by side.
mkdir "$T_TMP/other"
client --json diagnose --budget 30 --protocols smb3,nfs3 \
    --html "$T_TMP/two.html" "$D" "$T_TMP/other" >"$T_TMP/two.json" \
    2>"$T_TMP/two.err"
is "diagnose of two targets exits 0" "$?" 0 || sed 's/^/# /' "$T_TMP/two.err"
check "--json has a comparison row and a page for each" jq -e \
    '(.comparison | length) == 2 and (.diagnoses | length) == 2' \
    "$T_TMP/two.json"
check "each row gives read, write and small files with their verdicts" \
    jq -e '[.comparison[] | select(.read.verdict != null and
    .read.bytes_per_second > 0 and .write.bytes_per_second > 0)] |
    length == 2' "$T_TMP/two.json"
check "a directory is diagnosed as local whatever --protocols names" \
    jq -e '[.comparison[].protocol] == ["local", "local"]' "$T_TMP/two.json"
check "the two shared the budget: the second had what the first left" \
    jq -e '.diagnoses[1].budget_seconds <=
    30.5 - .diagnoses[0].seconds and .diagnoses[0].budget_seconds > 14.9' \
    "$T_TMP/two.json" || jq -c '[.diagnoses[] | [.budget_seconds,
    .seconds]]' "$T_TMP/two.json" | sed 's/^/# /'
browse --dump-dom "file://$T_TMP/two.html" >"$T_TMP/two-dom.html"
browse --window-size=1200,1400 --screenshot="$SHOTS/side-by-side.png" \
    "file://$T_TMP/two.html" >/dev/null
check "the page sets them side by side" grep -q 'The protocols side by side' \
    "$T_TMP/two-dom.html"
is "with a row each" "$(sed -n '/side by side<\/h2>/,/<\/table>/p' \
    "$T_TMP/two-dom.html" | grep -c '<tr>')" 3
client diagnose --protocols smb9 "$D" >/dev/null 2>"$T_TMP/err"
is "an unknown protocol is refused" "$?" 2
check "  naming those it takes" grep -q 'smb1, smb2, smb3, nfs3, nfs4' \
    "$T_TMP/err"
client diagnose --budget 30 --html /nonexistent/dir/d.html "$D" \
    >/dev/null 2>"$T_TMP/err"
is "an --html file that cannot be written fails" "$?" 1
check "  and says why" grep -q -- '--html /nonexistent/dir/d.html' "$T_TMP/err"
done_testing
