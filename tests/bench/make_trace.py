#!/usr/bin/env python3
"""Writes a scaling trial of large synthetic Kineto traces for the benchmark.

usage: make_trace.py OUTDIR --ranks N --mb MB [--seed S] [--baseline-fraction F]

OUTDIR gets trial.ini, 1gpu/ (the baseline: one rank, F of the steps, at
least 7; default F = 0.1) and Ngpu/ (N ranks of about MB MB of JSON each),
every trace plain (rankR.pt.trace.json); the caller gzips them if it wants.
Deterministic given the seed: the same arguments write the same bytes.

Each trace looks like what PyTorch's profiler writes for a transformer
trained with DDP (the mix and key order of the real traces HTA ships as test
data): the CPU side first (ProfilerStep#N, forward and backward cpu_ops
nested two deep with record_shapes' Input Dims, autograd ops without a
kernel, [memory] events, record_param_comms and nccl:all_reduce annotations),
then the GPU side (cudaLaunchKernel / cudaMemcpyAsync / cudaMemsetAsync with
their ac2g flows, kernels with launch details, memcpy and memset, and NCCL
all-reduce kernels with their collective args on a side stream when N > 1).
Per kernel: ~3 cpu_ops, ~1.3 runtime calls, 2 flows, ~1 [memory] event,
about 2,100 bytes of pretty-printed JSON (as Kineto writes it) in 8 events.
"""
import argparse
import os
import random

BASE_NS = 1759300074000000000
T0_NS = 5126567123456789
PID = 43079

# One transformer layer's forward ops: (outer cpu_op, inner cpu_op, kernel, kernel us at micro batch 16,
# grid, block, registers, shared memory, Input Dims).
LAYER = [
    ("aten::layer_norm", "aten::native_layer_norm",
     "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>"
     "(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
     67.0, (16384, 1, 1), (256, 1, 1), 30, 0, "[[16, 2048, 2048], [], [2048], [2048], []]"),
    ("aten::linear", "aten::addmm", "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT",
     1071.1, (148, 1, 1), (384, 1, 1), 168, 213248, "[[6144], [32768, 2048], [2048, 6144], [], []]"),
    ("aten::scaled_dot_product_attention", "aten::_flash_attention_forward",
     "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
     "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, "
     "true, false, false, false, true, false>(pytorch_flash::Flash_fwd_params)",
     919.0, (16, 16, 8), (128, 1, 1), 255, 49152, "[[16, 16, 2048, 128], [16, 16, 2048, 128], [16, 16, 2048, 128]]"),
    ("aten::linear", "aten::addmm", "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT",
     385.2, (148, 1, 1), (384, 1, 1), 168, 213248, "[[2048], [32768, 2048], [2048, 2048], [], []]"),
    ("aten::add", "aten::add",
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
     "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
     58.4, (32768, 1, 1), (128, 1, 1), 26, 0, "[[16, 2048, 2048], [16, 2048, 2048], []]"),
    ("aten::layer_norm", "aten::native_layer_norm",
     "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>"
     "(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
     67.0, (16384, 1, 1), (256, 1, 1), 30, 0, "[[16, 2048, 2048], [], [2048], [2048], []]"),
    ("aten::linear", "aten::addmm", "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT",
     1428.3, (148, 1, 1), (384, 1, 1), 168, 213248, "[[8192], [32768, 2048], [2048, 8192], [], []]"),
    ("aten::gelu", "aten::gelu",
     "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
     "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::"
     "{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::GeluCUDAKernelImpl(at::"
     "TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::"
     "operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)",
     121.7, (65536, 1, 1), (128, 1, 1), 28, 0, "[[16, 2048, 8192], []]"),
    ("aten::linear", "aten::addmm", "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT",
     1402.9, (148, 1, 1), (384, 1, 1), 168, 213248, "[[2048], [32768, 8192], [8192, 2048], [], []]"),
    ("aten::add", "aten::add",
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
     "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
     58.4, (32768, 1, 1), (128, 1, 1), 26, 0, "[[16, 2048, 2048], [16, 2048, 2048], []]"),
]
LAYERS = 16
BUCKET_LAYERS = 4          # one all-reduce per this many layers' gradients
NCCL_KERNEL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
ADAM_KERNEL = ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
               "namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor"
               "<c10::BFloat16, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, double, "
               "double, double, bool*, bool*>(int, at::native::(anonymous namespace)::TensorListMetadata<4>, "
               "at::native::(anonymous namespace)::FusedAdamMathFunctor<c10::BFloat16, 4, "
               "(at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, double, "
               "bool*, bool*)")
STREAM = 7
NCCL_STREAM = 28


def us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


