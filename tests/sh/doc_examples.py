#!/usr/bin/env python3
"""Runs the examples of the documentation and compares their output.

usage: doc_examples.py SCALEAUDIT FILE...

An example is a fenced block opened by a line ```console: each line that
starts with "$ " is a command, and the lines up to the next command or the
end of the block are what it prints on standard output, exactly (spaces at
the ends of lines aside), and it must exit 0. A last line "..." stands for more output, not
compared. A block runs in a fresh scratch directory where samples/ and
tests/ of the repository can be read (what a command writes stays there),
its commands one after the other; a line <!-- example in: DIR --> right
before the fence runs it in DIR of the repository instead. `scaleaudit` is
the binary given. Prints each difference, then a count; exit 1 when any
example differs, or a file holds none.
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile

TOP = os.getcwd()


def examples(path):
    """[(line number, directory or None, [(command, [expected lines])])] of one file."""
    out, block, prev = [], None, ""
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if block is None:
            if line == "```console":
                m = re.fullmatch(r"<!-- example in: (\S+) -->", prev.strip())
                block = (n, m.group(1) if m else None, [])
            prev = line
            continue
        if line.startswith("```"):
            out.append(block)
            block = None
            prev = line
            continue
        if line.startswith("$ "):
            block[2].append((line[2:], []))
        elif block[2]:
            block[2][-1][1].append(line)
        else:
            raise SystemExit("%s:%d: an example's output before any command" % (path, n))
    if block is not None:
        raise SystemExit("%s:%d: an example without its closing fence" % (path, block[0]))
    return out


def run_block(path, block, bindir):
    line, where, cmds = block
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    bad = 0
    with tempfile.TemporaryDirectory() as scratch:
        for d in ("samples", "tests"):
            os.symlink(os.path.join(TOP, d), os.path.join(scratch, d))
        cwd = os.path.join(TOP, where) if where else scratch
        for cmd, want in cmds:
            done = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
            if done.returncode != 0:
                bad += 1
                print("%s:%d: $ %s: exit status %d:\n%s" % (path, line, cmd, done.returncode,
                                                         done.stderr[-2000:]))
                continue
            got = [g.rstrip() for g in done.stdout.split("\n")]
            if got and got[-1] == "":
                got.pop()
            want = [w.rstrip() for w in want]
            if want and want[-1] == "...":
                want = want[:-1]
                got = got[:len(want)]
            if got != want:
                bad += 1
                print("%s:%d: $ %s: the output differs:" % (path, line, cmd))
                sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                    want, got, "documented", "printed", lineterm=""))
    return bad, len(cmds)


def main():
    binary, files = os.path.abspath(sys.argv[1]), sys.argv[2:]
    bad = blocks = commands = 0
    with tempfile.TemporaryDirectory() as bindir:
        os.symlink(binary, os.path.join(bindir, "scaleaudit"))
        for path in files:
            found = examples(path)
            if not found:
                print("%s: no example" % path)
                bad += 1
            for block in found:
                b, c = run_block(path, block, bindir)
                bad, blocks, commands = bad + b, blocks + 1, commands + c
    print("%d examples, %d commands, %d differ" % (blocks, commands, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
