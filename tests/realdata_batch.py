#!/usr/bin/env python3
"""Batch facts of a training log, read from the log alone.

An independent check of what scaleaudit's training-log reader should give
(docs/formats.md, "Training logs"): it reads no output of scaleaudit. Usage:

    realdata_batch.py LOG

prints one JSON object: for each fact the log states, its value and the
1-based line where it is first stated:
  global_batch  "Effective Batch Size: N", the HF Trainer's "Total train batch
                size (...) = N", DeepSpeed's "train_batch_size ... N"
  micro_batch   "Batch Size per Device: N", "Instantaneous batch size per
                device = N", DeepSpeed's "train_micro_batch_size_per_gpu ... N"
  grad_accum    "Gradient Accumulation Steps: N", "Gradient Accumulation
                steps = N", DeepSpeed's "gradient_accumulation_steps .. N"
  gpus          "World Size: N", DeepSpeed's "world_size ... N"
  precision     "bf16" where DeepSpeed's dump first says bfloat16_enabled True,
                "fp16" for fp16_enabled True
The patterns are written here on purpose, not taken from scaleaudit.
"""
import json
import re
import sys

PATTERNS = {
    "global_batch": [r"Effective Batch Size:\s*(\d+)",
                     r"Total train batch size \([^)]*\) = (\d+)",
                     r"\btrain_batch_size \.+ (\d+)"],
    "micro_batch": [r"Batch Size per Device:\s*(\d+)",
                    r"Instantaneous batch size per device = (\d+)",
                    r"\btrain_micro_batch_size_per_gpu\s+\.*\s*(\d+)"],
    "grad_accum": [r"Gradient Accumulation [Ss]teps[:=]?\s*=?\s*(\d+)",
                   r"\bgradient_accumulation_steps \.+ (\d+)"],
    "gpus": [r"World Size:\s*(\d+)", r"\bworld_size \.+ (\d+)"],
}
PRECISION = [(r"\bbfloat16_enabled \.+ True\b", "bf16"), (r"\bfp16_enabled \.+ True\b", "fp16")]


def main():
    facts = {}
    with open(sys.argv[1], encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            for key, patterns in PATTERNS.items():
                for p in patterns:
                    m = re.search(p, line)
                    if m and key not in facts:
                        facts[key] = {"value": int(m.group(1)), "line": lineno}
            for p, name in PRECISION:
                if re.search(p, line) and "precision" not in facts:
                    facts["precision"] = {"value": name, "line": lineno}
    json.dump(facts, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
