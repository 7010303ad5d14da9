# no run has steps: every file that gave nothing, or less than it holds, is named with why
args: analyze tests/data/cli/nothing-usable
status: 1
--- stdout
--- stderr
tests/data/cli/nothing-usable/r/cut.json.gz: byte 24822: compressed data ends early: the file is cut short
tests/data/cli/nothing-usable/r/cut.json.gz: byte 24822: the trace ends inside its JSON (parse error: premature EOF): the 670 events before are kept
scaleaudit: tests/data/cli/nothing-usable: no run has steps or a status to analyse (see 'scaleaudit inspect tests/data/cli/nothing-usable')
  tests/data/cli/nothing-usable/r/cut.json.gz: read only in part (the errors above say why)
  tests/data/cli/nothing-usable/r/notes.txt: text of no known format
