# --diff: after the usual text, the ops and the kernel families ranked by the time they add;
# the all-reduce runs on the candidate only (dashes on the 1-GPU side), the values are those
# tests/diff_check.py computes from the traces
args: analyze --diff samples/trials/nccl-over-sockets
status: 0
--- stdout
Trial: Llama-1B fine-tune: second B200 in a locked-down container
Decision: Rent 1 lot of 2x B200: lowest cost per sample, 2.55 GPU-hours per million samples at 218.1 samples/s, running '1gpu' with 1 of the 2 GPUs idle; no target in trial.ini, no window
Hypothesis: step-time
Verdict: REFUTED: a step takes 555.8 ms on 2 GPUs against 73.4 ms on 1 GPU: a speedup of 0.13x, below the expected 1.1x
Criterion: step-time: confirmed when the speedup (1-GPU step time / n-GPU step time, medians) is at least 1.1 (expected_speedup) with no blocking confound

run           GPUs status      precision global batch   step median p10-p90     throughput    steps   strategy
                                              samples                    ms      samples/s   steady           
1gpu             1 completed   bf16                16        73.4 73.2-73.6          218.1     7/10     single
2gpu             2 completed   bf16                16     555.8 552.9-558.0           28.8     8/10        ddp

2gpu against 1gpu: speedup 0.13x, scaling efficiency 7%, throughput ratio 0.13x
Lost against perfect scaling (n x mean step - 1-GPU mean step, slowest GPU, ms): compute +6.7, exposed comm +1029.5, memory +0.0558, idle +1.6 = +1037.8

Where the time went, per steady step (ms; waiting = exposed comm spent waiting for a peer):
run           GPU      step   compute  exposed comm   waiting    memory      idle  overlapped
1gpu            0      73.4      71.7             0         0    0.0768       1.6           0
2gpu            0     555.6      39.2         514.7         0    0.0663       1.6        18.4
2gpu            1     555.6      39.4         514.6         0    0.0663       1.6        18.5

Idle by cause (ms; host: the CPU had not launched the next work yet, sync: launched but held by a stream, event or peer):
  1gpu GPU 0: host 1.6, sync 0, other 0
  2gpu GPU 0: host 1.6, sync 0, other 0
  2gpu GPU 1: host 1.6, sync 0, other 0

Compute from op shapes (FLOPs of the matmul-class ops' recorded shapes):
  1gpu: MFU 15% (329.3 TFLOP/s of 2250.0 bf16 dense); 379.6 TFLOP/s over the kernel time of ops with shapes, 100% of matmul time covered by shapes
  2gpu: MFU 1% (21.7 TFLOP/s of 2250.0 bf16 dense); 359.4 TFLOP/s over the kernel time of ops with shapes, 100% of matmul time covered by shapes

Kernel launches, slowest GPU (delay: kernel start less the end of its launch call):
  1gpu: launch delay p50 27.5 ms, p90 61.0 ms, max 69.3 ms; CPU ops 1.3 ms against their kernels' 71.7 ms per step: gpu-bound; launch calls 0.537 ms per step; 0% of 539 kernels shorter than their launch call
  2gpu: launch delay p50 16.4 ms, p90 122.1 ms, max 555.3 ms; CPU ops 1.5 ms against their kernels' 572.3 ms per step: gpu-bound; launch calls 0.587 ms per step; 0% of 672 kernels shorter than their launch call

Memory per GPU:
run           GPU device                           peak from         used capacity
1gpu            0 NVIDIA B200                  156.8 GB nvidia-smi    82% 180 GB nominal (191.5 GB / 178.4 GiB reported)
2gpu            0 NVIDIA B200                   93.6 GB nvidia-smi    49% 180 GB nominal (191.5 GB / 178.4 GiB reported)
2gpu            1 NVIDIA B200                   93.6 GB nvidia-smi    49% 180 GB nominal (191.5 GB / 178.4 GiB reported)

Communication in 2gpu: NCCL 2.26.2, transport net-socket, link network
  AllReduce     fp32          7 calls    4800.0 MB/step    533.1 ms/step (0.0911 ms waiting)  busbw 9.0 GB/s (9.0 over transfer time)

Readiness (the software against each run's GPU):
  1gpu on B200 (sm_100): unknown: no log of run '1gpu' gives PyTorch's CUDA build or architecture list
  1gpu: no log shows PyTorch, CUDA, driver or NCCL versions
  1gpu: not tuned for this GPU: 0.2% of GPU kernel time ran in kernels built for another generation: void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params) (sm_80, 0.2%)
  2gpu on B200 (sm_100): unknown: no log of run '2gpu' gives PyTorch's CUDA build or architecture list
  2gpu: the logs show NCCL 2.26.2
  2gpu: minimums for sm_100: NCCL 2.26.2 meets 2.25.1
  2gpu: not tuned for this GPU: under 0.1% of GPU kernel time ran in kernels built for another generation: void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params) (sm_80, under 0.1%)

