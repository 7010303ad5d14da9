#!/usr/bin/env python3
"""Writes a large synthetic Kineto trace for the benchmark (deterministic).

usage: make_trace.py OUT.json.gz STEPS KERNELS_PER_STEP

Each step has a ProfilerStep#N annotation, one cudaLaunchKernel per kernel
with its ac2g flow, the kernel itself (GEMMs and elementwise, a few NCCL
all-reduces on a side stream) and a [memory] event every 16 kernels, in the
current layout (relative ts with baseTimeNanoseconds).
"""
import gzip
import sys

out, steps, per_step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
names = [
    "nvjet_sm100_tst_256x128_64x4_2x1_v_bz_coopA_TNT",
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>>(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
    "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8::Params)",
    "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t>>(flash::Flash_fwd_params)",
]
nccl = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
with gzip.open(out, "wt", compresslevel=1) as f:
    f.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA B200", '
            '"totalGlobalMem": 191503138816, "computeMajor": 10, "computeMinor": 0, "numSms": 148}],\n'
            '"distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2, "nccl_version": "2.26.2"},\n'
            '"baseTimeNanoseconds": 1759300000000000000,\n"traceEvents": [\n')
    t = 1000000  # ns, relative
    corr = 1
    first = True
    for s in range(steps):
        step_start = t
        cpu = t
        gpu = t + 50000
        evs = []
        for k in range(per_step):
            comm = k % 50 == 49
            name = nccl if comm else names[k % len(names)]
            dur = 80000 if comm else 20000 + (k % 7) * 3000
            ts_l = cpu
            evs.append('{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,'
                       f'"ts":{ts_l // 1000}.{ts_l % 1000:03d},"dur":4.000,'
                       f'"args":{{"External id":{corr},"cbid":211,"correlation":{corr}}}}}')
            evs.append(f'{{"ph":"s","id":{corr},"pid":1,"tid":1,"ts":{ts_l // 1000}.{ts_l % 1000:03d},'
                       '"cat":"ac2g","name":"ac2g"}')
            stream = 20 if comm else 7
            gpu = max(gpu, cpu + 10000)
            evs.append('{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":%d,"ts":%d.%03d,"dur":%d.%03d,'
                       '"args":{"External id":%d,"device":0,"stream":%d,"correlation":%d,'
                       '"grid":[132,1,1],"block":[256,1,1]}}'
                       % (name.replace('"', '\\"'), stream, gpu // 1000, gpu % 1000, dur // 1000,
                          dur % 1000, corr, stream, corr))
            if k % 16 == 0:
                evs.append('{"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,'
                           f'"ts":{cpu // 1000}.{cpu % 1000:03d},"args":{{"Device Type":1,"Device Id":0,'
                           f'"Bytes":1048576,"Total Allocated":{(40 << 30) + k * 4096},'
                           f'"Total Reserved":{48 << 30}}}}}')
            if not comm:
                gpu += dur
            cpu += 5000
            corr += 1
        t = max(cpu, gpu) + 20000
        evs.append('{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,'
                   '"ts":%d.%03d,"dur":%d.%03d,"args":{}}'
                   % (s, step_start // 1000, step_start % 1000, (cpu - step_start) // 1000,
                      (cpu - step_start) % 1000))
        f.write(("" if first else ",\n") + ",\n".join(evs))
        first = False
    f.write('\n],\n"traceName": "bench"}\n')
