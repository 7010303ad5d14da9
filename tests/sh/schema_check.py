#!/usr/bin/env python3
"""Checks JSON documents against docs/analysis.schema.json.

usage: schema_check.py SCHEMA DOC.json...

A small validator for the subset of JSON Schema the schema uses: type (one
or a list), enum, required, properties, additionalProperties, items,
minimum, maximum and local $ref. Every property the schema names must be
present in the document as `required` says; keys it does not name are
allowed (analysis.json's keys are stable; more may be added). Prints each problem with its path.
"""
import json
import sys

TYPES = {
    "object": dict, "array": list, "string": str, "boolean": bool, "null": type(None),
}


def is_type(v, t):
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def check(root, s, v, path, out):
    if "$ref" in s:
        ref = s["$ref"]
        assert ref.startswith("#/$defs/"), ref
        s = root["$defs"][ref[len("#/$defs/"):]]
    if "enum" in s and v not in s["enum"]:
        out.append(f"{path}: {v!r} is not one of {s['enum']}")
        return
    if "type" in s:
        types = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, t) for t in types):
            out.append(f"{path}: {type(v).__name__} where {types} was expected")
            return
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in s and v < s["minimum"]:
            out.append(f"{path}: {v} < {s['minimum']}")
        if "maximum" in s and v > s["maximum"]:
            out.append(f"{path}: {v} > {s['maximum']}")
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                out.append(f"{path}: missing key {k!r}")
        for k, sub in s.get("properties", {}).items():
            if k in v:
                check(root, sub, v[k], f"{path}.{k}", out)
        extra = s.get("additionalProperties")
        if isinstance(extra, dict):
            for k, x in v.items():
                if k not in s.get("properties", {}):
                    check(root, extra, x, f"{path}.{k}", out)
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            check(root, s["items"], x, f"{path}[{i}]", out)


def main():
    schema = json.load(open(sys.argv[1]))
    bad = 0
    for doc in sys.argv[2:]:
        out = []
        check(schema, schema, json.load(open(doc)), "$", out)
        for line in out[:20]:
            print(f"{doc}: {line}")
        bad += len(out)
    print(f"{len(sys.argv) - 2} documents checked, {bad} problems")
    sys.exit(1 if bad else 0)


main()
