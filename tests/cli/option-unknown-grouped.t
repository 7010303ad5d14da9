# in a group of short options the unknown one is named alone
args: report -qz tests/data/cli
status: 2
--- stdout
--- stderr
scaleaudit report: unknown option '-z'
Try 'scaleaudit help report'.
