# inspect shows a 199-character manifest line read whole and the 200-character one refused at its line
args: inspect tests/data/cli/long-manifest-line/run.ini
status: 3
--- stdout
tests/data/cli/long-manifest-line/run.ini: run-ini (run manifest)
  manifest: {gpus: 1, dataset: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, precision: bf16}
  tests/data/cli/long-manifest-line/run.ini:4: line longer than 199 characters: not read
--- stderr
