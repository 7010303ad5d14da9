# --init writes only the skeleton: a model input with it is a usage error
args: plan --init dir --params 7B
status: 2
--- stdout
--- stderr
scaleaudit plan: --init DIR writes the skeleton only: no inputs, no -o
Try 'scaleaudit help plan'.
