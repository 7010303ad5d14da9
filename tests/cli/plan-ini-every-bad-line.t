# each bad line of a PLAN.ini gets its own file:line: message, then status 1
args: plan tests/data/plan/two-bad-lines.ini
status: 1
--- stdout
--- stderr
tests/data/plan/two-bad-lines.ini:3: gpu: 'H900' is not a GPU model scaleaudit knows
tests/data/plan/two-bad-lines.ini:4: micro_batch: '0' is not a whole number from 1 to 1000000000
tests/data/plan/two-bad-lines.ini:6: [trial] x: plan keys go in a [plan] section
