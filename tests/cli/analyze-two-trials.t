# one trial at a time
args: analyze tests/data/cli tests/data/cli
status: 2
--- stdout
--- stderr
scaleaudit analyze: one TRIAL at a time (use 'scaleaudit batch' for more)
Try 'scaleaudit help analyze'.
