# a command whose machinery is not built yet says so and exits 2
args: batch build
status: 2
--- stdout
--- stderr
scaleaudit batch: not built yet
