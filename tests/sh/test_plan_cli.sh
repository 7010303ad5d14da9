#!/bin/bash
# scaleaudit plan end to end: --json carries the known answers (the ZeRO
# paper's 7.5B model, a 7B model on H200 and B200, Young/Daly), --explain
# names each source with its numbers filled in and says the same in JSON,
# and every option of the command is documented in docs/plan.md.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/skip.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# every option of plan's own table appears in docs/plan.md, as --name or as its INI key
"$SCALEAUDIT" help --options plan | awk -F'\t' '$1 == "plan" { print $2 }' | tr ' ' '\n' |
	grep -- '^--' > "$tmp/options"
[ "$(wc -l < "$tmp/options")" -eq 34 ] || { echo "plan has $(wc -l < "$tmp/options") long options, expected 34"; fail=1; }
while read -r opt; do
	key=$(printf '%s' "${opt#--}" | tr '-' '_')
	grep -qF -- "$opt" docs/plan.md || grep -qF -- "\`$key\`" docs/plan.md ||
		{ echo "docs/plan.md does not document $opt"; fail=1; }
done < "$tmp/options"

# --explain: each source, with its numbers (C = 7e9 x 14 B / 1 GB/s = 98 s, M = 1 h: 840 s)
"$SCALEAUDIT" plan --params 7e9 --gpu H200 --micro-batch 1 --seq-len 1024 --hidden 4096 \
	--layers 32 --heads 32 --ckpt-write-gbps 1 --mtbf-hours 1 --explain > "$tmp/explain" ||
	{ echo "plan --explain failed"; fail=1; }
for want in 'Rajbhandari et al. 2020' 'Korthikanti et al. 2022' 'Kaplan et al. 2020' 'Narayanan et al. 2021' \
	'Young 1974; Daly 2006' 'K = 12: fp32 master weights 4 + Adam momentum 4 + variance 4' \
	'= 98.0 s, M = 1 h: √(2 x 98.0 x 3600) = 840 s' 'H200 NVLink 450 GB/s'; do
	tr '\n' ' ' < "$tmp/explain" | sed 's/  */ /g' | grep -qF -- "$want" ||
		{ echo "--explain lacks: $want"; fail=1; }
done
awk '{ if (length > 80) { print "a line of " length " columns: " $0; bad = 1 } } END { exit bad }' \
	"$tmp/explain" || fail=1

# -o DIR: the planned runs carry the model's numbers (single 137.0 GB, ddp 137.536 GB for
# llama-3-8b with full checkpointing: 16.06 + 16.06 + 96.36 + 1.07 + 1 + 0.5 + 5% of 129.56),
# and a second plan into the same DIR is refused without --force
plan8b=(--model llama-3-8b --gpu H200 --micro-batch 1 --seq-len 4096 --checkpointing
	--hypothesis global-batch)
"$SCALEAUDIT" plan "${plan8b[@]}" -o "$tmp/trial" > /dev/null || { echo "plan -o failed"; fail=1; }
for want in '1gpu/run.ini:strategy = single' '2gpu/run.ini:strategy = ddp' \
	'2gpu/run.ini:predicted_peak_gb = 137.536' '2gpu/run.ini:global_batch = 2' \
	'trial.ini:hypothesis = global-batch'; do
	grep -qxF -- "${want#*:}" "$tmp/trial/${want%%:*}" || { echo "plan -o: ${want%%:*} lacks ${want#*:}"; fail=1; }
done
"$SCALEAUDIT" plan "${plan8b[@]}" -o "$tmp/trial" > /dev/null 2>&1
[ $? -eq 1 ] || { echo "a second plan -o into the same DIR was not refused"; fail=1; }
"$SCALEAUDIT" plan "${plan8b[@]}" -o "$tmp/trial" --force > /dev/null || { echo "plan -o --force failed"; fail=1; }
"$SCALEAUDIT" plan --init "$tmp/skeleton" || { echo "plan --init failed"; fail=1; }
[ -f "$tmp/skeleton/trial.ini" ] || { echo "plan --init wrote no trial.ini"; fail=1; }

need_tool python3
"$SCALEAUDIT" plan --model zero-7.5b --gpus 64 --gpu H200 --json > "$tmp/zero.json" ||
	{ echo "plan --json (zero-7.5b) failed"; fail=1; }
"$SCALEAUDIT" plan --params 7B --gpu H200,B200 --micro-batch 1 --seq-len 4096 --hidden 4096 \
	--layers 32 --heads 32 --target-tokens 10B --price 3 --json --explain > "$tmp/7b.json" ||
	{ echo "plan --json (7B) failed"; fail=1; }
"$SCALEAUDIT" plan --params 7B --gpu H200,B200 --micro-batch 1 --seq-len 4096 --hidden 4096 \
	--layers 32 --heads 32 --target-tokens 10B --price 3 --explain > "$tmp/7b.txt"
