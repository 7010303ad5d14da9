# an option given as well wins over PLAN.ini; --strategy shows one row and chooses it (zero1, not ddp)
args: plan tests/data/plan/7b.ini --gpu B200 --layers 16 --strategy zero1
status: 0
--- stdout
plan: 7B parameters, bf16 mixed precision (fp32 master weights), adam (K =
    12), 2 GPUs
activations: micro batch 1, seq len 4096, hidden 4096, 16 layers, 32 heads,
    checkpointing none, grad accum 1
reserve per GPU: CUDA context 1.00 GB + NCCL 0.50 GB (multi-GPU) + 5% of
    the allocated bytes (fragmentation)

memory per GPU  gpus weights   grads   optim   activ reserve   total  fits: B200
                          GB      GB      GB      GB      GB      GB
zero1              2    14.0    14.0    42.0    52.1     7.6   129.7  yes
capacity (a fit is judged against the reported memory where known): B200
    180 GB nominal (191.5 GB / 178.4 GiB reported)

comm per step   sent/GPU  payload      B200  a run tests (B200)
                      GB       GB         s
zero1               14.00    14.00     0.016  global-batch

chosen: zero1 on 2 x B200: the strategy asked for, and it fits; a run of it
    tests global-batch

rental (estimated throughput: 40% MFU of the bf16 peak, 6Ψ FLOPs per
    token):
  single on 1 x B200: 21429 tokens/s, 5.2 samples/s; no target given
      (--target-tokens, or --target-samples and --seq-len)
  zero1 on 2 x B200: 42857 tokens/s, 10.5 samples/s; no target given
      (--target-tokens, or --target-samples and --seq-len)
--- stderr
