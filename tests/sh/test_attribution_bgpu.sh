#!/bin/bash
# Attribution with a baseline of b GPUs, end to end, on trial directories
# built from samples/trials/ddp-scales-well by tests/double_ranks.py:
#   2v4: its 1-GPU run doubled into a 2-GPU baseline (2gpu), its 2-GPU run
#        doubled into a 4-GPU candidate (4gpu). Every GPU does what it did,
#        so with n = 4/2 = 2 the speedup, the efficiency and each term of the
#        attribution are the 1-against-2 trial's: the generator's truth.json.
#        With n = 4 (a 1-GPU baseline assumed) compute would be 4 x 39.2 - 71.8.
#   2v2: the doubled 1-GPU run (2gpu-a) against the 2-GPU run (2gpu-b), n = 1:
#        each term is the candidate's part less the baseline's (truth.json's
#        per_gpu step_s of the slowest ranks), efficiency = speedup; without
#        baseline = in trial.ini, the first in name order and a warning.
# Expected numbers come from truth.json, which the generator wrote, never
# from the analysis.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
export SOURCE_DATE_EPOCH=1700000000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=samples/trials/ddp-scales-well
fail=0

build() {	# dir: the 2v4 and 2v2 trials under dir
	local d=$1
	python3 tests/double_ranks.py "$src/1gpu" "$d/2v4/2gpu" 2gpu &&
	python3 tests/double_ranks.py "$src/2gpu" "$d/2v4/4gpu" 4gpu &&
	sed 's/^baseline = .*/baseline = 2gpu/' "$src/trial.ini" > "$d/2v4/trial.ini" &&
	python3 tests/double_ranks.py "$src/1gpu" "$d/2v2/2gpu-a" 2gpu-a &&
	mkdir -p "$d/2v2/2gpu-b" && cp "$src"/2gpu/*.pt.trace.json.gz "$d/2v2/2gpu-b/" &&
	sed 's/^name = .*/name = 2gpu-b/' "$src/2gpu/run.ini" > "$d/2v2/2gpu-b/run.ini" &&
	sed 's/^baseline = .*/baseline = 2gpu-a/' "$src/trial.ini" > "$d/2v2/trial.ini"
}
build "$tmp" || { echo "FAIL: could not build the trials"; exit 1; }

"$SCALEAUDIT" analyze --json "$tmp/2v4" > "$tmp/2v4.json" 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }
"$SCALEAUDIT" analyze "$tmp/2v4" > "$tmp/2v4.txt" 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }
"$SCALEAUDIT" analyze --json "$tmp/2v2" > "$tmp/2v2.json" 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }
grep -v '^baseline' "$tmp/2v2/trial.ini" > "$tmp/ini" && cp "$tmp/ini" "$tmp/2v2/trial.ini"
"$SCALEAUDIT" analyze --json "$tmp/2v2" > "$tmp/2v2-unnamed.json" 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }

python3 - "$src/truth.json" "$tmp" <<'PY' || fail=1
import json, math, sys

truth = json.load(open(sys.argv[1]))
tmp = sys.argv[2]
PARTS = ("compute", "exposed_comm", "memory", "idle")
bad = []


def near(what, got, want, tol):
    if got is None or not math.isclose(got, want, rel_tol=0, abs_tol=tol):
        bad.append(f"{what}: got {got}, want {want}")


def slowest(run):
    return max(run["per_gpu"], key=lambda g: g["mean_step_s"])


runs = {r["name"]: r for r in truth["runs"]}
one, two = slowest(runs["1gpu"]), slowest(runs["2gpu"])
tc = truth["comparison"]

# 2 against 4: the 1-against-2 truth, n = 2
c = json.load(open(f"{tmp}/2v4.json"))["comparison"]
gpus = {r["name"]: r["gpus"] for r in json.load(open(f"{tmp}/2v4.json"))["runs"]}
if (c["baseline"], c["candidate"], gpus.get("2gpu"), gpus.get("4gpu")) != ("2gpu", "4gpu", 2, 4):
    bad.append(f"2v4: compared {c['baseline']} ({gpus.get(c['baseline'])} GPUs) against "
               f"{c['candidate']} ({gpus.get(c['candidate'])} GPUs)")
