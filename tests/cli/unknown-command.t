args: frobnicate
status: 2
--- stdout
--- stderr
scaleaudit: 'frobnicate' is not a command
Try 'scaleaudit help'.
