# one path missing, one read: exit 3
args: inspect tests/data/cli/nothere tests/data/cli/trial.ini
status: 3
--- stdout
tests/data/cli/trial.ini: trial-ini (trial manifest)
  manifest: {title: two cards, hypothesis: step-time}
--- stderr
tests/data/cli/nothere: No such file or directory
