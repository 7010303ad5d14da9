# a capture without any ProfilerStep, alone in its trial, is analysed: the partition of its
# whole profiled span (7.5 ms: 5.4 compute, 1.0 memcpy/memset only, 1.1 idle, as written by
# tests/data/kineto/make-traces.py; the idle is sync: every launch came before its gap), its GPU,
# and the no-step-windows warning; no step time
args: analyze tests/data/cli/b200-no-steps
status: 0
--- stdout
Trial: (untitled: no title in trial.ini)
Hypothesis: none written in trial.ini
Verdict: none: the trial needs two runs with different GPU counts to compare

run           GPUs status      precision global batch   step median p10-p90     throughput    steps   strategy
                                              samples                    ms      samples/s   steady           
b200             1 incomplete  bf16                 -                     -              -        -     single

No closed step window: the whole profiled span (ms):
run           GPU      span   compute  exposed comm   waiting    memory      idle  overlapped
b200            0       7.5       5.4             0         0       1.0       1.1           0

Idle by cause (ms; host: the CPU had not launched the next work yet, sync: launched but held by a stream, event or peer):
  b200 GPU 0: host 0, sync 1.1, other 0

Compute from op shapes (FLOPs of the matmul-class ops' recorded shapes):
  b200: MFU unknown: op shapes not recorded (profile with record_shapes=True), 0% of matmul time covered by shapes

Kernel launches, slowest GPU (delay: kernel start less the end of its launch call):
  b200: launch delay p50 4.2 ms, p90 5.2 ms, max 5.5 ms; CPU ops 0.0600 ms against their kernels' 5.4 ms over the span: gpu-bound; launch calls 0.0300 ms over the span; 0% of 3 kernels shorter than their launch call

Memory per GPU:
run           GPU device                           peak from         used capacity
b200            0 NVIDIA B200                         - -               - 180 GB nominal (191.5 GB / 178.4 GiB reported)


Confounds: none
Recommendations: none
Findings about the inputs: 0 errors, 1 warnings, 0 notes
  warning: run 'b200': the trace has no ProfilerStep#N, so the run has no step time; the whole profiled span is partitioned instead. Profile with torch.profiler.schedule(wait=1, warmup=1, active=7) and call prof.step() every iteration
--- stderr
