#!/usr/bin/env python3
"""Checks the key tables of docs/json.md against real output.

usage: json_doc_check.py JSON.md NAME=FILE...

Each table of JSON.md that follows a line `<!-- keys: NAME -->` (a JSON
document) or `<!-- columns: NAME [TABLE] -->` (a CSV header line, or a table
of an SQLite database) names keys in backquotes in its first column: `a`,
`a.b`, `a[].b` (b in the objects of the list a). Every name must exist in
FILE, the sample given for NAME; the top-level names (the columns) must be
exactly those FILE has, and each table of a database needs its own. Prints one line per problem, then a count; exit 1
when there is a problem, or a table without a sample, or a sample without a
table.
"""
import csv
import json
import re
import sqlite3
import sys


def tables(md):
    """{(kind, name): [names in the first column]} in the order of the document."""
    out, current = {}, None
    for line in open(md, encoding="utf-8"):
        m = re.match(r"<!-- (keys|columns): (.+?) -->$", line.strip())
        if m:
            current = (m.group(1), m.group(2))
            out[current] = []
            continue
        if current is None:
            continue
        if not line.startswith("|"):
            if out[current]:
                current = None
            continue
        first = line.split("|")[1]
        out[current] += re.findall(r"`([^`]+)`", first)
    return out


def has_path(doc, path):
    """True when path (a.b, a[].b) exists in doc: a key of a list's objects in one of them."""
    nodes = [doc]
    for part in path.split("."):
        key = part.removesuffix("[]")
        found = [n[key] for n in nodes if isinstance(n, dict) and key in n]
        if not found:
            return False
        if part.endswith("[]"):
            if not all(isinstance(v, list) for v in found):
                return False
            found = [x for v in found for x in v]
        nodes = found
    return True


def columns(kind, name, sample):
    """The top-level names of sample, and a function telling whether a path exists."""
    parts = name.split()
    if kind == "keys":
        doc = json.load(open(sample, encoding="utf-8"))
        return list(doc), lambda p: has_path(doc, p)
    if len(parts) == 2:
        db = sqlite3.connect("file:%s?mode=ro" % sample, uri=True)
        cols = [r[1] for r in db.execute("PRAGMA table_info(%s)" % parts[1])]
        db.close()
    else:
        with open(sample, newline="", encoding="utf-8") as f:
            cols = next(csv.reader(f))
    return cols, lambda p: p in cols


def main():
    md, samples = sys.argv[1], dict(a.split("=", 1) for a in sys.argv[2:])
    problems = 0

    def problem(msg):
        nonlocal problems
        problems += 1
        print(msg)

    docs = tables(md)
    for (kind, name), names in docs.items():
        base = name.split()[0]
        if base not in samples:
            problem("%s: no sample for the %s of %s" % (md, kind, name))
            continue
        top, exists = columns(kind, name, samples[base])
        if not top:
            problem("%s: %s has no %s" % (samples[base], name, kind))
        for n in names:
            if not exists(n):
                problem("%s: %s names %s, which %s does not have" % (md, name, n, samples[base]))
        named = {n.split(".")[0].removesuffix("[]") for n in names}
        for t in top:
            if t not in named:
                problem("%s: %s does not name %s, which %s has" % (md, name, t, samples[base]))
    used = {k[1].split()[0] for k in docs}
    for s, path in samples.items():
        if not path.endswith(".sqlite"):
            continue
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            if ("columns", "%s %s" % (s, t)) not in docs:
                problem("%s: no table for the table %s of %s" % (md, t, s))
        db.close()
    for s in samples:
        if s not in used:
            problem("%s: no table for %s" % (md, s))
    print("%d tables checked, %d problems" % (len(docs), problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
