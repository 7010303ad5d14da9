# a JSON file that scaleaudit did not write (a trace) is not taken for an analysis.json
args: analyze tests/data/cli/other.json
status: 1
--- stdout
--- stderr
tests/data/cli/other.json: not a directory: a trial is a directory of runs
