#!/bin/bash
# `inspect --json` lists each row of a kernel or memory summary table as the
# table gives it: a kernel table inside a training log (CSV with its
# Processing line) and a 2021 memory-time CSV whose columns are Average,
# Minimum, Maximum and no median or deviation (null). Exact values, then the
# same rows from tests/nsys_rows.py.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
log=tests/data/nsys/train_with_kern_sum.log
old=tests/data/nsys/report_2021.csv
"$SCALEAUDIT" inspect --json "$log" "$old" > "$tmp/got.json" || { echo "inspect exited $?"; exit 1; }
python3 - "$tmp/got.json" <<'PY' || exit 1
import json, sys
f = json.load(open(sys.argv[1]))["files"]
want_k = [
    {"name": "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn", "time_pct": 55.5,
     "total_ns": 123456789, "instances": 1000, "avg_ns": 123456.8, "med_ns": 120000, "min_ns": 100000,
     "max_ns": 200000, "stddev_ns": 5000.5},
    {"name": "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 3, 128, 1>(float *, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, int, unsigned int)",
     "time_pct": 44.5, "total_ns": 98765432, "instances": 2000, "avg_ns": 49382.7, "med_ns": 49000,
     "min_ns": 40000, "max_ns": 60000, "stddev_ns": 1000},
]
bad = []
if f[0].get("kernel_rows") != want_k:
    bad.append(f"log kernel_rows: {f[0].get('kernel_rows')}")
m = f[1].get("memory_rows") or []
if f[1].get("kernel_rows") is not None or len(m) != 2 or m[0]["report"] != "cuda_gpu_mem_time_sum" or \
        m[0]["med_ns"] is not None or m[0]["stddev_ns"] is not None or m[0]["min_ns"] is None:
    bad.append(f"2021 csv rows: kernel {f[1].get('kernel_rows')}, memory {m}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
python3 tests/nsys_rows.py "$log" "$old" > "$tmp/want.jsonl" || { echo "tests/nsys_rows.py failed"; exit 1; }
python3 tests/sh/nsys_rows_cmp.py "$tmp/got.json" "$tmp/want.jsonl"
