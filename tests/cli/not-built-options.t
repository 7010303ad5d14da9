# a command not built yet parses no option: it says it is not built
args: plan --init x
status: 2
--- stdout
--- stderr
scaleaudit plan: not built yet
