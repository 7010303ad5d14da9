# a directory of trials (one with trial.ini, one whose runs carry run.ini) is refused, each named
args: analyze tests/data/cli/several-trials
status: 2
--- stdout
--- stderr
tests/data/cli/several-trials: holds 2 trials, not the runs of one: a, b: analyse one of them, or every one with 'scaleaudit batch tests/data/cli/several-trials'
