# help --roff exits plan: the exit statuses of plan as man page lines
args: help --roff exits plan
status: 0
--- stdout
.TP
.B 0
The plan was computed (and written).
.TP
.B 1
PLAN.ini could not be read or holds a bad line, or the files could not be written.
.TP
.B 2
Usage error: a bad option, value or operand.
--- stderr
