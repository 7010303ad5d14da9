args: inspect --json
status: 2
--- stdout
--- stderr
scaleaudit inspect: no PATH given
Try 'scaleaudit help inspect'.
