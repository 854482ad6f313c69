"""Structural fuzzing of the certificate rechecker (ctest, label fuzz): seeded random mutations
of a quick audit's certificates (fields deleted, retyped, set to extreme or malformed values,
files truncated or replaced by random bytes or deeply nested JSON). Whatever the input, the
rechecker must end with status 0, 1 or 2 and never print a traceback or report an internal
error (status 4).

Usage: /usr/bin/python3 tests/fuzz/fuzz_rechecker.py CHECKER AUDIT_DIR SECONDS [SEED]
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

EXTREMES = [None, True, -1, 0, 2 ** 70, -(2 ** 70), 1e308, -1e-308, "nan", "inf", "-1/0", "1/0", "", "x" * 10000,
            "99999999999999999999999/3", [], {}, [[]], {"kind": "corbinq_joint"}]


def paths(node, prefix=()):
    """Every (container path, key) in a JSON value."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield prefix, k
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield prefix, i
            yield from paths(v, prefix + (i,))


def at(node, path):
    for p in path:
        node = node[p]
    return node


def mutate(cert, rng):
    spots = list(paths(cert))
    for _ in range(rng.randint(1, 3)):
        if not spots:
            break
        path, key = rng.choice(spots)
        parent = at(cert, path)
        if rng.random() < 0.3 and isinstance(parent, dict):
            del parent[key]
        elif rng.random() < 0.3 and isinstance(parent, list):
            parent.clear()
        else:
            parent[key] = rng.choice(EXTREMES)
        spots = list(paths(cert))
    return json.dumps(cert)


def main(checker, audit, seconds, seed):
    rng = random.Random(seed)
    names = sorted(f for f in os.listdir(os.path.join(audit, "certificates")) if f.endswith(".json"))
    deadline, runs, bad = time.time() + seconds, 0, []
    with tempfile.TemporaryDirectory() as work:
        while time.time() < deadline:
            copy = os.path.join(work, "audit")
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(audit, copy)
            name = rng.choice(names)
            path = os.path.join(copy, "certificates", name)
            roll = rng.random()
            if roll < 0.08:
                text = os.urandom(rng.randint(0, 200)).decode("latin-1")
            elif roll < 0.12:
                text = "[" * 100000 + "]" * 100000
            elif roll < 0.18:
                text = open(path).read()[: rng.randint(0, 200)]
            else:
                text = mutate(json.load(open(path)), rng)
            with open(path, "w", encoding="latin-1", errors="replace") as f:
                f.write(text)
            proc = subprocess.run([sys.executable, checker, copy], capture_output=True, text=True, timeout=60)
            runs += 1
            output = proc.stdout + proc.stderr
            if proc.returncode not in (0, 1, 2) or "Traceback" in output:
                bad.append((name, proc.returncode, output.strip().splitlines()[-1:] if output.strip() else ""))
                with open(os.path.join(audit, "..", "fuzz_rechecker_failure_%d.json" % len(bad)), "w",
                          encoding="latin-1", errors="replace") as f:
                    f.write(text)
    print("fuzz_rechecker: %d mutated audits, %d failures" % (runs, len(bad)))
    for name, status, last in bad[:10]:
        print("  %s: status %s %s" % (name, status, last))
    return 1 if bad or runs == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 20261122))
