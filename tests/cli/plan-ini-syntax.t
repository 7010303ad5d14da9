# a line that is not key = value
args: plan tests/data/plan/not-ini.ini
status: 1
--- stdout
--- stderr
tests/data/plan/not-ini.ini:3: not an INI line (expected [section] or key = value)
