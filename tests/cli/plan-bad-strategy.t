# the strategies are listed when one is misspelt
args: plan --params 7B --gpu H200 --strategy zero4
status: 2
--- stdout
--- stderr
scaleaudit plan: --strategy: 'zero4' is not single, ddp, zero1, zero2, zero3, fsdp, pipeline or tensor
Try 'scaleaudit help plan'.
