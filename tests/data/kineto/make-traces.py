#!/usr/bin/env python3
"""Writes the small synthetic Kineto traces of the tests (committed; run again
only to change them), from the repository root:

    python3 tests/data/kineto/make-traces.py

- kineto/mi300x-remap/: a ROCm capture as ROCm's profiler writes one: one
  deviceProperties entry, id 0, "AMD Instinct MI300X", while every kernel runs
  on device 9 (pid 9, args.device 9: GPU agents are numbered after the CPU
  agents); four ProfilerSteps; [memory] instants of Device Type 6 (HIP) on
  Device Id 0 whose Total Reserved peaks at 152,170,000,000 bytes.
- kineto/mi300x-remap-kdev/: the same, its [memory] instants on Device Id 9.
- cli/b200-no-steps/b200/: a B200 capture without any ProfilerStep, alone
  in its trial. Its GPU work, in microseconds from the first activity at
  1000: memcpy 1000-1500, kernels 1600-4600, 4600-5000 and 6000-8000, a
  memset 7500-8500 on another stream. The span is 7.5 ms: compute 5.4 ms,
  memory 1.0 ms (only memcpy/memset running), idle 1.1 ms, memory_total
  1.5 ms, kernel_busy 6.4 ms.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
CPU_PID = 4242

def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write('{\n')
        for k, v in doc.items():
            if k != 'traceEvents':
                f.write(' %s: %s,\n' % (json.dumps(k), json.dumps(v)))
        f.write(' "traceEvents": [\n')
        f.write(',\n'.join('  ' + json.dumps(e) for e in doc['traceEvents']))
        f.write('\n ]\n}\n')

def launch(ev, corr, ts, name, op, gpu, runtime):
    """A CPU op, its runtime launch and the GPU work it launched (gpu: dict)."""
    ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": CPU_PID, "tid": CPU_PID,
               "ts": ts, "dur": 20, "args": {"External id": corr}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": runtime, "pid": CPU_PID,
               "tid": CPU_PID, "ts": ts + 5, "dur": 10,
               "args": {"External id": corr, "correlation": corr}})
    gpu = dict(gpu)
    gpu.setdefault("cat", "kernel")
    gpu["name"] = name
    gpu["args"] = dict(gpu.get("args", {}), **{"External id": corr, "correlation": corr})
    ev.append(gpu)

def memory(ev, ts, dev, allocated, reserved):
    ev.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
               "pid": CPU_PID, "tid": CPU_PID, "ts": ts,
               "args": {"Device Type": 6, "Device Id": dev, "Addr": 140000000000000,
                        "Bytes": 1048576, "Total Allocated": allocated,
                        "Total Reserved": reserved}})

def mi300x(mem_dev):
    ev = []
    kdev = 9
    for n in range(1, 5):
        t0 = n * 10000
        ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % n,
                   "pid": CPU_PID, "tid": CPU_PID, "ts": t0, "dur": 9000,
                   "args": {"External id": n * 100}})
        for i, (name, dur) in enumerate((("Cijk_Alik_Bljk_BBS_BH_MT256x256x64_MI32x32x8x1_SN", 6000),
                                         ("void at::native::elementwise_kernel<128, 4>", 1500))):
            corr = n * 100 + i + 1
            launch(ev, corr, t0 + 100 + i * 50, name, "aten::mm" if i == 0 else "aten::add",
                   {"ph": "X", "pid": kdev, "tid": 0, "ts": t0 + 500 + i * 6000, "dur": dur,
                    "args": {"device": kdev, "stream": 0}}, "hipLaunchKernel")
        memory(ev, t0 + 120, mem_dev, 120000000000 + n * 5000000000,
               [100000000000, 140000000000, 152170000000, 152170000000][n - 1])
    return {"schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "AMD Instinct MI300X",
                                  "totalGlobalMem": 205822885888, "computeMajor": 9,
                                  "computeMinor": 4, "warpSize": 64, "numSms": 304}],
            "displayTimeUnit": "ms", "traceEvents": ev}

def b200():
    ev = []
    work = [("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 1000, 500, 7, "cudaMemcpyAsync"),
            ("sm100_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_cublas", "kernel",
             1600, 3000, 7, "cudaLaunchKernel"),
            ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16> >",
             "kernel", 4600, 400, 7, "cudaLaunchKernel"),
            ("sm100_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_cublas", "kernel",
             6000, 2000, 7, "cudaLaunchKernel"),
            ("Memset (Device)", "gpu_memset", 7500, 1000, 8, "cudaMemsetAsync")]
    for i, (name, cat, ts, dur, stream, runtime) in enumerate(work):
        launch(ev, i + 1, 200 + i * 100, name, "aten::mm", {
            "ph": "X", "cat": cat, "pid": 0, "tid": stream, "ts": ts, "dur": dur,
            "args": {"device": 0, "stream": stream}}, runtime)
    return {"schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "NVIDIA B200", "totalGlobalMem": 191503138816,
                                  "computeMajor": 10, "computeMinor": 0, "warpSize": 32,
                                  "numSms": 148}],
            "displayTimeUnit": "ms", "traceEvents": ev}

write(os.path.join(HERE, 'mi300x-remap', 'mi300x.pt.trace.json'), mi300x(0))
write(os.path.join(HERE, 'mi300x-remap-kdev', 'mi300x.pt.trace.json'), mi300x(9))
write(os.path.join(DATA, 'cli', 'b200-no-steps', 'b200', 'rank0.pt.trace.json'), b200())
