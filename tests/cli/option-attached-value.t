# -oDIR is -o DIR: the option is taken and the missing trial is what fails
args: report -otests/data/cli/out tests/data/cli/nothere
status: 1
--- stdout
--- stderr
tests/data/cli/nothere: not a directory: a trial is a directory of runs
