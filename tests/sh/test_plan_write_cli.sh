#!/bin/bash
# plan -o DIR and --init DIR on the command line: the files a trial needs, read
# back by analyze (with a sample trial's logs copied in) without a finding about
# the manifests or a stray file; the predictions in runs[].plan as run.ini wrote
# them; an existing trial.ini kept without --force; a linked trial.ini never
# written through; exit statuses and messages exact.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
PLAN=(plan --model gpt2-xl --gpu B200 --micro-batch 8 --seq-len 1024)

# copy_logs DIR: the sample's traces and monitor logs into DIR's runs; not its manifests, nor
# its train.log, whose batch sizes are another job's and would rightly contradict the plan's run.ini
copy_logs() {
	local r f
	for r in 1gpu 2gpu; do
		for f in samples/trials/ddp-scales-well/$r/*; do
			case $f in *.ini|*/train.log) ;; *) cp "$f" "$1/$r/" ;; esac
		done
	done
}

# check_clean DIR planned|skeleton: no manifest or placement finding; runs[].plan as run.ini says
check_clean() {
	"$SCALEAUDIT" analyze --json "$1" > "$tmp/a.json"
	local rc=$?
	[ $rc -eq 0 ] || fail "analyze $1 exited $rc"
	python3 - "$tmp/a.json" "$1" "$2" <<'PY' || exit 1
import json, sys, glob, re
a = json.load(open(sys.argv[1])); top = sys.argv[2]; planned = sys.argv[3] == "planned"
bad = [f"{f['source']}: {f['code']}: {f['message']}" for f in a["findings"]
       if f["code"].startswith("manifest-") or f["code"] == "outside-run"]
for r in a["runs"]:
    ini = open(f"{top}/{r['name']}/run.ini").read()
    m = re.search(r"^predicted_peak_gb = ([0-9.]+)$", ini, re.M)
    if not planned:
        if m or "plan" in r:
            bad.append(f"{r['name']}: the skeleton predicts something")
        continue
    if not m:
        bad.append(f"{r['name']}: run.ini has no predicted_peak_gb"); continue
    if r["plan"]["predicted_peak_bytes"] != round(float(m.group(1)) * 1e9):
        bad.append(f"{r['name']}: plan.predicted_peak_bytes {r['plan']['predicted_peak_bytes']}, run.ini {m.group(1)}")
    if r["plan"]["measured_peak_bytes"] != max(g["peak_memory_bytes"] for g in r["per_gpu"]):
        bad.append(f"{r['name']}: measured_peak_bytes is not the largest GPU peak")
if bad:
    print("\n".join(bad)); sys.exit(1)
PY
}

"$SCALEAUDIT" "${PLAN[@]}" -o "$tmp/p" > /dev/null 2> "$tmp/err" || fail "plan -o exited $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "plan -o said: $(cat "$tmp/err")"
for f in trial.ini 1gpu/run.ini 2gpu/run.ini CHECKLIST.md; do
	[ -f "$tmp/p/$f" ] || fail "plan -o wrote no $f"
done
[ "$(ls -A "$tmp/p" | wc -l)" -eq 4 ] || fail "plan -o left more than its files: $(ls -A "$tmp/p")"
grep -qx 'hypothesis = global-batch' "$tmp/p/trial.ini" || fail "trial.ini lacks the hypothesis"
copy_logs "$tmp/p"
check_clean "$tmp/p" planned

# an existing trial.ini is kept, and --force replaces it
cp "$tmp/p/trial.ini" "$tmp/before"
"$SCALEAUDIT" "${PLAN[@]}" --hypothesis step-time -o "$tmp/p" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "plan -o over a trial exited $rc, want 1"
[ "$(cat "$tmp/err")" = "$tmp/p/trial.ini: already exists: not replaced (--force replaces it)" ] ||
	fail "plan -o over a trial said: $(cat "$tmp/err")"
cmp -s "$tmp/before" "$tmp/p/trial.ini" || fail "trial.ini changed without --force"
"$SCALEAUDIT" "${PLAN[@]}" --hypothesis step-time -o "$tmp/p" --force > /dev/null 2> "$tmp/err" ||
	fail "plan -o --force exited $?: $(cat "$tmp/err")"
grep -qx 'hypothesis = step-time' "$tmp/p/trial.ini" || fail "--force did not replace trial.ini"

# a step-time plan holds the global batch (8 = 8 x 1 on one GPU, 4 x 1 x 2 on two), and --title is written
"$SCALEAUDIT" "${PLAN[@]}" --hypothesis step-time --title 'GPT-2 XL on B200' -o "$tmp/p" --force \
	> /dev/null 2> "$tmp/err" || fail "plan -o --title exited $?: $(cat "$tmp/err")"
grep -qx 'title = GPT-2 XL on B200' "$tmp/p/trial.ini" || fail "trial.ini lacks the --title"
for r in 1gpu 2gpu; do
	grep -qx 'global_batch = 8' "$tmp/p/$r/run.ini" || fail "$r/run.ini: $(grep '^global_batch' "$tmp/p/$r/run.ini")"
done
grep -qx 'micro_batch = 4' "$tmp/p/2gpu/run.ini" || fail "2gpu/run.ini: $(grep '^micro_batch' "$tmp/p/2gpu/run.ini")"
printf '[plan]\ntitle = from the file\n' > "$tmp/plan.ini"
"$SCALEAUDIT" "${PLAN[@]}" "$tmp/plan.ini" -o "$tmp/p" --force > /dev/null 2> "$tmp/err" ||
	fail "plan PLAN.ini -o exited $?: $(cat "$tmp/err")"
grep -qx 'title = from the file' "$tmp/p/trial.ini" || fail "trial.ini lacks PLAN.ini's title"

# a linked trial.ini: not written through, even with --force
echo 'keep me' > "$tmp/precious"
mkdir "$tmp/l" && ln -s "$tmp/precious" "$tmp/l/trial.ini"
"$SCALEAUDIT" "${PLAN[@]}" -o "$tmp/l" --force > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "plan -o over a link exited $rc, want 1"
[ "$(cat "$tmp/err")" = "$tmp/l/trial.ini: is a symbolic link: not followed, nothing written" ] ||
	fail "plan -o over a link said: $(cat "$tmp/err")"
[ "$(cat "$tmp/precious")" = "keep me" ] || fail "the link's target was written"
[ -L "$tmp/l/trial.ini" ] && [ "$(ls -A "$tmp/l")" = "trial.ini" ] || fail "plan -o wrote beside the link"

# --init: the skeleton, every key commented out, read back without a finding
"$SCALEAUDIT" plan --init "$tmp/s" > /dev/null 2> "$tmp/err" || fail "plan --init exited $?: $(cat "$tmp/err")"
grep -h '^[a-z]' "$tmp/s/trial.ini" "$tmp/s/1gpu/run.ini" "$tmp/s/2gpu/run.ini" && fail "the skeleton sets a key"
[ "$(grep -hc '^# [a-z_]* =$' "$tmp/s/trial.ini")" -eq 15 ] || fail "trial.ini: not 15 keys commented (currency among them)"
[ "$(grep -hc '^# [a-z_]* =$' "$tmp/s/1gpu/run.ini")" -eq 14 ] || fail "run.ini: not 14 keys commented"
"$SCALEAUDIT" plan --init "$tmp/s" > /dev/null 2>&1 && fail "plan --init over a trial succeeded"
copy_logs "$tmp/s"
check_clean "$tmp/s" skeleton
exit 0