class Rank:
    """One rank's trace: CPU-side text and GPU-side text, written step by step."""

    def __init__(self, rank, world, seed, cpu, gpu):
        self.r, self.world = rank, world
        self.rng = random.Random(seed * 1000003 + rank * 7919 + world)
        self.cpu, self.gpu = cpu, gpu
        self.t = T0_NS + rank * 137000           # CPU clock
        self.g = self.t                           # compute stream free at
        self.n = self.t                           # NCCL stream free at
        self.ext = 1
        self.corr = 100
        self.ev_idx = 0
        self.addr = 139900000000000
        self.alloc = 7235436544
        self.live = []                            # forward allocations not yet freed
        self.scale = 1.0 / world                  # per-GPU batch: 16 / world

    def jitter(self, us_):
        return int(us_ * 1000 * (0.95 + 0.1 * self.rng.random()))

    def cpu_op(self, cat, name, ts, dur, args):
        self.cpu.append('  {\n    "ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d,\n'
                        '    "ts": %s, "dur": %s,\n    "args": {\n      %s, "Ev Idx": %d\n    }\n  }'
                        % (cat, name, PID, PID, us(ts), us(dur), args, self.ev_idx))
        self.ev_idx += 1

    def memory(self, ts, nbytes):
        self.alloc += nbytes
        self.addr += 2097152 if nbytes > 0 else -2097152
        self.cpu.append('  {\n    "ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", '
                        '"pid": %d, "tid": %d,\n    "ts": %s,\n    "args": {\n      "Ev Idx": %d, '
                        '"Device Type": 1, "Device Id": %d, "Addr": %d, "Bytes": %d, "Total Allocated": %d, '
                        '"Total Reserved": %d\n    }\n  }'
                        % (PID, PID, us(ts), self.ev_idx, self.r, self.addr, nbytes, self.alloc,
                           self.alloc + 226230272))
        self.ev_idx += 1

    def launch(self, name, cbid, ts, ext):
        corr = self.corr
        self.corr += 1
        self.gpu.append('  {\n    "ph": "X", "cat": "cuda_runtime", "name": "%s", "pid": %d, "tid": %d,\n'
                        '    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d, "cbid": %d, '
                        '"correlation": %d\n    }\n  },\n  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, '
                        '"ts": %s,\n    "cat": "ac2g", "name": "ac2g"\n  }'
                        % (name, PID, PID, us(ts), us(self.jitter(4.1)), ext, cbid, corr, corr, PID, PID, us(ts)))
        return corr

    def device(self, cat, name, stream, ts, dur, ext, corr, extra):
        self.gpu.append('  {\n    "ph": "f", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n    "cat": "ac2g", '
                        '"name": "ac2g", "bp": "e"\n  },\n  {\n    "ph": "X", "cat": "%s", "name": "%s", '
                        '"pid": %d, "tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n      "External id": %d, '
                        '"queued": 0, "device": %d, "context": 1, "stream": %d, "correlation": %d, %s\n    }\n  }'
                        % (corr, self.r, stream, us(ts), cat, name, self.r, stream, us(ts), us(dur), ext,
                           self.r, stream, corr, extra))

    def kernel_op(self, outer, inner, kname, kus, grid, block, regs, smem, dims, backward=False):
        """An op that launches one kernel on the compute stream."""
        t0, ext = self.t, self.ext
        self.ext += 2
        if backward:
            outer = "autograd::engine::evaluate_function: " + outer
        launch_at = t0 + self.jitter(9.0)
        corr = self.launch("cudaLaunchKernel", 211, launch_at, ext + 1)
        end = launch_at + self.jitter(6.0)
        dur = self.jitter(kus * self.scale * (2.0 if backward else 1.0))
        start = max(self.g, launch_at + 5000)
        self.g = start + dur
        self.device("kernel", kname, STREAM, start, dur, ext + 1, corr,
                    '"registers per thread": %d, "shared memory": %d, "blocks per SM": %.6f, '
                    '"grid": [%d, %d, %d], "block": [%d, %d, %d], "est. achieved occupancy %%": 0'
                    % (regs, smem, grid[0] * grid[1] * grid[2] / 148.0, grid[0], grid[1], grid[2],
                       block[0], block[1], block[2]))
        self.cpu_op("cpu_op", outer, t0, end + 2000 - t0,
                    '"External id": %d, "Record function id": 0, "Input Dims": %s, "Input type": '
                    '["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"]' % (ext, dims))
        self.cpu_op("cpu_op", inner, t0 + 3000, end - t0 - 3000,
                    '"External id": %d, "Record function id": 0, "Input Dims": %s, "Input type": '
                    '["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"]' % (ext + 1, dims))
        if not backward:        # activations kept for the backward pass, freed there
            self.live.append(int(33554432 * self.scale) * (1 + int(self.rng.random() * 4)))
            self.memory(t0 + 4000, self.live[-1])
        elif self.live:
            self.memory(t0 + 4000, -self.live.pop())
        self.t = end + 2000 + self.jitter(3.0)

    def view_op(self):
        """An op that launches nothing (a view, a transpose)."""
        name = "aten::view" if self.rng.random() < 0.5 else "aten::t"
        dur = self.jitter(2.5)
        self.cpu_op("cpu_op", name, self.t, dur,
                    '"External id": %d, "Record function id": 0, "Input Dims": [[16, 2048, 2048], []], '
                    '"Input type": ["c10::BFloat16", "ScalarList"]' % self.ext)
        self.ext += 1
        self.t += dur + 1000

    def copy_op(self, cat, name, api, cbid, nbytes, gbps):
        t0, ext = self.t, self.ext
        self.ext += 1
        corr = self.launch(api, cbid, t0 + 2000, ext)
        dur = max(1000, int(nbytes / gbps))
        start = max(self.g, t0 + 8000)
        self.g = start + dur
        self.device(cat, name, STREAM, start, dur, ext, corr,
                    '"bytes": %d, "memory bandwidth (GB/s)": %.3f' % (nbytes, nbytes / dur))
        self.t = t0 + self.jitter(12.0)

    def allreduce(self, nelems):
        t0, ext = self.t, self.ext
        self.ext += 2
        self.cpu_op("user_annotation", "nccl:all_reduce", t0, 30000, '"External id": %d' % ext)
        self.cpu_op("cpu_op", "record_param_comms", t0 + 1000, 25000,
                    '"External id": %d, "Record function id": 0, "Collective name": "allreduce", '
                    '"In msg nelems": %d, "Out msg nelems": %d, "Group size": %d, "dtype": "BFloat16", '
                    '"Process Group Name": "0", "Process Group Description": "default_pg", '
                    '"Process Group Ranks": "%s"' % (ext + 1, nelems, nelems, self.world,
                                                    list(range(self.world))))
        corr = self.launch("cudaLaunchKernel", 211, t0 + 10000, ext + 1)
        start = max(self.n, self.g, t0 + 15000)
        dur = int(nelems * 2 * 2 * (self.world - 1) / self.world / 40.0) + self.jitter(20.0)
        self.n = start + dur
        self.device("kernel", NCCL_KERNEL, NCCL_STREAM, start, dur, ext + 1, corr,
                    '"registers per thread": 96, "shared memory": 87568, "blocks per SM": 0.162162, '
                    '"grid": [24, 1, 1], "block": [640, 1, 1], "est. achieved occupancy %%": 0, '
                    '"Collective name": "allreduce", "In msg nelems": %d, "Out msg nelems": %d, '
                    '"Group size": %d, "dtype": "BFloat16", "In split size": "[]", "Out split size": "[]", '
                    '"Process Group Name": "0", "Process Group Description": "default_pg", '
                    '"Process Group Ranks": "%s"' % (nelems, nelems, self.world, list(range(self.world))))
        self.t = t0 + 32000

    def step(self, k):
        start, ext = self.t, self.ext
        self.ext += 1
        self.t += 15000
        self.copy_op("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", "cudaMemcpyAsync", 51,
                     16 * 2048 * 8 // self.world, 25.0)
        for _ in range(LAYERS):
            for op in LAYER:
                self.kernel_op(*op)
                if self.rng.random() < 0.5:
                    self.view_op()
        self.copy_op("gpu_memset", "Memset (Device)", "cudaMemsetAsync", 52, 6291456, 1200.0)
        for layer in range(LAYERS):
            for op in reversed(LAYER):
                back = op[1].replace("aten::", "").capitalize() + "Backward0"
                self.kernel_op(back, op[1], op[2], op[3], op[4], op[5], op[6], op[7], op[8], backward=True)
                self.view_op()
            if self.world > 1 and layer % BUCKET_LAYERS == BUCKET_LAYERS - 1:
                self.allreduce(25 * 1024 * 1024)
        self.kernel_op("Optimizer.step#AdamW.step", "aten::_fused_adamw_", ADAM_KERNEL, 2100.0,
                       (320, 1, 1), (512, 1, 1), 40, 0, "[[], [], [], [], [], []]")
        # the step ends when the CPU waits for the GPU (loss.item())
        self.launch("cudaStreamSynchronize", 131, self.t, self.ext)
        self.t = max(self.g, self.n) + 20000
        self.cpu_op("user_annotation", "ProfilerStep#%d" % k, start, self.t - start,
                    '"External id": %d' % ext)


def header(rank, world):
    props = ('    {\n      "id": %d, "name": "NVIDIA B200", "totalGlobalMem": 191503138816,\n'
             '      "computeMajor": 10, "computeMinor": 0,\n'
             '      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n'
             '      "regsPerBlock": 65536, "warpSize": 32,\n'
             '      "sharedMemPerBlock": 49152, "numSms": 148\n'
             '    , "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, '
             '"sharedMemPerMultiprocessor": 233472\n    }')
    dist = ""
    if world > 1:
        dist = ('  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d, "pg_count": 1, '
                '"pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", '
                '"pg_size": %d, "ranks": %s}], "nccl_version": "2.26.2"},\n'
                % (rank, world, world, list(range(world))))
    meta = []
    for pid, tid, name, key, val in [
            (PID, 0, "process_name", "name", '"python3.11"'),
            (PID, 0, "process_labels", "labels", '"CPU"'),
            (PID, PID, "thread_name", "name", '"thread %d (python3.11)"' % PID),
            (rank, 0, "process_name", "name", '"python3.11"'),
            (rank, 0, "process_labels", "labels", '"GPU %d"' % rank),
            (rank, STREAM, "thread_name", "name", '"stream %d "' % STREAM),
            (rank, NCCL_STREAM, "thread_name", "name", '"stream %d "' % NCCL_STREAM)]:
        meta.append('  {\n    "name": "%s", "ph": "M", "ts": %s, "pid": %d, "tid": %d,\n'
                    '    "args": {\n      "%s": %s\n    }\n  }' % (name, us(T0_NS), pid, tid, key, val))
    return ('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n%s\n  ],\n%s'
            '  "record_shapes": 1,\n  "profile_memory": 1,\n  "cupti_version": 26,\n'
            '  "cuda_runtime_version": 12080,\n  "cuda_driver_version": 12080,\n'
            '  "baseTimeNanoseconds": %d,\n  "displayTimeUnit": "ms",\n  "traceEvents": [\n%s'
            % (",\n".join(props % i for i in range(max(world, 1))), dist, BASE_NS, ",\n".join(meta)))


def write_rank(path, rank, world, seed, steps=None, target=None):
    """Writes one rank's trace: `steps` steps, or as many as reach `target` bytes. Returns the steps."""
    tmp = path + ".gpu.tmp"
    with open(path, "w") as out, open(tmp, "w") as gside:
        out.write(header(rank, world))
        rk = Rank(rank, world, seed, [], [])
        written = 0
        k = 0
        while (steps is not None and k < steps) or (steps is None and (k < 2 or written < target)):
            rk.cpu, rk.gpu = [], []
            rk.step(k)
            text_c = ",\n" + ",\n".join(rk.cpu)
            text_g = ",\n" + ",\n".join(rk.gpu)
            out.write(text_c)
            gside.write(text_g)
            written += len(text_c) + len(text_g)
            k += 1
    with open(path, "a") as out, open(tmp) as gside:
        while True:
            block = gside.read(1 << 24)
            if not block:
                break
            out.write(block)
        out.write('\n  ],\n  "traceName": "/workspace/runs/rank%d.pt.trace.json"\n}\n' % rank)
    os.unlink(tmp)
    return k


def write_ini(path, text):
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--mb", type=float, required=True, help="MB (1e6 bytes) of JSON per rank")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline-fraction", type=float, default=0.1)
    a = ap.parse_args()
    n = a.ranks
    run = "%dgpu" % n
    os.makedirs(os.path.join(a.outdir, "1gpu"), exist_ok=True)
    os.makedirs(os.path.join(a.outdir, run), exist_ok=True)
    write_ini(os.path.join(a.outdir, "trial.ini"),
              "[trial]\ntitle = benchmark: %d x %g MB of Kineto trace per rank\nhypothesis = step-time\n"
              "baseline = 1gpu\nquestion = single-config\nexpected_speedup = %.2f\n" % (n, a.mb, 0.8 * n))
    for name, gpus, strategy, micro in [("1gpu", 1, "single", 16), (run, n, "ddp", max(16 // n, 1))]:
        write_ini(os.path.join(a.outdir, name, "run.ini"),
                  "[run]\nname = %s\ngpus = %d\nstrategy = %s\nprecision = bf16\nglobal_batch = 16\n"
                  "micro_batch = %d\ngrad_accum = 1\nseq_len = 2048\ndataset = wikitext-103\n"
                  % (name, gpus, strategy, micro))
    target = int(a.mb * 1e6)
    steps = write_rank(os.path.join(a.outdir, run, "rank0.pt.trace.json"), 0, n, a.seed, target=target)
    for r in range(1, n):
        write_rank(os.path.join(a.outdir, run, "rank%d.pt.trace.json" % r), r, n, a.seed, steps=steps)
    base = max(7, int(steps * a.baseline_fraction + 0.5))
    write_rank(os.path.join(a.outdir, "1gpu", "rank0.pt.trace.json"), 0, 1, a.seed, steps=base)
    print("%s: %d x %d steps, baseline 1 x %d steps" % (a.outdir, n, steps, base))


if __name__ == "__main__":
    main()
