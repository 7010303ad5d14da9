# a command whose machinery is not built yet says so and exits 2
args: replay build
status: 2
--- stdout
--- stderr
scaleaudit replay: not built yet
