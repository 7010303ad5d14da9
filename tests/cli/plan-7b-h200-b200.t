# a 7B bf16 Adam model, micro batch 1 of 4096 tokens: on two H200s only a split of the layers (pipeline, tensor) fits, on two B200s ZeRO-1 and more too
args: plan --params 7B --gpu H200,B200 --micro-batch 1 --seq-len 4096 --hidden 4096 --layers 32 --heads 32
status: 0
--- stdout
plan: 7B parameters, bf16 mixed precision (fp32 master weights), adam (K =
    12), 2 GPUs
activations: micro batch 1, seq len 4096, hidden 4096, 32 layers, 32 heads,
    checkpointing none, grad accum 1
reserve per GPU: CUDA context 1.00 GB + NCCL 0.50 GB (multi-GPU) + 5% of
    the allocated bytes (fragmentation)

memory per GPU  gpus weights   grads   optim   activ reserve   total  fits: H200, B200
                          GB      GB      GB      GB      GB      GB
single             1    14.0    14.0    84.0   104.2    11.8   228.0  no, no
ddp                2    14.0    28.0    84.0   104.2    13.0   243.2  no, no
zero1              2    14.0    14.0    42.0   104.2    10.2   184.4  no, yes
zero2              2    14.0     7.0    42.0   104.2     9.9   177.0  no, yes
zero3              2     7.0     7.0    42.0   104.2     9.5   169.7  no, yes
fsdp               2     7.0     7.0    42.0   104.2     9.5   169.7  no, yes
pipeline           2     7.0     7.0    42.0    52.1     6.9   115.0  yes, yes
tensor             2     7.0     7.0    42.0    54.8     7.0   117.8  yes, yes
capacity (a fit is judged against the reported memory where known): H200
    141 GB nominal (150.8 GB / 140.4 GiB reported), B200 180 GB nominal (191.5
    GB / 178.4 GiB reported)
ddp's grads: 14.0 GB of gradients + 14.0 GB of gradient buckets, a second
    copy (--bucket-view when the job sets gradient_as_bucket_view=True)

comm per step   sent/GPU  payload      H200      B200  a run tests (H200)
                      GB       GB         s         s
single               0.00     0.00     0.000     0.000  -
ddp                 14.00    14.00     0.031     0.016  -
zero1               14.00    14.00     0.031     0.016  -
zero2               14.00    28.00     0.031     0.016  -
zero3               21.00    42.00     0.047     0.023  -
fsdp                21.00    42.00     0.047     0.023  -
pipeline             0.03     0.07     0.000     0.000  feasibility
tensor               4.29     4.29     0.010     0.005  feasibility

recommended: tensor on 2 x H200: only splitting every layer fits; the GPUs'
    NVLink carries tensor parallelism's all-reduces in every layer; a run of it
    tests feasibility

rental (estimated throughput: 40% MFU of the bf16 peak, 6Ψ FLOPs per
    token):
  tensor on 2 x H200: 18848 tokens/s, 4.6 samples/s; no target given
      (--target-tokens, or --target-samples and --seq-len)
--- stderr
