# a ROCm capture whose kernels run on device 9 while deviceProperties lists only id 0, the
# MI300X, and whose [memory] samples (Device Type 6, HIP) name id 0: the GPU is named, with
# its 152.2 GB reserved peak against its capacity, and a note says how the device was read
args: analyze tests/data/kineto/mi300x-remap
status: 0
--- stdout
Trial: (untitled: no title in trial.ini)
Hypothesis: none written in trial.ini
Verdict: none: the trial needs two runs with different GPU counts to compare

run           GPUs status      precision global batch   step median p10-p90     throughput    steps   strategy
                                              samples                    ms      samples/s   steady           
mi300x-remap     1 completed   bf16                 -        10.0 10.0-10.0              -      3/4     single

Where the time went, per steady step (ms; waiting = exposed comm spent waiting for a peer):
run           GPU      step   compute  exposed comm   waiting    memory      idle  overlapped
mi300x-remap    0      10.0       7.5             0         0         0       2.5           0

Idle by cause (ms; host: the CPU had not launched the next work yet, sync: launched but held by a stream, event or peer):
  mi300x-remap GPU 0: host 2.5, sync 0, other 0

Compute from op shapes (FLOPs of the matmul-class ops' recorded shapes):
  mi300x-remap: MFU unknown: op shapes not recorded (profile with record_shapes=True), 0% of matmul time covered by shapes

Kernel launches, slowest GPU (delay: kernel start less the end of its launch call):
  mi300x-remap: launch delay p50 3.4 ms, p90 6.3 ms, max 6.3 ms; CPU ops 0.0400 ms against their kernels' 7.5 ms per step: gpu-bound; launch calls 0.0200 ms per step; 0% of 6 kernels shorter than their launch call

Memory per GPU:
run           GPU device                           peak from         used capacity
mi300x-remap    0 AMD Instinct MI300X          152.2 GB reserved      74% 192 GB nominal (205.8 GB / 191.7 GiB reported)


Confounds: none
Recommendations: none
Findings about the inputs: 0 errors, 1 warnings, 1 notes
  tests/data/kineto/mi300x-remap/mi300x.pt.trace.json: note: the GPU work ran on device 9, which deviceProperties does not list: read as device 0 "AMD Instinct MI300X", the only device the trace lists
  warning: run 'mi300x-remap': the global batch is in no log or manifest, so throughput and examples processed are unknown: add global_batch to its run.ini
--- stderr
