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
[ "$(wc -l < "$tmp/options")" -eq 39 ] || { echo "plan has $(wc -l < "$tmp/options") long options, expected 39"; fail=1; }
while read -r opt; do
	key=$(printf '%s' "${opt#--}" | tr '-' '_')
	grep -qF -- "$opt" docs/plan.md || grep -qF -- "\`$key\`" docs/plan.md ||
		{ echo "docs/plan.md does not document $opt"; fail=1; }
done < "$tmp/options"

# --explain: each source, with its numbers (C = 7e9 x 14 B / 1 GB/s = 98 s, M = 1 h: 840 - 98 = 742 s)
"$SCALEAUDIT" plan --params 7e9 --gpu H200 --micro-batch 1 --seq-len 1024 --hidden 4096 \
	--layers 32 --heads 32 --ckpt-write-gbps 1 --mtbf-hours 1 --explain > "$tmp/explain" ||
	{ echo "plan --explain failed"; fail=1; }
for want in 'Rajbhandari et al. 2020' 'Korthikanti et al. 2022' 'Kaplan et al. 2020' 'Narayanan et al. 2021' \
	'Young 1974; Daly 2006' 'K = 12 (adam): fp32 master weights 4 + Adam momentum 4 + variance 4' \
	'= 98.0 s, M = 1 h: √(2 x 98.0 x 3600) − 98.0 = 742 s' 'H200 NVLink 450 GB/s to any peer' \
	'2Ψ = 14.00 GB, unless gradient_as_bucket_view=True' \
	'<= 150.75 GB, the H200'"'"'s 141 GB nominal (150.8 GB / 140.4 GiB reported)'; do
	tr '\n' ' ' < "$tmp/explain" | sed 's/  */ /g' | grep -qF -- "$want" ||
		{ echo "--explain lacks: $want"; fail=1; }
done
awk '{ if (length > 80) { print "a line of " length " columns: " $0; bad = 1 } } END { exit bad }' \
	"$tmp/explain" || fail=1

# -o DIR: the planned runs carry the model's numbers. llama-3-8b (Ψ = 8030261248) with full
# checkpointing (activations 32 x 2 x 4096 x 4096 x 2 B = 1073741824) on H200 (150.75 GB):
# ddp holds 2Ψ + 2Ψ + 12Ψ + 2Ψ of buckets + 1.07 GB, x 1.05 + 1.5 GB = 154.4 GB: no; zero1
# 2Ψ + 2Ψ + 6Ψ + 1.07 GB = 81376354304, x 1.05 + 1.5e9 = 86.945 GB: recommended, written
# `zero` (run.ini's word) in run.ini and CHECKLIST.md alike; its step, 2 x 4096 tokens at
# 2 x 0.4 x 989.5e12 / (8 x 8030261248) = 12321.9 tokens/s, 0.66482 s. With --bucket-view ddp holds
# 129557921792 x 1.05 + 1.5e9 = 137.536 GB and fits. A second plan into the same DIR is
# refused without --force.
plan8b=(--model llama-3-8b --gpu H200 --micro-batch 1 --seq-len 4096 --checkpointing
	--hypothesis global-batch)
"$SCALEAUDIT" plan "${plan8b[@]}" -o "$tmp/trial" > /dev/null || { echo "plan -o failed"; fail=1; }
for want in '1gpu/run.ini:strategy = single' '2gpu/run.ini:strategy = zero' \
	'2gpu/run.ini:predicted_peak_gb = 86.945' '2gpu/run.ini:global_batch = 2' \
	'trial.ini:hypothesis = global-batch' '1gpu/run.ini:predicted_peak_gb = 137.036' \
	'CHECKLIST.md:| 2gpu | 2 | zero | 1 | 2 | 86.945 | 0.66482 |'; do
	grep -qxF -- "${want#*:}" "$tmp/trial/${want%%:*}" || { echo "plan -o: ${want%%:*} lacks ${want#*:}"; fail=1; }
done
grep -q 'zero[123]' "$tmp/trial/CHECKLIST.md" "$tmp/trial/2gpu/run.ini" &&
	{ echo "plan -o: a zero stage spelt otherwise than run.ini's zero"; fail=1; }
