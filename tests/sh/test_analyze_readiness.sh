#!/bin/bash
# The hand-made trial tests/data/trials/blackwell-not-ready (B200 runs whose
# traces run sm90_xmma and cutlass_80 kernels; 2gpu's collect_env carries
# PyTorch's "sm_100 is not compatible" warning): each run's share of kernel
# time in kernels of another generation, computed here from the traces
# themselves, equals runs[].readiness.foreign_share; the findings read
# exactly as below; the warning blocks the verdict (inconclusive, a blocking
# gpu_arch confound), and without the collect_env file the same trial is
# refuted; analyze's text and the report's summary show the readiness lines.
# A binary built for another GPU in a run's directory blocks the same way
# (blackwell-extension); one the GPU runs only through PTX is a warning.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
. tests/report_cache.sh
need_tool python3
T=tests/data/trials/blackwell-not-ready
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$SCALEAUDIT" analyze --json "$T" > "$tmp/a.json" 2> /dev/null || { echo "analyze exited $?"; exit 1; }
cp -r "$T" "$tmp/trial" && rm "$tmp/trial/2gpu/collect_env.txt"
"$SCALEAUDIT" analyze --json "$tmp/trial" > "$tmp/b.json" 2> /dev/null || { echo "analyze (no collect_env) exited $?"; exit 1; }
python3 - "$T" "$tmp/a.json" "$tmp/b.json" <<'PY' || exit 1
import glob, json, re, sys
top, a, b = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append(f"{what}: got {got!r}, want {exp!r}")
# the share from the traces: kernels whose name starts with sm<N>_ (N < 100) or holds cutlass_<N>_
foreign = re.compile(r"(^|[^A-Za-z0-9])(sm([0-9]{2})_|cutlass_([0-9]{2})_)")
for run in a["runs"]:
    tot = far = 0
    for p in glob.glob(f"{top}/{run['name']}/*.pt.trace.json"):
        for e in json.load(open(p))["traceEvents"]:
            if e.get("cat") != "kernel":
                continue
            tot += e["dur"]
            far += e["dur"] if foreign.search(e["name"]) else 0
    share = run["readiness"]["foreign_share"]
    if abs(share - far / tot) > 1e-12:
        bad.append(f"{run['name']}: foreign_share {share}, the traces say {far / tot}")
    want(f"{run['name']} foreign archs", [k["arch"] for k in run["readiness"]["foreign_kernels"]], ["sm_90", "sm_80"])
XMMA = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
CUT = "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8::Params)"
WARN = f"{top}/2gpu/collect_env.txt:3: NVIDIA B200 with CUDA capability sm_100 is not compatible with the current PyTorch installation, which supports sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"
found = {(f["code"], f["message"]) for f in a["findings"]}
for run, share, x, c in (("1gpu", "70.0", "60.0", "10.0"), ("2gpu", "58.3", "50.0", "8.3")):
    msg = (f"run '{run}' on B200 (sm_100): {share}% of its GPU kernel time ran in 2 kernels built for another "
           f"GPU generation, not tuned for this GPU: {XMMA} (sm_90, {x}%); {CUT} (sm_80, {c}%)")
    if ("foreign-kernels", msg) not in found:
        bad.append(f"no finding {msg!r}")
msg = (f"run '2gpu': PyTorch's build does not target its GPU ({WARN}): the run's kernels do not run natively on it, "
       "so no verdict can stand on this run; install a PyTorch wheel built for it (for Blackwell a cu128 wheel or "
       'newer) or rebuild PyTorch and the extensions with TORCH_CUDA_ARCH_LIST="10.0"')
if ("arch-unsupported", msg) not in found:
    bad.append(f"no finding {msg!r}")
