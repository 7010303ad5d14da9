# binary noise and unrelated text are listed as skipped with the reason
args: inspect tests/data/cli/unknown
status: 1
--- stdout
tests/data/cli/unknown/noise.bin: unknown (not a format scaleaudit reads)
  skipped: binary data of no known format
tests/data/cli/unknown/notes.txt: unknown (not a format scaleaudit reads)
  skipped: text of no known format
--- stderr
scaleaudit: no file holds a format scaleaudit reads