"$SCALEAUDIT" plan "${plan8b[@]}" --bucket-view -o "$tmp/trial-view" > /dev/null ||
	{ echo "plan -o --bucket-view failed"; fail=1; }
for want in '2gpu/run.ini:strategy = ddp' '2gpu/run.ini:predicted_peak_gb = 137.536'; do
	grep -qxF -- "${want#*:}" "$tmp/trial-view/${want%%:*}" ||
		{ echo "plan -o --bucket-view: ${want%%:*} lacks ${want#*:}"; fail=1; }
done
"$SCALEAUDIT" plan "${plan8b[@]}" -o "$tmp/trial" > /dev/null 2>&1
[ $? -eq 1 ] || { echo "a second plan -o into the same DIR was not refused"; fail=1; }
"$SCALEAUDIT" plan "${plan8b[@]}" -o "$tmp/trial" --force > /dev/null || { echo "plan -o --force failed"; fail=1; }
# --strategy single is the plan: one 1-GPU run, no ddp put in its place
"$SCALEAUDIT" plan "${plan8b[@]}" --strategy single -o "$tmp/single" > "$tmp/single.txt" ||
	{ echo "plan --strategy single -o failed"; fail=1; }
grep -qx 'chosen: single on 1 x H200: the strategy asked for, and it fits' "$tmp/single.txt" ||
	{ echo "--strategy single: not chosen"; fail=1; }
grep -q 'ddp on\|zero1 on' "$tmp/single.txt" && { echo "--strategy single: another strategy planned"; fail=1; }
[ ! -e "$tmp/single/2gpu" ] && [ -f "$tmp/single/1gpu/run.ini" ] ||
	{ echo "--strategy single -o: not the 1-GPU run alone"; fail=1; }
# a fallback GPU that cannot hold a planned run: a line naming it, the need (137.0 GB for single,
# 86.9 GB for zero1, as above) and its capacity (81559 MiB = 85.5 GB = 79.6 GiB reported)
"$SCALEAUDIT" plan "${plan8b[@]}" --gpu 'H200,H100 SXM' -o "$tmp/fallback" > "$tmp/fallback.txt" ||
	{ echo "plan with a fallback failed"; fail=1; }
for want in 'warning: the fallback H100 SXM cannot hold the planned single run: it needs 137.0 GB per GPU, the H100 SXM has 80 GB nominal (85.5 GB / 79.6 GiB reported)' \
	'warning: the fallback H100 SXM cannot hold the planned zero1 run: it needs 86.9 GB per GPU, the H100 SXM has 80 GB nominal (85.5 GB / 79.6 GiB reported)'; do
	tr '\n' ' ' < "$tmp/fallback.txt" | sed 's/  */ /g' | grep -qF -- "$want" || { echo "text lacks: $want"; fail=1; }
done
grep -qxF -- '- **Warning**: the fallback H100 SXM cannot hold the planned zero run: it needs 86.9 GB per GPU, the H100 SXM has 80 GB nominal (85.5 GB / 79.6 GiB reported).' \
	"$tmp/fallback/CHECKLIST.md" || { echo "CHECKLIST.md lacks the fallback warning"; fail=1; }
# MI300X: 2 GPUs of a fully connected 8-GPU mesh share one 64 GB/s link, 8 use all 7 (448)
for n in 2:'2 GPUs use 1 link, 64 GB/s' 8:'8 GPUs use 7 links, 448 GB/s'; do
	"$SCALEAUDIT" plan --params 7e9 --gpu MI300X --gpus "${n%%:*}" --explain | tr '\n' ' ' |
		sed 's/  */ /g' | grep -qF -- "${n#*:}" || { echo "MI300X --explain lacks: ${n#*:}"; fail=1; }
done
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
      "micro_batch", "seq_len", "grad_accum", "gpus", "precision", "optimizer", "bucket_view",
      "checkpointing", "attention", "gpu_models", "hypothesis", "expected_speedup", "question",
      "title", "target_samples", "target_tokens", "price", "currency", "memory_reserve_bytes", "context_bytes",
      "nccl_bytes", "fragmentation", "mfu", "ckpt_write_gbps", "mtbf_hours", "margin", "lot_gpus",
      "measured"])