r2 = a["runs"][1]["readiness"]
want("2gpu verdict", r2["verdict"], "not-ready")
want("2gpu arch_warning", r2["arch_warning"], WARN)
want("2gpu checks", [(c["component"], c["have"], c["ok"]) for c in r2["checks"]],
     [("CUDA", "12.6", False), ("driver", "570.124.06", True), ("PyTorch", "2.6.0", False),
      ("NCCL", "2.21.5", False), ("cuDNN", "9.5.1", False),
      ("arch list", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90", False)])
want("1gpu verdict", a["runs"][0]["readiness"]["verdict"], "unknown")
want("verdict", a["comparison"]["verdict"], "inconclusive")
cf = [(c["what"], c["severity"]) for c in a["comparison"]["confounds"]]
want("confounds", cf, [("gpu_arch", "blocking")])
want("verdict without collect_env", b["comparison"]["verdict"], "refuted")
want("2gpu readiness without collect_env", b["runs"][1]["readiness"]["verdict"], "unknown")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
"$SCALEAUDIT" analyze "$T" > "$tmp/a.txt" 2> /dev/null
grep -qx "  2gpu: the logs show PyTorch 2.6.0+cu126, built with CUDA 12.6, driver 570.124.06, NCCL 2.21.5" "$tmp/a.txt" ||
	{ echo "analyze's text lacks the 2gpu versions line"; exit 1; }
grep -qx "  2gpu: minimums for sm_100: CUDA 12.6 is below 12.8, driver 570.124.06 meets 570.26, PyTorch 2.6.0 is below 2.7, NCCL 2.21.5 is below 2.25.1, cuDNN 9.5.1 is below 9.7, arch list sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 lacks sm_100" "$tmp/a.txt" ||
	{ echo "analyze's text lacks the 2gpu minimums line"; exit 1; }
r=$(report_of "$T")
grep -qx "## Blackwell readiness" "$r/summary.md" || { echo "summary.md has no readiness heading"; exit 1; }
grep -q '^- 2gpu on B200 (sm\\_100): not-ready: ' "$r/summary.md" || { echo "summary.md lacks 2gpu's verdict line"; exit 1; }

# tests/data/trials/blackwell-extension: the same B200 runs without collect_env; 2gpu's directory
# holds flash_attn_2_cuda.so, a copy of tests/data/stack/sm90.so (sm_90 SASS only): missing on
# sm_100, an extension-missing-arch error and a blocking gpu_arch confound. A copy of the trial
# whose 2gpu holds ptx90.fatbin (compute_90 PTX) instead is jit there: a warning, no block.
E=tests/data/trials/blackwell-extension
SO=$E/2gpu/flash_attn_2_cuda.so
"$SCALEAUDIT" analyze --json "$E" > "$tmp/e.json" 2> /dev/null || { echo "analyze (extension) exited $?"; exit 1; }
cp -r "$E" "$tmp/jit" && rm "$tmp/jit/2gpu/flash_attn_2_cuda.so" && cp tests/data/stack/ptx90.fatbin "$tmp/jit/2gpu/"
"$SCALEAUDIT" analyze --json "$tmp/jit" > "$tmp/j.json" 2> /dev/null || { echo "analyze (jit) exited $?"; exit 1; }
python3 - "$SO" "$tmp/e.json" "$tmp/j.json" "$tmp/jit/2gpu/ptx90.fatbin" <<'PY' || exit 1
import json, sys
so, e, j, ptx = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3])), sys.argv[4]
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append(f"{what}: got {got!r}, want {exp!r}")
r1, r2 = e["runs"][0]["readiness"], e["runs"][1]["readiness"]
want("1gpu code", r1["code"], [])
want("2gpu code", r2["code"], [{"path": so, "kind": "shared-object", "sass": ["sm_90"], "ptx": [], "amdgpu": [],
                                "verdict": "missing", "jit_ptx": None, "jit_min_driver": None,
                                "zstd_entries": 0, "zstd_min_driver": None}])
want("2gpu verdict", r2["verdict"], "not-ready")
want("2gpu reason", r2["reason"], f"a compiled extension does not target the GPU: {so} holds no code for sm_100 (it carries sm_90)")
want("verdict", e["comparison"]["verdict"], "inconclusive")
want("confounds", [(c["what"], c["severity"]) for c in e["comparison"]["confounds"]], [("gpu_arch", "blocking")])
msg = (f"run '2gpu' on B200 (sm_100): this binary holds no code for its GPU (it carries sm_90): its kernels cannot "
       "load there (\"no kernel image is available\"), so no verdict can stand on this run; rebuild it with "
       'TORCH_CUDA_ARCH_LIST="10.0"')
want("missing findings", [(f["severity"], f["message"]) for f in e["findings"] if f["code"] == "extension-missing-arch"],
     [("error", msg)])
c = j["runs"][1]["readiness"]["code"]
want("jit code", [(x["path"], x["kind"], x["ptx"], x["verdict"], x["jit_ptx"], x["jit_min_driver"]) for x in c],
     [(ptx, "fatbin", ["compute_90"], "jit", "compute_90", "580.65.06")])
want("jit verdict", j["comparison"]["verdict"], "refuted")
msg = ("run '2gpu' on B200 (sm_100): this binary has no machine code for its GPU, only PTX compute_90 that the driver "
       "compiled at start-up (driver 580.65.06 or newer): the run paid that compilation and lacked the GPU's own "
       'features; rebuild it with TORCH_CUDA_ARCH_LIST="10.0"')
want("jit findings", [(f["severity"], f["message"]) for f in j["findings"] if f["code"] == "extension-jit"],
     [("warning", msg)])
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
"$SCALEAUDIT" analyze "$E" > "$tmp/e.txt" 2> /dev/null
grep -qx "  2gpu: binary $SO (shared-object: sm_90): missing" "$tmp/e.txt" ||
	{ echo "analyze's text lacks the binary line"; exit 1; }
re=$(report_of "$E")
grep -qxF -- "- 2gpu: binary ${SO//_/\\_} (shared-object: sm\\_90): missing" "$re/summary.md" ||
	{ echo "summary.md lacks the binary line"; exit 1; }
exit 0
