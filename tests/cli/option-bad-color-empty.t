# an empty --color= is a bad value, not the bare option
args: inspect --color= x
status: 2
--- stdout
--- stderr
scaleaudit inspect: --color: '' is not auto, always or never
Try 'scaleaudit help inspect'.
