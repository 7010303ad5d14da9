#!/usr/bin/env python3
"""The kernel and memory rows of Nsight Systems summary tables, read alone.

For each file given, prints one JSON line {"file", "kernel_rows",
"memory_rows"}: every row of a cuda_gpu_kern_sum, cuda_gpu_mem_time_sum or
cuda_gpu_mem_size_sum table (console tables under their rule of dashes, or
CSV under its header), in file order, with the keys `scaleaudit inspect
--json` gives them (times in ns, sizes in bytes, null where the table has no
such column). Written without scaleaudit's code, for
tests/sh/test_nsys_rows.sh.
"""
import csv
import json
import re
import sys

UNITS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "%": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9,
         "KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3}
STAT = {"Time": "time_pct", "Total Time": "total", "Total": "total_size", "Instances": "count",
        "Count": "count", "Operations": "count", "Avg": "avg", "Average": "avg", "Med": "med",
        "Median": "med", "Min": "min", "Minimum": "min", "Max": "max", "Maximum": "max",
        "StdDev": "stddev", "Std Dev": "stddev", "Name": "name", "Operation": "name"}
REPORTS = {"cuda_gpu_kern_sum": "kern", "gpukernsum": "kern", "cuda_gpu_mem_time_sum": "time",
           "gpumemtimesum": "time", "cuda_gpu_mem_size_sum": "size", "gpumemsizesum": "size"}
OTHER = ("nvtx", "api", "osrt", "Style", "Range")


def label(cell):
    m = re.match(r"\s*(.*?)\s*(?:\((.*)\))?\s*$", cell)
    return STAT.get(m.group(1)), UNITS.get(m.group(2), 1) if m.group(2) else 1, m.group(1)


def kind_of(report, labels):
    if report:
        return REPORTS.get(report)
    if any(raw in ("Style", "Range") for raw in labels):
        return None
    if "Total" in labels:
        return "size"
    if "Operation" in labels:
        return "time"
    return "kern" if "Instances" in labels else None


def row(kind, cols, cells):
    """One listed row from the header's columns [(key, scale, raw)] and the row's cells."""
    out = {"report": {"time": "cuda_gpu_mem_time_sum", "size": "cuda_gpu_mem_size_sum"}.get(kind),
           "name": None}
    unit = "bytes" if kind == "size" else "ns"
    vals = {}
    for (key, scale, _), cell in zip(cols, cells):
        if key == "name":
            out["name"] = cell.strip()
        elif key:
            vals[key] = float(cell.replace(",", "")) * scale
    keys = [("time_pct", "time_pct"), ("total", "total_ns"), ("total_size", "total_bytes"),
            ("count", "instances" if kind == "kern" else "count")]
    keys += [(k, f"{k}_{unit}") for k in ("avg", "med", "min", "max", "stddev")]
    for k, name in keys:
        if (k == "total" and kind == "size") or (k == "total_size" and kind != "size"):
            continue
        v = vals.get(k)
        out[name] = int(round(v)) if k == "count" and v is not None else v
    if kind == "kern":
        del out["report"]
    return out


def title(line):
    m = (re.search(r"Executing '(\w+)' stats report", line) or re.search(r"\((\w+)\):\s*$", line)
         or re.search(r"(?:Running|Processing) \[.*?([a-z_]+)\.py", line))
    return m.group(1) if m else None


def one(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    rows = {"kern": [], "mem": []}
    report, i = None, 0
    while i < len(lines):
        line = lines[i]
        t = title(line)
        if t:
            report = t
        rule = re.fullmatch(r"\s*(-+\s+)+-+\s*", line)
        if rule and i > 0:  # a console table: the header is the line above the rule
            starts = [m.start() for m in re.finditer(r"-+", line)]
            head = lines[i - 1]
            cols = [label(head[a:b]) for a, b in zip(starts, starts[1:] + [len(head)])]
            kind = kind_of(report, [c[2] for c in cols])
            report = None
            i += 1
            while i < len(lines) and lines[i].strip():
                parts = lines[i].split(None, len(cols) - 1)
                if kind and len(parts) == len(cols):
                    rows["kern" if kind == "kern" else "mem"].append(row(kind, cols, parts))
                i += 1
            continue
        if "," in line and re.search(r"Total( Time)? \(", line) and not rule:
            cols = [label(c) for c in next(csv.reader([line]))]
            kind = kind_of(report, [c[2] for c in cols]) if cols[-1][0] == "name" else None
            report = None
            i += 1
            while i < len(lines) and lines[i].strip():
                cells = next(csv.reader([lines[i]]))
                if len(cells) != len(cols):
                    break
                if kind:
                    rows["kern" if kind == "kern" else "mem"].append(row(kind, cols, cells))
                i += 1
            continue
        i += 1
    return {"file": path, "kernel_rows": rows["kern"], "memory_rows": rows["mem"]}


for p in sys.argv[1:]:
    print(json.dumps(one(p)))
