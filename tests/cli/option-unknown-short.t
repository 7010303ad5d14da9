# an unknown short option, even after the operand
args: analyze tests/data/cli -x
status: 2
--- stdout
--- stderr
scaleaudit analyze: unknown option '-x'
Try 'scaleaudit help analyze'.
