# the ZeRO paper's 7.5B model at ZeRO-3 over 64 GPUs: 16 x 7.5e9 / 64 = 1.875 GB of states, 45 GB gathered and reduced per step
args: plan --model zero-7.5b --gpus 64 --gpu H200 --strategy zero3
status: 0
--- stdout
plan: 7.5B parameters (zero-7.5b), bf16 mixed precision (fp32 master
    weights), adam (K = 12), 64 GPUs
activations: unknown (give --micro-batch, --seq-len, --hidden, --layers,
    --heads or --model)
reserve per GPU: CUDA context 1.00 GB + NCCL 0.50 GB (multi-GPU) + 5% of
    the allocated bytes (fragmentation)

memory per GPU  gpus weights   grads   optim   activ reserve   total  fits: H200
                          GB      GB      GB      GB      GB      GB
zero3             64     0.2     0.2     1.4       ?     1.6       ?  unknown
capacity (a fit is judged against the reported memory where known): H200
    141 GB nominal (150.8 GB / 140.4 GiB reported)

comm per step   sent/GPU  payload      H200  a run tests (H200)
                      GB       GB         s
zero3               44.30    45.00     0.098  -

chosen: none on 64 x H200: the strategy asked for is not known to fit: the
    activations are unknown (give micro batch, sequence length, hidden size,
    layers and heads, or a known model)
--- stderr
