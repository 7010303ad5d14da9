#!/usr/bin/env python3
"""Helpers of the scheduler tests (test_sched_parallel.sh, test_sched_slurm.sh).

usage: sched_check.py recipe FILE NAME
         prints the ```sh block of FILE that follows the line <!-- recipe: NAME -->,
         so that a test runs the documentation's recipe itself
       sched_check.py same REF GOT
         compares two batch output folders: every table of results.sqlite, row
         for row and column for column, and summary.csv, line for line; exit 1
         with each difference printed, 0 when they are the same

The columns left out of the comparison are those that legitimately differ
between two batches of the same trials: IGNORED below (the time a trial was
analysed). The paths in the rows (source, trial, messages) are compared: both
batches are given the same PATH.
"""
import csv
import os
import sqlite3
import sys

IGNORED = {"trials": {"analysed_at"}}
CSV_IGNORED = {"analysed_at"}
MAX_SHOWN = 5


def recipe(path, name):
    mark = "<!-- recipe: %s -->" % name
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.strip() != mark:
            continue
        if i + 1 >= len(lines) or lines[i + 1] != "```sh":
            raise SystemExit("%s:%d: %s is not followed by a ```sh block" % (path, i + 1, mark))
        end = lines.index("```", i + 2)
        sys.stdout.write("\n".join(lines[i + 2:end]) + "\n")
        return 0
    raise SystemExit("%s: no line %s" % (path, mark))


def table_rows(db, table):
    """(the compared columns, their rows sorted) of one table."""
    cols = [r[1] for r in db.execute("PRAGMA table_info(%s)" % table)]
    keep = [c for c in cols if c not in IGNORED.get(table, ())]
    rows = db.execute("SELECT %s FROM %s" % (", ".join('"%s"' % c for c in keep), table)).fetchall()
    return keep, sorted(rows, key=repr)


def same_db(ref, got):
    a = sqlite3.connect("file:%s?mode=ro" % ref, uri=True)
    b = sqlite3.connect("file:%s?mode=ro" % got, uri=True)
    tables = lambda db: [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    if tables(a) != tables(b):
        print("results.sqlite: tables %s, expected %s" % (tables(b), tables(a)))
        return 1
    bad = 0
    for t in tables(a):
        ca, ra = table_rows(a, t)
        cb, rb = table_rows(b, t)
        if ca != cb:
            print("results.sqlite: %s: columns %s, expected %s" % (t, cb, ca))
            bad += 1
            continue
        diffs = [("missing", r) for r in ra if r not in rb] + [("unexpected", r) for r in rb if r not in ra]
        for what, row in diffs[:MAX_SHOWN]:
            print("results.sqlite: %s: %s row %s" % (t, what, dict(zip(ca, row))))
        if len(diffs) > MAX_SHOWN:
            print("results.sqlite: %s: %d more rows differ" % (t, len(diffs) - MAX_SHOWN))
        bad += len(diffs)
        if len(ra) != len(rb):
            print("results.sqlite: %s: %d rows, expected %d" % (t, len(rb), len(ra)))
            bad += 1
    return bad


def csv_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    keep = [i for i, c in enumerate(rows[0]) if c not in CSV_IGNORED]
    return [[r[i] for i in keep] for r in rows]


def same_csv(ref, got):
    a, b = csv_rows(ref), csv_rows(got)
    bad = 0
    for n in range(max(len(a), len(b))):
        ra = a[n] if n < len(a) else None
        rb = b[n] if n < len(b) else None
        if ra != rb:
            print("summary.csv: line %d: %s, expected %s" % (n + 1, rb, ra))
            bad += 1
    return bad


def same(ref, got):
    bad = 0
    for name, compare in (("results.sqlite", same_db), ("summary.csv", same_csv)):
        missing = [d for d in (ref, got) if not os.path.isfile(os.path.join(d, name))]
        if missing:
            print("%s: not written" % ", ".join(os.path.join(d, name) for d in missing))
            bad += 1
            continue
        bad += compare(os.path.join(ref, name), os.path.join(got, name))
    return 1 if bad else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "recipe":
        return recipe(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "same":
        return same(argv[2], argv[3])
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
