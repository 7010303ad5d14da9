# --patterns needs its FILE
args: analyze tests/data/cli --patterns
status: 2
--- stdout
--- stderr
scaleaudit analyze: --patterns needs a FILE
Try 'scaleaudit help analyze'.
