#!/usr/bin/env bash
# The certificate checker must notice a changed number: copy the audit, alter one exact joint
# probability in A2's certificate, one binomial tail in T4's and one seed's accuracy in E1's,
# and expect a failure each.
set -euo pipefail
python="$1" checker="$2" audit="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for target in A2 T4 E1; do
  rm -rf "$work/copy" && cp -r "$audit" "$work/copy"
  "$python" - "$work/copy/certificates/$target.json" <<'PY'
import json, sys
from fractions import Fraction
path = sys.argv[1]
cert = json.load(open(path))
def tamper(node):
    if isinstance(node, dict):
        if node.get("kind") == "corbinq_joint":
            node["joint"]["++"] = str(Fraction(node["joint"]["++"]) + Fraction(1, 10**9)); return True
        if node.get("kind") == "binomial_outside":
            node["probability"] = str(Fraction(node["probability"]) * Fraction(1001, 1000)); return True
        if node.get("kind") == "seed_order" and node["a"]["values"]:
            node["a"]["values"][0] += 0.01; return True
        return any(tamper(v) for v in node.values())
    if isinstance(node, list):
        return any(tamper(v) for v in node)
    return False
assert tamper(cert["data"]), "nothing to tamper with"
json.dump(cert, open(path, "w"))
PY
  if "$python" "$checker" "$work/copy" > "$work/out.txt"; then
    echo "the checker accepted a tampered $target certificate"; cat "$work/out.txt"; exit 1
  fi
  grep -q MISMATCH "$work/out.txt"
done
echo "tampered certificates rejected"
