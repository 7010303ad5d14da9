# COMMAND --help, even after an operand, is help COMMAND
args: inspect x --help
status: 0
--- stdout
usage: scaleaudit inspect [OPTIONS] PATH...

For each file (directories are walked) says which format it holds, decided by
its content, and what was read from it; files that are not read are listed with
the reason. PATH may be - for standard input.

options:
  --json             print {"files": [...]} instead of text

options every command takes:
  -q, --quiet        say less: errors only, no warnings or progress
  -v, --verbose      say more: notes as well, and every warning about the
                     trial's files
  --color[=WHEN]     colour the verdict and the words error, warning and note;
                     auto colours only a terminal, and not when NO_COLOR is
                     set; WHEN is auto, always or never (alone: always)
  --patterns FILE    your own training-log line formats: PCRE2 patterns, one
                     per line, with named groups step, step_time, loss,
                     samples_per_s, tokens_per_s, memory_gib, global_batch,
                     micro_batch, grad_accum, precision
  --max-events N     keep at most N events from one file (default 10000000,
                     about 1 GB) and 4 times N from a whole trial; a file past
                     it is read only in part, with an error naming it
  --max-memory SIZE  keep at most SIZE of data read from the files (8G, 500M;
                     default half of this machine's memory or of the
                     container's limit when lower, at most 8G); past it the
                     rest is not kept, with an error naming the file
  -h, --help         show this help

exit status:
  0  every file was read or recognised
  1  no file holds a format scaleaudit reads
  2  usage error: a bad option, value or operand
  3  some paths could not be read, or a file only in part; the rest was
--- stderr
