#!/bin/bash
# FLOPs of convolutions and attention from a Kineto trace with record_shapes:
# a trace written here as PyTorch writes one (conv2d > convolution >
# _convolution > cudnn_convolution with Concrete Inputs, a strided and a
# depthwise layer, a convolution's backward with its dgrad and wgrad kernels,
# scaled_dot_product_attention > _scaled_dot_product_flash_attention >
# _flash_attention_forward, causal and not, and its backward). analyze's
# per_gpu[].tflops equals what tests/realdata_flops.py computes from the
# trace alone, to 1e-9; without the Concrete Inputs the tool counts more
# (stride 1 and every score assumed), by the ratio worked out below.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/run" "$tmp/u/run"
python3 - "$tmp/t/run/trace.json" "$tmp/u/run/trace.json" <<'PY' || exit 1
import json, sys
ev, ts, corr = [], 1000, [0]

def op(name, dims, concrete, start, dur, depth):
    args = {"External id": 100 + len(ev), "Input Dims": dims, "Input type": ["c10::BFloat16"] * len(dims)}
    if concrete is not None:
        args["Concrete Inputs"] = concrete
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": start + depth,
               "dur": dur - 2 * depth, "args": args})

def launch(start, kernels):
    """Launches kernels [(name, dur_us)] from inside the innermost op at start."""
    t = start + 10
    for name, dur in kernels:
        corr[0] += 1
        c = corr[0]
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": t, "dur": 2, "args": {"correlation": c}})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": 50000 + c * 1000,
                   "dur": dur, "args": {"correlation": c, "device": 0, "stream": 7}})
        t += 3

def conv(x, w, stride, pad, groups, kern, dur):
    global ts
    s, p = "[%d, %d]" % (stride, stride), "[%d, %d]" % (pad, pad)
    op("aten::conv2d", [x, w, [], [], [], [], []], ["", "", "", s, p, "[1, 1]", str(groups)], ts, 40, 0)
    op("aten::convolution", [x, w, [], [], [], [], [], [], []],
       ["", "", "", s, p, "[1, 1]", "False", "[0, 0]", str(groups)], ts, 40, 1)
    op("aten::_convolution", [x, w, [], [], [], [], [], [], [], [], [], [], []],
       ["", "", "", s, p, "[1, 1]", "False", "[0, 0]", str(groups), "False", "False", "True", "True"], ts, 40, 2)
    op("aten::cudnn_convolution", [x, w, [], [], [], [], [], [], []],
       ["", "", p, s, "[1, 1]", str(groups), "False", "False", "True"], ts, 40, 3)
    launch(ts + 3, [(kern, dur)])
    ts += 50

def attn(b, h, s, d, causal, dur):
    global ts
    q = [b, h, s, d]
    op("aten::scaled_dot_product_attention", [q, q, q, [], [], [], [], []],
       ["", "", "", "", "0.", str(causal), "", "False"], ts, 40, 0)
    op("aten::_scaled_dot_product_flash_attention", [q, q, q, [], [], [], []],
       ["", "", "", "0.", str(causal), "False", ""], ts, 40, 1)
    t = [b, s, h, d]
    op("aten::_flash_attention_forward", [t, t, t, [], [], [], [], [], [], [], [], [], []],
       ["", "", "", "", "", str(s), str(s), "0.", str(causal), "False", "", "", ""], ts, 40, 2)
    launch(ts + 3, [("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4>, true>(Flash_fwd_params)", dur)])
    ts += 50

conv([32, 64, 56, 56], [128, 64, 3, 3], 2, 1, 1, "sm80_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64", 100)
conv([32, 256, 28, 28], [256, 1, 3, 3], 1, 1, 256, "void cudnn::cnn::conv2d_grouped_direct_kernel<__nv_bfloat16, float>(cudnn::cnn::GroupedDirectFpropParams)", 80)
conv([32, 3, 224, 224], [64, 3, 7, 7], 2, 3, 1, "sm80_xmma_fprop_implicit_gemm_indexed_bf16bf16_bf16f32_f32_nhwckrsc_nhwc", 150)
op("aten::convolution_backward", [[32, 128, 28, 28], [32, 64, 56, 56], [128, 64, 3, 3], [], [], [], [], [], [], [], []],
   ["", "", "", "[128]", "[2, 2]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "[True, True, False]"], ts, 40, 0)
launch(ts + 3, [("sm80_xmma_dgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc", 120),
                ("sm80_xmma_wgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc", 130)])
ts += 50
attn(4, 16, 2048, 64, True, 300)
attn(4, 16, 1024, 128, False, 90)
q = [4, 16, 2048, 64]
op("aten::_scaled_dot_product_flash_attention_backward", [q, q, q, q, q, [4, 16, 2048], [], [], [], [], [], [], [], [], []],
   ["", "", "", "", "", "", "", "", "2048", "2048", "0.", "True", "", "", ""], ts, 40, 0)
launch(ts + 3, [("void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<64>>(Flash_bwd_params)", 700)])
doc = {"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85899345920,
                             "computeMajor": 8, "computeMinor": 0, "numSms": 108}],
       "traceEvents": ev}
json.dump(doc, open(sys.argv[1], "w"))
for e in ev:
    e.get("args", {}).pop("Concrete Inputs", None)
json.dump(doc, open(sys.argv[2], "w"))
PY
python3 tests/realdata_flops.py "$tmp/t/run/trace.json" > "$tmp/want.jsonl" || { echo "tests/realdata_flops.py failed"; exit 1; }
for t in t u; do
	"$SCALEAUDIT" analyze --json "$tmp/$t" > "$tmp/$t.json" 2> "$tmp/err" ||
		{ echo "analyze exited $?"; cat "$tmp/err"; exit 1; }
done
python3 - "$tmp/t.json" "$tmp/u.json" "$tmp/want.jsonl" <<'PY'
import json, sys
t, u = (json.load(open(p))["runs"][0] for p in sys.argv[1:3])
want = json.loads(open(sys.argv[3]).readline())
bad = []
got = t["per_gpu"][0]["tflops"]
if got is None or abs(got - want["tflops"]) > 1e-9 * want["tflops"]:
    bad.append(f"tflops {got}, the script {want['tflops']}")
if t["mfu"]["covered_share"] != 1:
    bad.append(f"covered_share {t['mfu']['covered_share']}")
# Without Concrete Inputs: the strided layers count 4x their output, causal attention 2x.
conv1 = 2 * 32 * 128 * 28 * 28 * 64 * 9
conv3 = 2 * 32 * 64 * 112 * 112 * 3 * 49
causal = 2 * 4 * 16 * 2048 * 2048 * 128 / 2
causal_bwd = 2 * 4 * 16 * 2048 * 2048 * 320 / 2
extra = 3 * conv1 + 3 * conv3 + causal + causal_bwd
ug = u["per_gpu"][0]["tflops"]
want_u = (want["flops"] + extra) / want["kernel_s"] / 1e12
if ug is None or abs(ug - want_u) > 1e-9 * want_u:
    bad.append(f"without Concrete Inputs: tflops {ug}, want {want_u}")
for b in bad:
    print(b)
print(f"ok ({want['tflops']:.2f} TFLOP/s)" if not bad else f"{len(bad)} failed")
sys.exit(1 if bad else 0)
PY
