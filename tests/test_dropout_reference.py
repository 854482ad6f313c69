"""corbin account with dropout held to an independent exact brute force
(proofs-check/reference/dropout_bruteforce.py, written from the paper alone): no certified lower end
above the exact ε of the mechanism as run, no upper end below it, every role and relation, T = 1 to
3. Before the dropout rounds' lower bound was the mechanism's own, the first cases' lower ends were
0.5306 (exact 0) and 0.9029 (exact 0.7155): this test fails on them."""
import json
import math
import os
import subprocess
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "proofs-check", "reference"))
import dropout_bruteforce as bf  # noqa: E402

CLI = os.environ["CORBIN_CLI"]

# (n, γ, e^ε, d, p, δ, role, relation, T)
CASES = [
    (6, "1", "2", 5, "1/2", "1/10", "ldpq", "replace", 1),
    (4, "1", "3", 5, "1/10", "1/10", "ldpq", "replace", 1),
    (4, "1", "3", 5, "1/10", "1/10", "ldpq", "replace", 2),
    (2, "0", "2", 2, "1/2", "1/10", "paired", "replace", 1),
    (2, "0", "2", 2, "1/2", "1/10", "paired", "remove", 1),
    (4, "1/2", "2", 2, "1/10", "1/10", "ldpq", "replace", 1),
    (4, "1/2", "2", 2, "1/10", "1/10", "paired", "replace", 1),
    (5, "1/2", "2", 2, "1/4", "1/20", "ldpq", "remove", 1),
    (3, "1", "3", 5, "1/3", "1/10", "ldpq", "replace", 1),
    # Remove one with every client on LDPQ, T up to 3.
    (5, "1", "2", 5, "1/2", "1/10", "ldpq", "remove", 3),
    (6, "1", "3", 5, "1/3", "1/20", "ldpq", "remove", 3),
    (3, "1", "5", 5, "2/3", "1/5", "ldpq", "remove", 3),
    (4, "1", "3", 5, "1/2", "1/10", "ldpq", "remove", 2),
]

failures = 0
for n, gamma, e, d, p, delta, role, relation, T in CASES:
    model = "survivors+sum" if relation == "replace" else "sum"
    res = bf.analyse(n, Fraction(gamma), Fraction(e), d, Fraction(p), Fraction(delta), role, relation, model,
                     T_list=(T,))
    row = res["T"][str(T)]
    exact = (row.get("exact") or row["adaptive_exact"])["eps"]
    truth = math.inf if exact in ("inf", None) else float(exact)
    out = subprocess.run([CLI, "account", "--n", str(n), "--gamma", gamma, "--exp-eps", e, "--bits", str(d),
                          "--dropout", p, "--delta", delta, "--rounds", str(T), "--role", role,
                          "--neighbours", relation, "--json"], capture_output=True, text=True)
    assert out.returncode in (0, 3), out.stderr
    j = json.loads(out.stdout)
    lo = math.inf if j["eps_lower"] == "infinite" else float(j["eps_lower_approx"])
    hi = math.inf if j["eps_upper"] == "infinite" else float(j["eps_upper_approx"])
    ok = lo <= truth + 1e-9 and truth <= hi + 1e-9
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'}: n={n} gamma={gamma} e^eps={e} d={d} p={p} delta={delta} {role} {relation} "
          f"T={T}: exact {truth:.6f}, corbin [{lo:.6f}, {hi:.6f}]")
print(f"{len(CASES) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
