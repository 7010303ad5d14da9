# options may follow the operands
args: inspect tests/data/cli/trial.ini --json -q
status: 0
--- stdout
{
  "files": [
    {
      "path": "tests/data/cli/trial.ini",
      "format": "trial-ini",
      "compressed": false,
      "size_bytes": 49,
      "manifest": {
        "title": "two cards",
        "hypothesis": "step-time"
      },
      "skipped": null,
      "warnings": []
    }
  ]
}
--- stderr
