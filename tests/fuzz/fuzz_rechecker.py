"""Structural fuzzing of the certificate rechecker (ctest, label fuzz): seeded random mutations
of a quick audit's certificates (fields deleted, retyped, set to extreme, out-of-range or
malformed values, a key repeated, files truncated or replaced by random bytes or deeply nested
JSON). Whatever the input, the rechecker must end with status 0, 1, 2 or 3 (values it could not
recompute) and never print a traceback or report an internal error (status 4); a repeated key must
be MALFORMED (status 2).

First, fixed hostile inputs, each on its own certificate (--only): a 10 MB array nested
1,000,000 deep and a 1,000,000-deep object (refused by the depth limit, without recursion, well
within the time limit), brackets inside a string (not structure: the certificate still passes),
a repeated key at the top and in a witness, and a sparse file over the size limit. Each must get
its status and a MALFORMED line naming the file and what it found.

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
            "99999999999999999999999/3", [], {}, [[]], {"kind": "corbinq_joint"},
            # Exact values just outside the domains the formulas need (γ, δ, p in (0, 1], r > 0, ...).
            "0", "-1", "3/2", "2", "-1/2", "1e999999999", 1]
# recheck/limits.py kMaxJsonDepth and kMaxInputBytes.
DEPTH_LIMIT, SIZE_LIMIT = 64, 64 << 20


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


def with_repeated_key(cert, rng):
    """The certificate as text with one object's first key written twice, first with an extreme
    value (json keeps the last, the original)."""
    objects = [()] + [path + (key,) for path, key in paths(cert) if isinstance(at(cert, path + (key,)), dict)
                      and at(cert, path + (key,))]
    target = rng.choice(objects)
    first = next(iter(at(cert, target)))
    body = json.dumps({first: rng.choice(EXTREMES)})[:-1] + ", " + json.dumps(at(cert, target))[1:]
    if not target:
        return body
    at(cert, target[:-1])[target[-1]] = "__REPEATED__"
    return json.dumps(cert).replace('"__REPEATED__"', body, 1)


def hostile_cases(cert):
    """(name, certificate text or (text, size) for a sparse file, allowed statuses, texts the
    MALFORMED line must contain)."""
    bomb = "[" * 1000000 + '"' + "x" * 8000000 + '"' + "]" * 1000000
    yield "10 MB array nested 1000000 deep", bomb, {2}, ("limit", "1000000 levels")
    yield "object nested 1000000 deep", '{"a": ' * 1000000 + "0" + "}" * 1000000, {2}, ("limit", "1000000 levels")
    doc = json.loads(json.dumps(cert))
    doc["finding"] += " [[{[" * 100000 + '\\"]' + "\\"
    yield "brackets inside a string", json.dumps(doc), {0}, ()
    doc = json.loads(json.dumps(cert))
    doc["data"]["extra"] = "__NEST__"
    yield f"nested {DEPTH_LIMIT + 1} deep", json.dumps(doc).replace('"__NEST__"', "[" * (DEPTH_LIMIT - 1) +
                                                                    "]" * (DEPTH_LIMIT - 1)), {2}, ("limit",)
    text = json.dumps(cert)
    yield "repeated key at the top", '{"verdict": "fails", ' + text[1:], {2}, (" verdict:",)
    doc = json.loads(text)
    doc["data"]["witnesses"][0] = "__W__"
    witness = json.dumps(cert["data"]["witnesses"][0])
    yield "repeated key in a witness", json.dumps(doc).replace('"__W__"', '{"kind": "x", ' + witness[1:]), {2}, \
        (" data/witnesses/0/kind:",)
    yield "over the size limit (sparse)", (text, SIZE_LIMIT + 1), {2}, (str(SIZE_LIMIT),)


def run_hostile(checker, audit, work):
    """The fixed hostile inputs on the first certificate with witnesses; returns the failures."""
    names = sorted(f for f in os.listdir(os.path.join(audit, "certificates")) if f.endswith(".json"))
    name = next(n for n in names if json.load(open(os.path.join(audit, "certificates", n)))["data"].get("witnesses"))
    cert = json.load(open(os.path.join(audit, "certificates", name)))
    bad = []
    for case, text, allowed, must in hostile_cases(cert):
        copy = os.path.join(work, "hostile")
        shutil.rmtree(copy, ignore_errors=True)
        os.makedirs(os.path.join(copy, "certificates"))
        path = os.path.join(copy, "certificates", name)
        with open(path, "w") as f:
            f.write(text if isinstance(text, str) else text[0])
            if not isinstance(text, str):
                f.truncate(text[1])
        started = time.time()
        proc = subprocess.run([sys.executable, checker, "--only", name[:-len(".json")], copy], capture_output=True,
                              text=True, timeout=60)
        output = proc.stdout + proc.stderr
        named = proc.returncode == 0 or any(line.startswith("MALFORMED") and name in line and all(m in line for m in must)
                                            for line in output.splitlines())
        if proc.returncode not in allowed or not named or "Traceback" in output:
            bad.append((f"{name} ({case})", proc.returncode, output.strip().splitlines()[-2:]))
        print("fuzz_rechecker: %s: status %d in %.1f s" % (case, proc.returncode, time.time() - started))
    return bad


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
    with tempfile.TemporaryDirectory() as work:
        bad = run_hostile(checker, audit, work)
        deadline, runs = time.time() + seconds, 0
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
            elif roll < 0.26:
                text = with_repeated_key(json.load(open(path)), rng)
            else:
                text = mutate(json.load(open(path)), rng)
            with open(path, "w", encoding="latin-1", errors="replace") as f:
                f.write(text)
            # A whole quick audit: about 10 s on one core, 6 s of it T3's accounting; twice that
            # allowed for a busy machine, and twice again for a mutation that adds a setting.
            proc = subprocess.run([sys.executable, checker, copy], capture_output=True, text=True, timeout=120)
            runs += 1
            output = proc.stdout + proc.stderr
            repeated = 0.18 <= roll < 0.26  # a repeated key is malformed, whatever else the file holds
            if proc.returncode not in ((2,) if repeated else (0, 1, 2, 3)) or "Traceback" in output:
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