Confounds: none
Recommendations:
  - NCCL moved the data over sockets instead of GPU peer-to-peer: the log sets NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1: unset them, then check the GPUs' topology (nvidia-smi topo -m); exposed transfer (not waiting for a peer) costs 514.7 ms per step
  - run 2 independent 1-GPU jobs instead of one 2-GPU job: together they process 436.2 samples/s (2 x 218.1) against 28.8, a scaling efficiency of 7% by samples per second, so 2 configurations finish in 7% of the time the 2-GPU job needs for them one after another
  - the job does not fit one H200 of 141 GB nominal (150.8 GB / 140.4 GiB reported) but fits one MI300X of 192 GB nominal (205.8 GB / 191.7 GiB reported): it needs 156.8 GB, the 1-GPU run's peak (no memory_reserve_gb in trial.ini)
  - without a target: on 1 GPU 1.27 GPU-hours used per million samples; on 2 GPUs 19.30 GPU-hours used per million samples (set target_samples or target_tokens in trial.ini for the days and the rental window)
Other rentals:
  - 2x B200 (2gpu) on 1 lot of 2x B200: 19.30 GPU-hours rented per million samples against 2.55
Findings about the inputs: 0 errors, 0 warnings, 4 notes
  samples/trials/nccl-over-sockets/2gpu/train.log:7: note: "NCCL_P2P_DISABLE=1" set by the environment turns off peer-to-peer access between GPUs
  samples/trials/nccl-over-sockets/2gpu/train.log:8: note: "NCCL_SHM_DISABLE=1" set by the environment turns off the shared host memory transport
  note: run '1gpu' on B200 (sm_100): 0.2% of its GPU kernel time ran in 1 kernel built for another GPU generation, not tuned for this GPU: void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params) (sm_80, 0.2%)
  note: run '2gpu' on B200 (sm_100): under 0.1% of its GPU kernel time ran in 1 kernel built for another GPU generation, not tuned for this GPU: void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params) (sm_80, under 0.1%)

Per-op diff, 1gpu against 2gpu: GPU time per steady step, counted per 1 GPU of 1gpu as the loss is, ranked by the time added:

Ops (the CPU op that launched the GPU work):
                                                                           1gpu                                  2gpu
  op                                         calls       time       mean  share    calls       time       mean  share      added
  record_param_comms                             -          -          -      -       14  1066.2 ms    76.2 ms  93.1% +1066.2 ms
  aten::_fused_adamw_                            3     3.0 ms     1.0 ms   4.2%        6     6.0 ms     1.0 ms   0.5%    +3.0 ms
  aten::mm                                      27    34.5 ms     1.3 ms  48.1%       54    36.5 ms   0.675 ms   3.2%    +2.0 ms
  aten::linear                                  13    17.2 ms     1.3 ms  24.0%       26    18.1 ms   0.697 ms   1.6%  +0.921 ms
  aten::_scaled_dot_..._attention_backward       3     8.5 ms     2.8 ms  11.9%        6     9.0 ms     1.5 ms   0.8%  +0.477 ms
  aten::_scaled_dot_...uct_flash_attention       3     3.4 ms     1.1 ms   4.8%        6     3.6 ms   0.602 ms   0.3%  +0.203 ms
  aten::zero_                                    1  0.0518 ms  0.0518 ms   0.1%        2   0.104 ms  0.0518 ms under 0.1% +0.0518 ms
  aten::native_layer_norm_backward               6   0.911 ms   0.152 ms   1.3%       12   0.962 ms  0.0802 ms   0.1% +0.0515 ms
  aten::gelu_backward                            3   0.857 ms   0.286 ms   1.2%        6   0.904 ms   0.151 ms   0.1% +0.0464 ms
  aten::gelu                                     3   0.683 ms   0.228 ms   1.0%        6   0.723 ms   0.120 ms   0.1% +0.0401 ms
  (8 more ops, each adding less, left out)

Kernels (by family, so one kernel in two precisions is one row):
                                                                           1gpu                                  2gpu
  kernel                                     calls       time       mean  share    calls       time       mean  share      added
  ncclDevKernel_AllReduce_Sum_f32_RING_LL        -          -          -      -       14  1066.2 ms    76.2 ms  93.1% +1066.2 ms
  multi_tensor_apply FusedAdamMathFunctor        3     3.0 ms     1.0 ms   4.2%        6     6.0 ms     1.0 ms   0.5%    +3.0 ms
  gemm                                          40    51.7 ms     1.3 ms  72.1%       80    54.6 ms   0.682 ms   4.8%    +2.9 ms
  attention                                      6    11.9 ms     2.0 ms  16.7%       12    12.6 ms     1.1 ms   1.1%  +0.680 ms
  Memset                                         1  0.0518 ms  0.0518 ms   0.1%        2   0.104 ms  0.0518 ms under 0.1% +0.0518 ms
  layer_norm_grad_input_kernel_vectorized        6   0.911 ms   0.152 ms   1.3%       12   0.962 ms  0.0802 ms   0.1% +0.0515 ms
  elementwise GeluBackwardCUDAKernelImpl         3   0.857 ms   0.286 ms   1.2%        6   0.904 ms   0.151 ms   0.1% +0.0464 ms
  elementwise GeluCUDAKernelImpl                 3   0.683 ms   0.228 ms   1.0%        6   0.723 ms   0.120 ms   0.1% +0.0401 ms
  elementwise CUDAFunctor_add                    6   0.570 ms  0.0950 ms   0.8%       12   0.602 ms  0.0501 ms   0.1% +0.0313 ms
  embedding_backward_feature_kernel              1   0.568 ms   0.568 ms   0.8%        2   0.598 ms   0.299 ms   0.1% +0.0292 ms
  (6 more kernels, each adding less, left out)

All GPU work: 71.7 ms against 1144.9 ms, +1073.1 ms; it is summed per kernel, so overlap counts twice and idle time is in no row.
--- stderr
