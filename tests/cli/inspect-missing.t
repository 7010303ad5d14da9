# a path that does not exist: one line, exit 1 (nothing usable)
args: inspect tests/data/cli/nothere
status: 1
--- stdout
--- stderr
tests/data/cli/nothere: No such file or directory
scaleaudit: no file holds a format scaleaudit reads
