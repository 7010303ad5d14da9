# a JSON file that scaleaudit did not write is not taken for an analysis
args: analyze tests/data/cli/other.json
status: 1
--- stdout
--- stderr
tests/data/cli/other.json: byte 0: not a scaleaudit analysis: no 'tool.name'