near("2v4 speedup", c["speedup"], tc["speedup"], 1e-6)
near("2v4 scaling_efficiency", c["scaling_efficiency"], tc["scaling_efficiency"], 1e-6)
near("2v4 efficiency = T2 / (2 T4)", c["scaling_efficiency"], c["speedup"] / 2, 1e-12)
for p in PARTS:
    near(f"2v4 attribution {p}", c["attribution_s"][p], tc["attribution_s"][p], 1e-7)
    near(f"2v4 attribution {p} = 2 C4 - C2", c["attribution_s"][p],
         2 * two["step_s"][p] - one["step_s"][p], 1e-7)
near("2v4 ideal_s", c["ideal_s"], one["mean_step_s"], 1e-7)
near("2v4 actual_s", c["actual_s"], 2 * two["mean_step_s"], 1e-7)
near("2v4 terms add up", sum(c["attribution_s"][p] for p in PARTS), c["actual_s"] - c["ideal_s"], 1e-12)
near("2v4 loss", c["actual_s"] - c["ideal_s"], tc["attribution_total_s"], 1e-7)

# 2 against 2: n = 1, the plain differences of the slowest ranks' parts
for name, doc in (("2v2", "2v2.json"), ("2v2 unnamed", "2v2-unnamed.json")):
    a = json.load(open(f"{tmp}/{doc}"))
    c = a["comparison"]
    if (c["baseline"], c["candidate"]) != ("2gpu-a", "2gpu-b"):
        bad.append(f"{name}: compared {c['baseline']} against {c['candidate']}")
    near(f"{name} scaling_efficiency = speedup", c["scaling_efficiency"], c["speedup"], 1e-12)
    near(f"{name} speedup", c["speedup"], tc["speedup"], 1e-6)
    for p in PARTS:
        near(f"{name} attribution {p}", c["attribution_s"][p], two["step_s"][p] - one["step_s"][p], 1e-7)
    codes = [f["code"] for f in a["findings"]]
    want = 1 if name == "2v2 unnamed" else 0
    if codes.count("baseline-ambiguous") != want:
        bad.append(f"{name}: {codes.count('baseline-ambiguous')} baseline-ambiguous findings, want {want}")

if bad:
    sys.exit("\n".join(bad))
print("ok: 2v4 gives the 1v2 truth with n = 2; 2v2 the plain differences with n = 1")
PY

# The text names both counts, with the truth's numbers (README's 1-vs-2 line, by another name).
for want in \
	"Criterion: step-time: confirmed when the speedup (2-GPU step time / 4-GPU step time, medians) is at least 1.6 (expected_speedup) with no blocking confound" \
	"Lost against perfect scaling (2 x 4-GPU mean step - 2-GPU mean step, slowest GPU, ms): compute +6.6, exposed comm +3.3, memory +0.0558, idle +1.7 = +11.6"; do
	grep -qxF "$want" "$tmp/2v4.txt" || { echo "FAIL: analyze does not print: $want"; fail=1; }
done

# The report's why line and chart 03 say the same; its analysis.json draws the same report.
"$SCALEAUDIT" report "$tmp/2v4" -o "$tmp/r1" > /dev/null 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }
want="Why: 4 GPUs lose 11.6 ms of GPU time per step against perfect scaling from 2 GPUs (counted on mean steps, so that the parts add up); the largest part is compute: 6.6 ms"
grep -qxF "$want" "$tmp/r1/summary.md" || { echo "FAIL: summary.md does not say: $want"; fail=1; }
want="From the ideal (the 2-GPU baseline's step, spread perfectly over 4 GPUs) to the GPU time actually spent, both counted per 2 GPUs: 2 x the candidate's step."
grep -qF "$want" "$tmp/r1/summary.md" || { echo "FAIL: chart 03's caption does not say: $want"; fail=1; }
"$SCALEAUDIT" report "$tmp/r1/analysis.json" -o "$tmp/r2" > /dev/null 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }
diff -r "$tmp/r1" "$tmp/r2" > "$tmp/diff" || { echo "FAIL: the report from analysis.json differs:"; head "$tmp/diff"; fail=1; }

[ $fail -eq 0 ] && echo "ok: 2-GPU baselines: attribution, text, summary and chart 03"
exit $fail
