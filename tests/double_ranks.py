#!/usr/bin/env python3
"""Doubles a run's ranks: a run of W traced ranks becomes one of 2W.

    double_ranks.py SRC_RUN DST_RUN NAME

Each Kineto trace of SRC_RUN (rank r of W) is written to DST_RUN twice, as
rank r and as rank r + W of a job of 2W ranks (distributedInfo rank,
world_size and the default process group rewritten; a trace without
distributedInfo gets one). The copy's clock runs 1 ms ahead (every "ts" + 1000
us, added to the text's integer part so no digit of the fraction changes):
the tool would leave out a trace identical to another as given twice, and
aligns the ranks' clocks on their collectives. Every event is otherwise kept
as it is, so each new rank does what its original did: the doubled run has
the original's step time and per-GPU partition (to the nanosecond a clock
shift may round), on twice the GPUs. run.ini is rewritten with
name NAME, gpus 2W and half the micro batch (the global batch is kept).
Logs and monitor files are not copied: they name the original GPU count.

The tests build from it a 2-GPU baseline and a 4-GPU candidate whose
attribution, with n = 4 / 2 = 2, must equal that of the 1-against-2 trial
they came from (the generator's truth.json).
"""
import glob
import gzip
import json
import os
import re
import sys

SHIFT_US = 1000
TS = re.compile(r'("ts":\s*)(\d+)')


def text(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return f.read()


def shifted(doc, us):
    return TS.sub(lambda m: m.group(1) + str(int(m.group(2)) + us), doc) if us else doc


def rank_of(trace):
    info = trace.get("distributedInfo") or {}
    return int(info.get("rank", 0)), int(info.get("world_size", 1))


def with_rank(trace, rank, world):
    out = dict(trace)
    info = dict(trace.get("distributedInfo") or {"backend": "nccl", "pg_count": 1})
    info["rank"] = rank
    info["world_size"] = world
    info["pg_config"] = [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl",
                          "pg_size": world, "ranks": list(range(world))}]
    out["distributedInfo"] = info
    return out


def run_ini(src, dst, name, world):
    lines = []
    with open(os.path.join(src, "run.ini")) as f:
        for line in f:
            key = line.split("=", 1)[0].strip()
            value = line.split("=", 1)[1].strip() if "=" in line else ""
            if key == "name":
                line = f"name = {name}\n"
            elif key == "gpus":
                line = f"gpus = {world}\n"
            elif key == "micro_batch":
                line = f"micro_batch = {int(value) // 2}\n"
            elif key == "strategy" and value == "single":
                line = "strategy = ddp\n"
            lines.append(line)
    with open(os.path.join(dst, "run.ini"), "w") as f:
        f.writelines(lines)


def main():
    src, dst, name = sys.argv[1:4]
    traces = sorted(glob.glob(os.path.join(src, "*.pt.trace.json*")))
    if not traces:
        sys.exit(f"{src}: no Kineto trace")
    os.makedirs(dst, exist_ok=True)
    world = 2 * len(traces)
    for path in traces:
        doc = text(path)
        rank, w = rank_of(json.loads(doc))
        if w != len(traces):
            sys.exit(f"{path}: world_size {w}, but {len(traces)} traces")
        for copy, r in enumerate((rank, rank + len(traces))):
            trace = json.loads(shifted(doc, copy * SHIFT_US))
            with gzip.open(os.path.join(dst, f"rank{r}.pt.trace.json.gz"), "wt") as f:
                json.dump(with_rank(trace, r, world), f)
    run_ini(src, dst, name, world)


if __name__ == "__main__":
    main()
