# one PLAN.ini at a time
args: plan a.ini b.ini
status: 2
--- stdout
--- stderr
scaleaudit plan: one PLAN.ini at a time
Try 'scaleaudit help plan'.
