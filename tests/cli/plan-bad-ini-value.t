# a bad value in PLAN.ini: file and line, status 1
args: plan tests/data/plan/bad-value.ini
status: 1
--- stdout
--- stderr
tests/data/plan/bad-value.ini:4: grad_accum: '-2' is not a whole number from 1 to 1000000000
