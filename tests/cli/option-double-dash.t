# after -- every word is an operand, even one that looks like an option
args: inspect -- --json
status: 1
--- stdout
--- stderr
--json: No such file or directory
scaleaudit: no file holds a format scaleaudit reads
