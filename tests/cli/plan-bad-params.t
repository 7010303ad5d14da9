# a parameter count that is not one is a usage error naming the option
args: plan --params 7x --gpu H200
status: 2
--- stdout
--- stderr
scaleaudit plan: --params: '7x' is not a count (7e9, 7B, 1.5B)
Try 'scaleaudit help plan'.
