#!/bin/bash
# trial.ini and run.ini take the count syntax plan takes (one parser: core/count):
# target_samples = 1e7 is 10,000,000 samples, 10M the same, 2k a global batch of 2000;
# a value that is no whole count keeps its message, file:line: [section] key = 'v': expected ...
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# days to the target = 1e7 samples / the run's samples/s / 86400, whichever way 1e7 is written
for spelling in 10000000 1e7 10M 10m 0.01B; do
	rm -rf "$tmp/t" && cp -R samples/trials/ddp-scales-well "$tmp/t"
	printf 'target_samples = %s\n' "$spelling" >> "$tmp/t/trial.ini"
	"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/a.json" 2> "$tmp/err" ||
		{ echo "target_samples = $spelling: analyze exited $?"; fail=1; continue; }
	python3 - "$tmp/a.json" "$spelling" <<'PY' || fail=1
import json, sys
a = json.load(open(sys.argv[1]))
bad = [f["message"] for f in a["findings"] if f["code"].startswith("manifest-")]
for o in a["comparison"]["options"]:
    want = 1e7 / o["samples_per_s"] / 86400
    if abs(o["days_to_target"] - want) > 1e-12 * want:
        bad.append(f"{o['gpus']} GPUs: {o['days_to_target']} days, want {want}")
if bad:
    print(f"target_samples = {sys.argv[2]}: " + "; ".join(bad))
sys.exit(1 if bad else 0)
PY
done

# not whole counts: the same messages as before, at their line
rm -rf "$tmp/t" && cp -R samples/trials/ddp-scales-well "$tmp/t"
printf 'target_samples = 1.5\n' >> "$tmp/t/trial.ini"
printf 'seed = 2x\nglobal_batch = -4\n' >> "$tmp/t/1gpu/run.ini"
line=$(wc -l < "$tmp/t/trial.ini"); run=$(wc -l < "$tmp/t/1gpu/run.ini")
"$SCALEAUDIT" analyze "$tmp/t" > /dev/null 2> "$tmp/err"
for want in "$tmp/t/trial.ini:$line: [trial] target_samples = '1.5': expected a whole number" \
	"$tmp/t/1gpu/run.ini:$((run - 1)): [run] seed = '2x': expected a whole number" \
	"$tmp/t/1gpu/run.ini:$run: [run] global_batch = '-4': expected a whole number from 0 to 1000000000000"; do
	grep -qxF -- "$want" "$tmp/err" || { echo "stderr lacks: $want"; cat "$tmp/err"; fail=1; }
done
exit $fail
