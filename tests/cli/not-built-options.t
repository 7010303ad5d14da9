# a command not built yet parses no option: it says it is not built
args: batch -j 2 x
status: 2
--- stdout
--- stderr
scaleaudit batch: not built yet
