# help --options lists each option of a command and the table that holds it
args: help --options report
status: 0
--- stdout
report	-o
report	-j	--jobs
common	-q	--quiet
common	-v	--verbose
common	--color
common	--patterns
common	--max-events
common	--max-memory
common	-h	--help
--- stderr
