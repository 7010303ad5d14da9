# a directory given as PLAN.ini: status 1 with the reason
args: plan tests/data/plan
status: 1
--- stdout
--- stderr
scaleaudit: tests/data/plan: a directory, not a PLAN.ini