check("measured", seven["inputs"]["measured"], None)
check("title", seven["inputs"]["title"], None)
check("gpu_models keys", [list(g) for g in seven["gpu_models"]],
      [["name", "capacity_bytes", "capacity_nominal_bytes", "capacity_reported_bytes",
        "capacity_source", "link", "link_gbps", "link_platform_gbps"]] * 2)
check("capacity H200 nominal, reported", (seven["gpu_models"][0]["capacity_nominal_bytes"],
      seven["gpu_models"][0]["capacity_reported_bytes"]), (141e9, 143771 * 1048576))
for st in seven["strategies"]:
    check(st["name"] + " keys", list(st), ["name", "gpus", "memory_per_gpu_bytes",
          "memory_total_source", "fits",
          "comm_bytes_per_step", "comm_payload_bytes_per_step", "comm_s_per_step", "tests"])
    check(st["name"] + " memory keys", list(st["memory_per_gpu_bytes"]),
          ["weights", "gradients", "buckets", "optimizer", "activations", "reserve", "total"])
    check(st["name"] + " buckets", st["memory_per_gpu_bytes"]["buckets"],
          14e9 if st["name"] == "ddp" else 0)
    check(st["name"] + " fits keys", list(st["fits"]), ["H200", "B200"])
    check(st["name"] + " gpus", st["gpus"], 1 if st["name"] == "single" else 2)
check("options keys", [list(o) for o in seven["options"]],
      [["strategy", "gpus", "gpu_model", "tokens_per_s", "samples_per_s", "throughput_source",
        "days_to_target", "lots", "lot_gpus", "window_days", "window_count", "gpu_hours_used",
        "gpu_hours", "cost", "checkpoint_write_s", "checkpoint_interval_s", "stop"]])
opt = seven["options"]
check("options", [(o["strategy"], o["gpus"]) for o in opt], [("tensor", 2)])
tps = 2 * 0.4 * 989.5e12 / 42e9
if abs(opt[0]["tokens_per_s"] - tps) > 1e-6 * tps:
    bad.append(f"tokens_per_s {opt[0]['tokens_per_s']} != {tps}")
# 1e10 tokens / 18848 tokens/s = 6.14 days, x 1.15 = 7.06: a 30-day window of one lot of 2
# GPUs, 2 x 30 x 24 = 1440 GPU-hours rented (294.8 used), 4320 at 3 an hour
check("window", (opt[0]["window_days"], opt[0]["window_count"], opt[0]["lots"]), (30, 1, 1))
check("rented", (opt[0]["gpu_hours"], opt[0]["cost"]), (1440, 4320))
check("stop", (opt[0]["stop"]["unit"], opt[0]["stop"]["half_target"], opt[0]["stop"]["half_days"],
      opt[0]["stop"]["end_days"]), ("tokens", 5e9, 4, 30))   # day 4: half of 6.14 days, rounded up
check("throughput source", opt[0]["throughput_source"], "modelled")
# the JSON explanation is the text one, unwrapped
words = " ".join(text.split("how these numbers are made:\n", 1)[1].split())
check("explain", " ".join(" ".join(seven["explain"]).split()), words)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# --from: a finished trial's measures replace the model's guesses. The sample's analysis.json
# gives each run's tokens/s and peaks and the efficiency; plan's figures are worked out here
# from those numbers: 2 GPUs take the 2-GPU run's throughput, 4 GPUs the 1-GPU run's x 4 x the
# efficiency, single's total the 1-GPU run's largest peak; days = 1e8 x 2048 / tokens/s / 86400.
"$SCALEAUDIT" analyze --json samples/trials/ddp-scales-well > "$tmp/dsw.json" ||
	{ echo "analyze --json of the sample failed"; fail=1; }
from=(--from "$tmp/dsw.json" --params 1B --gpu B200 --seq-len 2048 --micro-batch 8 --hidden 2048
	--layers 16 --heads 32 --target-samples 1e8 --price 4)
