# a document that opens like an analysis.json but names another tool
args: analyze tests/data/cli/other-tool.json
status: 1
--- stdout
--- stderr
tests/data/cli/other-tool.json: byte 18: not a scaleaudit analysis: 'tool.name' is 'nsys'
