# --color=never: no escape codes in the diagnostics
args: analyze --color=never tests/data/cli/trial.ini
status: 1
--- stdout
--- stderr
tests/data/cli/trial.ini: not a directory: a trial is a directory of runs
