# an option that takes a value, last on the line
args: report tests/data/cli -o
status: 2
--- stdout
--- stderr
scaleaudit report: -o needs a DIR
Try 'scaleaudit help report'.
