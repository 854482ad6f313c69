#!/usr/bin/python3
"""Runs every `corbin …` command that audit.md's Recheck lines give, and holds each to the values
its parenthesis names.

An auditor copies these commands; one that exits non-zero (a missing positional, a renamed
option) or whose output contradicts the text beside it is a broken piece of evidence. For each
command: the exit status must be 0, and every `key value` pair in the parenthesis right after it
whose key is a line of the command's output (`mse 4`, `sup_gap 1/4`, `mse_optimal = 4`) must
match that line's exact value, and a parenthesis of one word (`unbounded`) must be a key that
reads true or some line's value. Usage: run_recheck_commands.py CORBIN AUDIT_MD
"""

import re
import shlex
import subprocess
import sys


def output_values(text):
    """The `key  value` lines of a command's text output (first word after the key)."""
    values = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            values.setdefault(parts[0], parts[1])
    return values


def main():
    if len(sys.argv) != 3:
        print("usage: run_recheck_commands.py CORBIN AUDIT_MD", file=sys.stderr)
        return 2
    corbin, audit = sys.argv[1], sys.argv[2]
    with open(audit, encoding="utf-8") as f:
        lines = [line for line in f if line.startswith("**Recheck.**")]
    if not lines:
        print(f"{audit}: no Recheck lines", file=sys.stderr)
        return 1
    ran = checked = 0
    failures = []
    for line in lines:
        # `corbin …` followed by an optional parenthesis of what it shows.
        for m in re.finditer(r"`corbin ([^`]*)`(?:\s*\(([^)]*)\))?", line):
            argv = [corbin] + shlex.split(m.group(1))
            done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
            ran += 1
            shown = " ".join(["corbin"] + argv[1:])
            if done.returncode != 0:
                failures.append(f"{shown}: exit {done.returncode}: {done.stderr.strip()}")
                continue
            values = output_values(done.stdout)
            said = (m.group(2) or "").strip()
            if re.fullmatch(r"[a-z_]+", said):  # "(unbounded)": a flag that is true, or a line's value
                checked += 1
                if values.get(said, "true") != "true" or (said not in values and said not in values.values()):
                    failures.append(f"{shown}: no line reads {said}, as the audit says")
            for key, value in re.findall(r"\b([a-z_][a-z0-9_]*)(?: | = )(-?[0-9][0-9/.e+-]*)", m.group(2) or ""):
                if key not in values:
                    continue
                checked += 1
                if values[key] != value.rstrip(".,"):
                    failures.append(f"{shown}: {key} is {values[key]}, the audit says {value}")
    for failure in failures:
        print("FAIL " + failure)
    print(f"{ran} recheck commands run, {checked} stated values compared, {len(failures)} failures")
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
