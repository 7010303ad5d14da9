# - reads standard input
args: inspect --json -
stdin: tests/data/cli/unknown/notes.txt
status: 1
--- stdout
{
  "files": [
    {
      "path": "-",
      "format": "unknown",
      "compressed": false,
      "size_bytes": null,
      "skipped": "text of no known format",
      "warnings": []
    }
  ]
}
--- stderr
scaleaudit: no file holds a format scaleaudit reads
