#!/usr/bin/env python3
"""A Hugging Face Trainer log's whole-job summary, read from the log alone.

An independent check of how scaleaudit takes a step time from a trainer's
summary (docs/analysis.md, "Runs without traces"): it reads no output of
scaleaudit. Usage:

    realdata_hf_summary.py TRAIN.LOG

prints a JSON object: train_runtime, train_samples_per_second and
train_steps_per_second as the last summary dict printed them; steps_run,
their product rounded to a whole step (a rate of steps over the runtime);
step_s, the runtime over the steps run; and global_batch, the batch the log
states (HF's "Total train batch size", or an "Effective Batch Size" line),
null when it states none.
"""
import ast
import json
import re
import sys


def summary(lines):
    """The last {'train_runtime': ...} dict of the log, as Python literals."""
    found = None
    for line in lines:
        m = re.search(r"\{'train_runtime'.*\}", line)
        if m:
            found = ast.literal_eval(m.group(0))
    if found is None:
        sys.exit("no train_runtime summary in the log")
    return found


def global_batch(lines):
    for line in lines:
        m = re.search(r"(?:Total train batch size[^=]*=|Effective Batch Size:)\s*([\d,]+)", line)
        if m:
            return int(m.group(1).replace(",", ""))
    return None


def main():
    lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
    s = summary(lines)
    steps = round(s["train_runtime"] * s["train_steps_per_second"])
    print(json.dumps({
        "train_runtime": s["train_runtime"],
        "train_samples_per_second": s["train_samples_per_second"],
        "train_steps_per_second": s["train_steps_per_second"],
        "steps_run": steps,
        "step_s": s["train_runtime"] / steps,
        "global_batch": global_batch(lines),
    }))


main()
