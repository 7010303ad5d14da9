# an analysis.json without a run to show is no usable input
args: analyze tests/data/cli/no-runs-analysis.json
status: 1
--- stdout
--- stderr
scaleaudit: tests/data/cli/no-runs-analysis.json: no run in it has steps or a status to analyse
