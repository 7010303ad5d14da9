# a value given to an option that takes none
args: analyze --json=yes tests/data/cli
status: 2
--- stdout
--- stderr
scaleaudit analyze: --json takes no value
Try 'scaleaudit help analyze'.
