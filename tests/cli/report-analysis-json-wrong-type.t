# a value of the wrong type in an analysis.json: the key's path and its offset; nothing is written
args: report tests/data/cli/wrong-type-analysis.json -o /nonexistent/report
status: 1
--- stdout
--- stderr
tests/data/cli/wrong-type-analysis.json: byte 1676: 'runs[0].per_gpu[0].steps[1].window_s' is a string, not a number
