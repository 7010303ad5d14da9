# --color=auto (the default) on a file, not a terminal: no escape codes
args: analyze tests/data/cli/trial.ini --color=auto
status: 1
--- stdout
--- stderr
tests/data/cli/trial.ini: not a directory: a trial is a directory of runs
