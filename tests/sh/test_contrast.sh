#!/bin/bash
# report.html's text colours read on its white page: every CSS `color:` of
# the style sheet (body text, .meta, .caption, the verdict heading h1.verdict
# and .weak, written in the INCONCLUSIVE colour) at 4.5:1 or more (WCAG 2
# relative luminance), on a CONFIRMED and a REFUTED trial. The INCONCLUSIVE
# orange was 2.25:1. The chart and page-1 colours: tests/unit/test_style.c.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/report_cache.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rc=0
for t in ddp-scales-well expected-speedup-missed; do
	r=$(report_of "samples/trials/$t")	# the report the other scripts share
	[ "$(cat "$r.rc")" = 0 ] || { echo "FAIL: report $t"; rc=1; continue; }
	python3 - "$r/report.html" <<'PY' || rc=1
import re, sys
html = open(sys.argv[1]).read()
css = html[html.index("<style>"):html.index("</style>")]
assert "background:#fff" in css, "the page is no longer white: check against its colour"
def lum(h):
    h = h if len(h) == 6 else "".join(c * 2 for c in h)
    def f(x):
        x /= 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
found = re.findall(r"([^{}\n]+)\{[^}]*?(?<![-a-z])color:#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b", css)
names = [s.strip() for s, _ in found]
for need in ("body", "h1.verdict", ".weak"):
    assert need in names, f"{need} has no colour in {names}"
bad = 0
for sel, h in found:
    r = 1.05 / (lum(h) + 0.05)
    if r < 4.5:
        print(f"FAIL: {sel.strip()} color #{h} at {r:.2f}:1 on white, under 4.5:1")
        bad = 1
sys.exit(bad)
PY
done
[ $rc -eq 0 ] && echo "ok: every report.html text colour at 4.5:1 or more"
exit $rc
