# a truncated analysis.json is one error naming the file and the byte where it ends
args: analyze --json tests/data/cli/truncated-analysis.json
status: 1
--- stdout
--- stderr
tests/data/cli/truncated-analysis.json: byte 1000: truncated: the JSON ends before the document is complete
