# a parameter count or a known model is needed
args: plan --gpu H200
status: 2
--- stdout
--- stderr
scaleaudit plan: no parameter count: give --params N or --model NAME
Try 'scaleaudit help plan'.
