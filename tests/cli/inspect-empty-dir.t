args: inspect tests/data/cli/emptydir
status: 1
--- stdout
--- stderr
tests/data/cli/emptydir: directory holds no files
scaleaudit: no file holds a format scaleaudit reads
