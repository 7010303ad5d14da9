args: inspect --frobnicate x
status: 2
--- stdout
--- stderr
scaleaudit inspect: unknown option '--frobnicate'
Try 'scaleaudit help inspect'.
