# a command whose machinery is not built yet says so and exits 2
args: stack build
status: 2
--- stdout
--- stderr
scaleaudit stack: not built yet
