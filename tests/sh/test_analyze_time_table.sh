#!/bin/bash
# analyze's "where the time went" table shows, per GPU, the exposed
# communication spent waiting for a peer beside the exposed communication
# itself: on the pipeline-bubble sample each stage waits for the other (known
# answers from its truth.json, written by the sample generator); a GPU with no
# closed step window gets its whole profiled span instead (a one-step real
# capture, when the real traces are there).
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$SCALEAUDIT" analyze samples/trials/pipeline-bubble > "$tmp/bubble.txt" 2> /dev/null
python3 - "$tmp/bubble.txt" samples/trials/pipeline-bubble/truth.json <<'PY' || fail=1
import json, math, sys
def numfmt(v):  # render/numfmt's rule: one decimal from 1 up, three significant digits below
    if abs(v) < 1e-6:
        return "0"
    dec = lambda m: 1 if m >= 1 else min(6, 2 - math.floor(math.log10(m)))
    d = min(dec(abs(v)), dec(round(abs(v), dec(abs(v)))))
    return "%.*f" % (d, v)
text = open(sys.argv[1]).read().splitlines()
truth = json.load(open(sys.argv[2]))
head = text.index(next(l for l in text if l.startswith("Where the time went")))
cols = text[head + 1].split()
assert cols[:9] == ["run", "GPU", "step", "compute", "exposed", "comm", "waiting", "memory", "idle"], cols
rows = {}
for line in text[head + 2:]:
    if not line.strip():
        break
    f = line.split()
    rows[(f[0], int(f[1]))] = f
bad = 0
for r in truth["runs"]:
    for g in r["per_gpu"]:
        want_step = numfmt(g["mean_step_s"] * 1e3)
        want_wait = numfmt(g["step_s"]["exposed_comm_wait"] * 1e3)
        got = rows.get((r["name"], g["rank"]))
        if not got or got[2] != want_step or got[5] != want_wait:
            print(f"{r['name']} GPU {g['rank']}: want step {want_step} waiting {want_wait}, got {got}")
            bad = 1
sys.exit(bad)
PY

if [ -n "${SHARED:-}" ]; then
	mkdir -p "$tmp/t/run"
	cp "$SHARED/realdata/kineto_trace/hta__triton_example__triton_example.json.gz" "$tmp/t/run/"
	"$SCALEAUDIT" analyze "$tmp/t" > "$tmp/span.txt" 2> /dev/null
	grep -qxF "No closed step window: the whole profiled span (ms):" "$tmp/span.txt" ||
		{ echo "no span table for a one-step capture"; cat "$tmp/span.txt"; fail=1; }
	grep -q "^Where the time went" "$tmp/span.txt" &&
		{ echo "an empty per-step table is printed for a run without steady steps"; fail=1; }
fi
exit $fail
