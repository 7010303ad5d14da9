# a GPU model is needed
args: plan --model llama-3-8b
status: 2
--- stdout
--- stderr
scaleaudit plan: no GPU model: give --gpu MODEL (H200, B200...)
Try 'scaleaudit help plan'.
