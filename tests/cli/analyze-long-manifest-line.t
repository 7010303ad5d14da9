# a manifest line longer than the INI reader's 199 characters is one error at its line, never
# split into a second line that reads as an unknown key; a line of 199 is read whole, and the
# lines after it keep their numbers
args: analyze tests/data/cli/long-manifest-line
status: 3
--- stderr
tests/data/cli/long-manifest-line/run.ini:4: line longer than 199 characters: not read
