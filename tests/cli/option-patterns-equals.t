# --patterns=FILE is --patterns FILE: the bad file is read and named
args: analyze --patterns=tests/data/cli/bad.pat tests/data/cli
status: 2
--- stdout
--- stderr
tests/data/cli/bad.pat:2: bad pattern: missing closing parenthesis at offset 16
