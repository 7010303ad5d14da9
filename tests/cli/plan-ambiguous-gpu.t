# a family name that stands for several rows lists them
args: plan --params 7B --gpu A100
status: 2
--- stdout
--- stderr
scaleaudit plan: --gpu: 'A100' is one of A100 SXM4 40GB, A100 SXM4 80GB, A100 PCIe 40GB, A100 PCIe 80GB: say which
Try 'scaleaudit help plan'.