python3 - "$tmp/zero.json" "$tmp/7b.json" "$tmp/7b.txt" <<'PY' || fail=1
import json, sys
zero, seven = (json.load(open(p)) for p in sys.argv[1:3])
text = open(sys.argv[3]).read()
bad = []
def check(what, got, want):
    if got != want:
        bad.append(f"{what}: got {got!r}, want {want!r}")
def by_name(doc):
    return {s["name"]: s for s in doc["strategies"]}
def states(s):
    m = s["memory_per_gpu_bytes"]
    return m["weights"] + m["gradients"] + m["optimizer"]

z = by_name(zero)
check("strategies", list(z), ["single", "ddp", "zero1", "zero2", "zero3", "fsdp", "pipeline", "tensor"])
check("7.5B model states", states(z["single"]), 120e9)
check("7.5B zero3 over 64", states(z["zero3"]), 1.875e9)
check("7.5B zero3 gpus", z["zero3"]["gpus"], 64)
check("7.5B activations", z["single"]["memory_per_gpu_bytes"]["activations"], None)
check("7.5B total", z["single"]["memory_per_gpu_bytes"]["total"], None)
check("7.5B fit unknown", z["single"]["fits"], {"H200": None})
check("7.5B recommended", zero["recommended"], None)
check("7.5B zero3 payload", z["zero3"]["comm_payload_bytes_per_step"], 45e9)

s = by_name(seven)
check("7B fits single", s["single"]["fits"], {"H200": False, "B200": False})
check("7B fits zero3", s["zero3"]["fits"], {"H200": False, "B200": True})
check("7B fits tensor", s["tensor"]["fits"], {"H200": True, "B200": True})
check("7B recommended", seven["recommended"], "tensor")
check("7B tensor tests", s["tensor"]["tests"], "feasibility")
check("7B ddp bytes", s["ddp"]["comm_bytes_per_step"], 14e9)
check("7B zero3 bytes", s["zero3"]["comm_bytes_per_step"], 21e9)
check("7B ddp time on B200", s["ddp"]["comm_s_per_step"]["B200"], 14e9 / 900e9)
check("capacity H200", seven["gpu_models"][0]["capacity_bytes"], 143771 * 1048576)
check("capacity source", seven["gpu_models"][0]["capacity_source"], "reported")
check("inputs", (seven["inputs"]["params"], seven["inputs"]["gpu_models"]), (7e9, ["H200", "B200"]))
# the keys, exactly and in order, as docs/plan.md lists them
check("keys", list(seven), ["inputs", "gpu_models", "strategies", "recommended", "reason",
                            "hypothesis_note", "options", "explain"])
check("keys without --explain", list(zero), ["inputs", "gpu_models", "strategies", "recommended",
                                             "reason", "hypothesis_note", "options"])
check("inputs keys", list(seven["inputs"]), ["model", "params", "hidden", "layers", "heads", "vocab",
      "micro_batch", "seq_len", "grad_accum", "gpus", "precision", "optimizer", "checkpointing",
      "attention", "gpu_models", "hypothesis", "expected_speedup", "question", "title", "target_samples",
      "target_tokens", "price", "memory_reserve_bytes", "context_bytes", "nccl_bytes",
      "fragmentation", "mfu", "ckpt_write_gbps", "mtbf_hours"])
check("title", seven["inputs"]["title"], None)
check("gpu_models keys", [list(g) for g in seven["gpu_models"]],
      [["name", "capacity_bytes", "capacity_source", "link", "link_gbps"]] * 2)
for st in seven["strategies"]:
    check(st["name"] + " keys", list(st), ["name", "gpus", "memory_per_gpu_bytes", "fits",
          "comm_bytes_per_step", "comm_payload_bytes_per_step", "comm_s_per_step", "tests"])
    check(st["name"] + " memory keys", list(st["memory_per_gpu_bytes"]),
          ["weights", "gradients", "optimizer", "activations", "reserve", "total"])
    check(st["name"] + " fits keys", list(st["fits"]), ["H200", "B200"])
    check(st["name"] + " gpus", st["gpus"], 1 if st["name"] == "single" else 2)
check("options keys", [list(o) for o in seven["options"]],
      [["strategy", "gpus", "gpu_model", "tokens_per_s", "days_to_target", "window_days",
        "gpu_hours", "cost", "checkpoint_write_s", "checkpoint_interval_s"]])
opt = seven["options"]
check("options", [(o["strategy"], o["gpus"]) for o in opt], [("tensor", 2)])
tps = 2 * 0.4 * 989.5e12 / 42e9
if abs(opt[0]["tokens_per_s"] - tps) > 1e-6 * tps:
    bad.append(f"tokens_per_s {opt[0]['tokens_per_s']} != {tps}")
check("window", opt[0]["window_days"], 7)
# the JSON explanation is the text one, unwrapped
words = " ".join(text.split("how these numbers are made:\n", 1)[1].split())
check("explain", " ".join(" ".join(seven["explain"]).split()), words)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
exit $fail
