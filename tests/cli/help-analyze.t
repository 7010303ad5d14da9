# the help of a command, made from its option table: usage, description, options, exit statuses
args: help analyze
status: 0
--- stdout
usage: scaleaudit analyze [OPTIONS] TRIAL

Prints the hypothesis and verdict, speedup and scaling efficiency, where the
time went per GPU, memory per GPU, confounds and recommendations. TRIAL may
also be an analysis.json that report or analyze --json wrote.

options:
  --json             print analysis.json instead of text
  --diff             add the per-op and per-kernel diff of the two runs to the
                     text (analysis.json always has it)
  --kernels          print each run's top kernels (calls, total, per-call mean,
                     min, p50, p90, max) and launch statistics instead of the
                     summary
  -j, --jobs N       trace files read at once, by threads (default: one per
                     CPU; 1: one after the other); the output is the same for
                     any N

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
  0  done (findings are output, not failure)
  1  no run has steps or a status to analyse
  2  usage error: a bad option, value or operand
  3  some files of the trial could not be read; the rest was analysed
--- stderr
