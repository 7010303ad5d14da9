#!/bin/bash
# analysis.json's runs[].checkpoint, from logs that show checkpoint saves:
# the Megatron-LM log-only trial of tests/data with, beside each run's log,
# a second log holding only save lines (hand-made in Megatron-LM's and the
# Hugging Face Trainer's layouts, as tests/data/trainlog/PROVENANCE.md
# describes them). The expected values are the printed timer maxima, worked
# out by hand: 4587.91, 5120.40 and 4800.00 ms -> median 4.8 s, max 5.1204 s.
# A run whose saves the log does not time has them counted, its times null;
# a run without save lines has null. The document reads back to itself.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
trial=$tmp/trial
cp -r tests/data/trials/megatron-log-only "$trial"
dots=$(printf '%.0s.' {1..32})
cat > "$trial/2gpu/ckpt.log" <<LOG
saving checkpoint at iteration     100 to /ckpt/gpt in torch format
  successfully saved checkpoint from iteration     100 to /ckpt/gpt [ t 1/1, p 1/1 ]
(min, max) time across ranks (ms):
    save-checkpoint $dots: (4512.33, 4587.91)
saving checkpoint at iteration     200 to /ckpt/gpt in torch format
  successfully saved checkpoint from iteration     200 to /ckpt/gpt [ t 1/1, p 1/1 ]
max time across ranks (ms):
    save-checkpoint $dots: 5120.40
saving checkpoint at iteration     300 to /ckpt/gpt in torch format
  successfully saved checkpoint from iteration     300 to /ckpt/gpt [ t 1/1, p 1/1 ]
(min, max) time across ranks (ms):
    save-checkpoint $dots: (4650.02, 4800.00)
LOG
cat > "$trial/1gpu/ckpt.log" <<LOG
[INFO|trainer.py:3801] 2025-03-06 12:14:10,002 >> Saving model checkpoint to out/checkpoint-500
[INFO|modeling_utils.py:3042] 2025-03-06 12:14:21,300 >> Model weights saved in out/checkpoint-500/model.safetensors
LOG
"$SCALEAUDIT" analyze --json "$trial" > "$tmp/a.json" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "analyze exited $rc"; cat "$tmp/err"; exit 1; }
got=$(python3 - "$tmp/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    print(r["name"], json.dumps(r["checkpoint"], sort_keys=True))
PY
)
want='1gpu {"measured": 0, "saves": 1, "source": null, "write_max_s": null, "write_s": null}
2gpu {"measured": 3, "saves": 3, "source": "2gpu/ckpt.log:1", "write_max_s": 5.1204, "write_s": 4.8}'
[ "$got" = "$want" ] || { echo "checkpoint:"; echo "$got"; echo "expected:"; echo "$want"; fail=1; }

# read back: the same document
"$SCALEAUDIT" analyze --json "$tmp/a.json" | cmp -s - "$tmp/a.json" ||
	{ echo "analyze --json of the analysis.json is not the same document"; fail=1; }

# A target of 5e7 samples takes 2gpu (8 samples a 0.445 s step) 32.19 days: 2 consecutive 30-day
# windows, which carry the checkpoint interval from the measured 4.8 s: Young/Daly with the
# default 24 h between failures of 1 lot, sqrt(2 x 4.8 x 86400) - 4.8 = 905.94 s.
printf 'target_samples = 50000000\n' >> "$trial/trial.ini"
"$SCALEAUDIT" analyze --json "$trial" > "$tmp/c.json" 2> /dev/null
python3 - "$tmp/c.json" <<'PY' || fail=1
import json, math, sys
d = json.load(open(sys.argv[1]))["comparison"]["decision"]
cp = d["checkpoint"]
want = {"write_s": 4.8, "write_from": "logs", "write_at": "2gpu/ckpt.log:1", "mtbf_hours": 24,
        "rental_mtbf_hours": 24}
bad = [k for k, v in want.items() if cp[k] != v]
if bad or not math.isclose(cp["interval_s"], math.sqrt(2 * 4.8 * 86400) - 4.8, rel_tol=1e-12) \
        or d["run"] != "2gpu" or d["rent"]["windows"] != 2:
    print("decision.checkpoint:", cp, d["run"], d["rent"])
    sys.exit(1)
PY
"$SCALEAUDIT" analyze "$trial" 2> /dev/null | grep -qxF "  Checkpoint every 15.1 min (Young/Daly: a write of 4.8 s measured at 2gpu/ckpt.log:1, 24 h between failures of the rental)" ||
	{ echo "analyze does not say the checkpoint interval:"; "$SCALEAUDIT" analyze "$trial" 2> /dev/null | grep -A1 '^Decision'; fail=1; }

# without save lines: null
"$SCALEAUDIT" analyze --json tests/data/trials/megatron-log-only > "$tmp/b.json" 2> /dev/null
got=$(python3 -c 'import json,sys; print([r["checkpoint"] for r in json.load(open(sys.argv[1]))["runs"]])' "$tmp/b.json")
[ "$got" = "[None, None]" ] || { echo "without save lines: $got"; fail=1; }
exit $fail
