# a command whose machinery is not built yet says so and exits 2
args: report samples/trials/ddp-scales-well
status: 2
--- stdout
--- stderr
scaleaudit report: not built yet
