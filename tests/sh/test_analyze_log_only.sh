#!/bin/bash
# A trial without traces: the step times come from the training logs
# (docs/analysis.md: step windows come from the training log when no trace has them). Known answers: 1 GPU takes
# 0.400 s per step after a 0.900 s warm-up step, 2 GPUs 0.220 s after 0.920 s.
set -u
. tests/skip.sh
need_tool python3
out=$("$SCALEAUDIT" analyze --json tests/data/trials/log-only 2>/dev/null) || { echo "analyze failed"; exit 1; }
python3 - "$out" <<'PY'
import json, sys
a = json.loads(sys.argv[1])
r1, r2 = a["runs"]
c = a["comparison"]
checks = [
    (r1["name"], "1gpu"), (r2["gpus"], 2),
    (r1["steps"], {"total": 10, "warmup": 1, "measured": 9, "trailing": 0}),
    (r1["step_time_s"]["median"], 0.4), (r2["step_time_s"]["median"], 0.22),
    (round(c["speedup"], 6), round(0.4 / 0.22, 6)),
    (round(c["scaling_efficiency"], 6), round(0.4 / 0.44, 6)),
    (c["verdict"], "confirmed"), (r2["examples_processed"], 64 * 9),
    (r1["per_gpu"][0]["step_s"]["compute"], None),
]
bad = [f"got {g!r}, want {w!r}" for g, w in checks if g != w]
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