"$SCALEAUDIT" plan "${from[@]}" --json > "$tmp/from2.json" || { echo "plan --from failed"; fail=1; }
"$SCALEAUDIT" plan "${from[@]}" --gpus 4 --json > "$tmp/from4.json" || { echo "plan --from --gpus 4 failed"; fail=1; }
"$SCALEAUDIT" plan "${from[@]}" > "$tmp/from.txt"
"$SCALEAUDIT" plan "${from[@]}" -o "$tmp/from-trial" > /dev/null || { echo "plan --from -o failed"; fail=1; }
python3 - "$tmp/dsw.json" "$tmp/from2.json" "$tmp/from4.json" "$tmp/from.txt" \
	"$tmp/from-trial/CHECKLIST.md" <<'PY' || fail=1
import json, sys
a, p2, p4 = (json.load(open(f)) for f in sys.argv[1:4])
text, md = open(sys.argv[4]).read(), open(sys.argv[5]).read()
bad = []
def close(what, got, want):
    if got is None or abs(got - want) > 1e-9 * abs(want):
        bad.append(f"{what}: got {got!r}, want {want!r}")
runs = {r["name"]: r for r in a["runs"]}
one, two = runs["1gpu"], runs["2gpu"]
eff = a["comparison"]["scaling_efficiency"]
peak1 = max(g["peak_memory_bytes"] for g in one["per_gpu"])
m = p2["inputs"]["measured"]
if not m["source"].endswith("dsw.json, runs 1gpu and 2gpu"):
    bad.append(f"measured source: {m['source']!r}")
close("measured efficiency", m["scaling_efficiency"], eff)
close("measured 2-GPU tokens/s", m["runs"][1]["tokens_per_s"], two["throughput"]["tokens_per_s"])
opts2 = {o["strategy"]: o for o in p2["options"]}
close("single tokens/s", opts2["single"]["tokens_per_s"], one["throughput"]["tokens_per_s"])
close("ddp tokens/s", opts2["ddp"]["tokens_per_s"], two["throughput"]["tokens_per_s"])
close("ddp days", opts2["ddp"]["days_to_target"], 1e8 * 2048 / two["throughput"]["tokens_per_s"] / 86400)
if [opts2[k]["throughput_source"] for k in ("single", "ddp")] != ["measured", "measured"]:
    bad.append("2-GPU options not marked measured")
single = {s["name"]: s for s in p2["strategies"]}["single"]
close("single total", single["memory_per_gpu_bytes"]["total"], peak1)
if single["memory_total_source"] != "measured":
    bad.append("single's total not marked measured")
if {s["name"]: s for s in p2["strategies"]}["zero1"]["memory_total_source"] != "modelled":
    bad.append("zero1's total not marked modelled")
ddp4 = {o["strategy"]: o for o in p4["options"]}["ddp"]
close("4-GPU ddp tokens/s", ddp4["tokens_per_s"], one["throughput"]["tokens_per_s"] * 4 * eff)
if ddp4["throughput_source"] != "measured-scaled":
    bad.append(f"4-GPU throughput source {ddp4['throughput_source']!r}")
flat = " ".join(text.split())
for want in ("measured (", "runs 1gpu and 2gpu): 1 GPU", "Every other figure is modelled.",
             "single's total is the measured peak, 49.7 GB", "tokens/s, 376.9 samples/s (measured)"):
    if want not in flat:
        bad.append(f"text lacks {want!r}")
if "at the planned rate (" + m["source"] + ")" not in md:
    bad.append("CHECKLIST.md does not say the rate is measured, and where")
for b in bad:
    print("--from:", b)
sys.exit(1 if bad else 0)
PY
# an analysis.json without a comparison: refused, nothing planned
printf '{"tool": {"name": "scaleaudit"' > "$tmp/bad.json"
"$SCALEAUDIT" plan --from "$tmp/bad.json" --params 1B --gpu B200 > /dev/null 2>&1
[ $? -eq 1 ] || { echo "plan --from a broken analysis.json did not exit 1"; fail=1; }
exit $fail
