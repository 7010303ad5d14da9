# a step-time trial of a job one H200 cannot hold: the plan says the baseline would fail, and no run tests step-time
args: plan --params 7B --gpu H200 --micro-batch 1 --seq-len 4096 --hidden 4096 --layers 32 --heads 32 --hypothesis step-time --strategy tensor
status: 0
--- stdout
plan: 7B parameters, bf16 mixed precision (fp32 master weights), adam (K =
    12), 2 GPUs
activations: micro batch 1, seq len 4096, hidden 4096, 32 layers, 32 heads,
    checkpointing none, grad accum 1
reserve per GPU: CUDA context 1.00 GB + NCCL 0.50 GB (multi-GPU) + 5% of
    the allocated bytes (fragmentation)

memory per GPU  gpus weights   grads   optim   activ reserve   total  fits: H200
                          GB      GB      GB      GB      GB      GB
tensor             2     7.0     7.0    42.0    54.8     7.0   117.8  yes
capacity (a fit is judged against the reported memory where known): H200
    141 GB nominal (150.8 GB / 140.4 GiB reported)

comm per step   sent/GPU  payload      H200  a run tests (H200)
                      GB       GB         s
tensor               4.29     4.29     0.010  -

chosen: tensor on 2 x H200: the strategy asked for, and it fits
hypothesis step-time: one GPU cannot hold the job, so the 1-GPU baseline
    would fail: the trial can show feasibility, not a speedup

rental (estimated throughput: 40% MFU of the bf16 peak, 6Ψ FLOPs per
    token):
  tensor on 2 x H200: 18848 tokens/s, 4.6 samples/s; no target given
      (--target-tokens, or --target-samples and --seq-len)
--- stderr
