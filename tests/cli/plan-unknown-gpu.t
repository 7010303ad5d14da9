# a GPU model the table does not know
args: plan --params 7B --gpu H900
status: 2
--- stdout
--- stderr
scaleaudit plan: --gpu: 'H900' is not a GPU model scaleaudit knows
Try 'scaleaudit help plan'.
