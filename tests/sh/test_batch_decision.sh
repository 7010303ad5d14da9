#!/bin/bash
# batch carries each trial's decision (what to rent next) into results.sqlite,
# summary.csv, summary.json, index.md and index.html. The trials are built
# from the samples with a target and a price, as test_decision.sh builds them;
# the expected figures are worked out by hand from the generator's throughput
# of ddp-scales-well's 2gpu run (truth.json: 376.946019 samples/s), the
# default margin 0.15 and lots of 2 GPUs:
#   a: 1e8 samples at 4.50: 1e8 / 376.946019 / 86400 = 3.0705 days, 3.531
#      with the margin: a 7-day window of 1 lot of 2 B200, 2 x 7 x 24 = 336
#      GPU-hours rented, 336 x 4.50 = 1512.00;
#   f: no target: 1 lot of 2 B200, no window, so no days, hours or cost;
#   g: unrelated-jobs: nothing is rented, every rent column NULL;
#   broken: a trial that fails: no decision at all.
# Then a results.sqlite of the previous version (its trials table without the
# decision's columns) in the same output directory is migrated: the columns
# are added and the skipped trials' rows are filled from their folders.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# trial NAME SAMPLE LINES...: a copy of the sample with LINES added to trial.ini
trial() {
	local name=$1 sample=$2
	shift 2
	cp -r "samples/trials/$sample" "$tmp/in/$name"
	rm -f "$tmp/in/$name/truth.json"
	[ $# -eq 0 ] || printf '%s\n' "$@" >> "$tmp/in/$name/trial.ini"
}
mkdir -p "$tmp/in/broken/1gpu"
trial a ddp-scales-well "target_samples = 100000000" "gpu_hour_price = 4.50"
trial f ddp-scales-well
trial g unrelated-jobs "target_samples = 100000000" "gpu_hour_price = 4.50"
printf '[trial]\ntitle = nothing usable\n' > "$tmp/in/broken/trial.ini"
echo hello > "$tmp/in/broken/1gpu/notes.txt"

"$SCALEAUDIT" batch "$tmp/in" -o "$tmp/out" -j2 > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
[ $rc -eq 3 ] || { echo "batch exited $rc, want 3 (one trial fails)"; cat "$tmp/stderr"; fail=1; }

A='Rent 1 lot of 2x B200 for 7 days: 3.1 days needed at 376.9 samples/s (margin 128%), 1,512 for the window (costs in gpu_hour_price units; set currency = USD in trial.ini to name it)'
F='Rent 1 lot of 2x B200: lowest cost per sample, 1.47 GPU-hours per million samples at 376.9 samples/s; no target in trial.ini, no window'

# check FILE: the decision's columns of every trial, as results.sqlite, summary.csv or
# summary.json hold them (an empty CSV field is NULL), against the values worked out above
check() {
	python3 - "$1" "$A" "$F" <<'EOF' || fail=1
import csv, json, math, sqlite3, sys
path, A, F = sys.argv[1:4]
cols = ["decision", "rent_gpu_model", "rent_lots", "rent_lot_gpus", "rent_window_days",
        "rent_windows", "days_needed", "window_gpu_hours", "window_cost"]
S2 = 376.946019
want = {
    "in--a": [A, "B200", 1, 2, 7, 1, 1e8 / S2 / 86400, 336.0, 1512.0],
    "in--f": [F, "B200", 1, 2, None, None, None, None, None],
    "in--g": ["Rent nothing yet:", None, None, None, None, None, None, None, None],
    "in--broken": [None] * 9,
}
if path.endswith(".sqlite"):
    db = sqlite3.connect(path)
    names = [c[1] for c in db.execute("PRAGMA table_info(trials)")]
    rows = {r[0]: dict(zip(["id"] + cols, r)) for r in db.execute("SELECT id, %s FROM trials" % ", ".join(cols))}
    typed = {r[0]: r[1:] for r in db.execute("SELECT id, %s FROM trials" % ", ".join("typeof(%s)" % c for c in cols))}
    if typed["in--a"] != ("text", "text", "integer", "integer", "integer", "integer", "real", "real", "real"):
        print(f"{path}: in--a's column types {typed['in--a']}")
        sys.exit(1)
elif path.endswith(".csv"):
    lines = list(csv.reader(open(path)))
    names = lines[0]
    rows = {}
    for l in lines[1:]:
        r = dict(zip(names, l))
        rows[r["id"]] = {c: (None if r[c] == "" else r[c]) for c in cols}
else:
    trials = json.load(open(path))["trials"]
    names = list(trials[0].keys())
    rows = {t["id"]: t for t in trials}
bad = 0
# the columns come last, in this order, after those of the previous version
if names[-10:] != ["analysed_at"] + cols:
    print(f"{path}: columns end {names[-10:]}")
    bad = 1
if sorted(rows) != sorted(want):
    print(f"{path}: trials {sorted(rows)}")
    sys.exit(1)
for tid, values in want.items():
    for c, v in zip(cols, values):
        g = rows[tid][c]
        if isinstance(v, (int, float)) and not isinstance(v, bool) and g is not None:
            ok = math.isclose(float(g), v, rel_tol=1e-9)
            if isinstance(v, int) and not path.endswith(".csv"):
                ok = ok and isinstance(g, int)
        elif c == "decision" and v and v.endswith(":"):
            ok = g is not None and g.startswith(v + " ")
        else:
            ok = g == v
        if not ok:
            print(f"{path}: {tid}.{c} = {g!r}, want {v!r}")
            bad = 1
sys.exit(bad)
EOF
}
check "$tmp/out/results.sqlite"
check "$tmp/out/summary.csv"
check "$tmp/out/summary.json"

# The index: the decision after the verdict, in both.
grep -qF "| [in--a](in--a/summary.md) | ok | NVIDIA B200 | bf16 | confirmed | $A | 1.73x |" "$tmp/out/index.md" ||
	{ echo "index.md: in--a's row lacks its decision"; grep 'in--a' "$tmp/out/index.md"; fail=1; }
grep -qF "| in--broken | error | - | - | - | - | - |" "$tmp/out/index.md" ||
	{ echo "index.md: the failed trial has a decision"; grep 'in--broken' "$tmp/out/index.md"; fail=1; }
grep -qF "<th>verdict</th><th>decision</th><th>speedup</th>" "$tmp/out/index.html" ||
	{ echo "index.html: no decision column after the verdict"; fail=1; }
grep -qF "<td data-h=\"verdict\">confirmed</td><td class=\"p\" data-h=\"decision\">$A</td>" "$tmp/out/index.html" ||
	{ echo "index.html: in--a's row lacks its decision"; fail=1; }
grep -qF '<td class="p" data-h="decision">Rent nothing yet: ' "$tmp/out/index.html" ||
	{ echo "index.html: in--g's row does not say nothing is rented"; fail=1; }

# A results.sqlite of the previous version: the same rows in its trials table, which
# lacks the decision's columns. Every trial is unchanged, so skipped; the database
# gets the columns and each row its decision from the trial's folder.
cp -r "$tmp/out" "$tmp/old"
python3 - "$tmp/old/results.sqlite" <<'EOF' || fail=1
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
old = ("id TEXT PRIMARY KEY, source TEXT, trial TEXT, fingerprint TEXT, status TEXT NOT NULL,"
       " error TEXT, title TEXT, hypothesis TEXT, verdict TEXT, reason TEXT, speedup REAL,"
       " efficiency REAL, gpu_model TEXT, precision TEXT, confounds TEXT, lost_compute_s REAL,"
       " lost_exposed_comm_s REAL, lost_memory_s REAL, lost_idle_s REAL, analysed_at TEXT")
names = ", ".join(c.split()[0] for c in old.split(", "))
db.executescript(f"CREATE TABLE old ({old}); INSERT INTO old SELECT {names} FROM trials;"
                 "DROP TABLE trials; ALTER TABLE old RENAME TO trials;")
db.commit()
n = len(db.execute("PRAGMA table_info(trials)").fetchall())
if n != 20:
    print(f"the previous version's table has {n} columns")
    sys.exit(1)
EOF
rm "$tmp/old/summary.csv" "$tmp/old/summary.json"
"$SCALEAUDIT" batch "$tmp/in" -o "$tmp/old" -j2 > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
[ $rc -eq 3 ] || { echo "old database: exit $rc, want 3"; cat "$tmp/stderr"; fail=1; }
[ ! -s "$tmp/stderr" ] || { echo "old database: it said"; cat "$tmp/stderr"; fail=1; }
grep -qxF "4 trials: 0 analysed, 4 skipped (unchanged), 1 failed" "$tmp/stdout" ||
	{ echo "old database: the trials were not skipped"; cat "$tmp/stdout"; fail=1; }
check "$tmp/old/results.sqlite"
check "$tmp/old/summary.csv"
cmp -s "$tmp/old/summary.json" "$tmp/out/summary.json" ||
	python3 -c "
import json, sys
a, b = (json.load(open(p))['trials'] for p in sys.argv[1:])
sys.exit(any({k: v for k, v in x.items() if k != 'analysed_at'} != {k: v for k, v in y.items() if k != 'analysed_at'} for x, y in zip(a, b)))" \
		"$tmp/old/summary.json" "$tmp/out/summary.json" ||
	{ echo "old database: summary.json differs from a fresh batch's"; fail=1; }

# A results.sqlite that is no database: one message naming the file.
mkdir "$tmp/junk"
echo "not a database, just text long enough to be read as a header of one" > "$tmp/junk/results.sqlite"
"$SCALEAUDIT" batch "$tmp/in/a" -o "$tmp/junk" > /dev/null 2> "$tmp/stderr"
rc=$?
[ $rc -eq 1 ] || { echo "junk database: exit $rc, want 1"; fail=1; }
grep -qxF "$tmp/junk/results.sqlite: file is not a database" "$tmp/stderr" ||
	{ echo "junk database: not one clear message:"; cat "$tmp/stderr"; fail=1; }
exit $fail
