# an unknown long option is named without its value
args: inspect --frob=1 x
status: 2
--- stdout
--- stderr
scaleaudit inspect: unknown option '--frob'
Try 'scaleaudit help inspect'.
