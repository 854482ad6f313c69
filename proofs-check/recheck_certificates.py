"""Independent recheck of the audit's certificates.

Nothing here calls the C++ library: Algorithm 2 is re-implemented from the paper (and the
reference code's top-cell rule from REFERENCES.md) over every shared vector Z with exact
fractions, and each certificate's stated values are recomputed from its own parameters.

Usage: /usr/bin/python3 proofs-check/recheck_certificates.py DIR   (DIR/certificates/*.json)
Exit status 0 if every item agrees, 1 otherwise.
"""
import json
import math
import os
import sys
from fractions import Fraction as F

MAX_BITS = 12  # 2^d shared vectors are enumerated


def frac(text):
    return F(text)


def ldpq_q(alpha, c, r, w):
    return F(1, 2) + (w - c) / (2 * r * alpha)


def corbinq_joint(alpha, c, r, w1, w2, d, variant):
    """Exact joint law of (Q1, Q2) by enumerating Z in {0, .., 2^d - 1} (Alg. 2)."""
    n = 2 ** d
    u = n * ldpq_q(alpha, c, r, w1)          # leader's threshold position
    v = n * (1 - ldpq_q(alpha, c, r, w2))    # follower's
    a1, f1 = math.floor(u), u - math.floor(u)
    a2, f2 = math.floor(v), v - math.floor(v)

    def tie(a, f):
        # The reference code's idx' = 2^d - 2 at the top cell makes its tie probability 1.
        return F(1) if variant == "reference-code" and a == n - 1 else f

    law = {"++": F(0), "+-": F(0), "-+": F(0), "--": F(0)}
    for z in range(n):
        p1 = F(1) if z < a1 else tie(a1, f1) if z == a1 else F(0)      # P(Q1 = + | z)
        if variant == "as-printed":
            # Line 14 as printed: ELSIF T1 < Z -> "+"; otherwise "-" with probability f2.
            m2 = F(1) if z < a2 else f2 if z <= a1 else F(0)
        else:
            m2 = F(1) if z < a2 else tie(a2, f2) if z == a2 else F(0)  # P(Q2 = - | z)
        p2 = 1 - m2
        law["++"] += p1 * p2 / n
        law["+-"] += p1 * m2 / n
        law["-+"] += (1 - p1) * p2 / n
        law["--"] += (1 - p1) * m2 / n
    return law


def pair_mse(law, alpha, c, r, w1, w2):
    level = r * alpha
    x = w1 - c + w2 - c
    return (law["++"] * (2 * level - x) ** 2 + (law["+-"] + law["-+"]) * x ** 2
            + law["--"] * (2 * level + x) ** 2)


def optimal_law(alpha, c, r, w1, w2):
    q1, q2 = ldpq_q(alpha, c, r, w1), ldpq_q(alpha, c, r, w2)
    pp, mm = max(F(0), q1 + q2 - 1), max(F(0), 1 - q1 - q2)
    return {"++": pp, "--": mm, "+-": q1 - pp, "-+": q2 - pp}


class Checker:
    def __init__(self):
        self.items = 0
        self.failures = []

    def expect(self, ok, what):
        self.items += 1
        if not ok:
            self.failures.append(what)

    def walk(self, node, where):
        if isinstance(node, dict):
            if node.get("kind") == "corbinq_joint":
                self.joint(node, where)
            elif node.get("kind") == "binomial_outside":
                self.binomial(node, where)
            for key, value in node.items():
                self.walk(value, where + "/" + key)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                self.walk(value, f"{where}[{i}]")

    def joint(self, item, where):
        if item["bits"] > MAX_BITS:
            return
        law = corbinq_joint(frac(item["alpha"]), frac(item["center"]), frac(item["radius"]),
                            frac(item["w1"]), frac(item["w2"]), item["bits"], item["variant"])
        for key, value in item["joint"].items():
            self.expect(law[key] == frac(value), f"{where}: joint {key} {value} != {law[key]}")

    def binomial(self, item, where):
        n, p = item["trials"], frac(item["p"])
        lo, hi = int(item["first_inside"]), int(item["last_inside"])
        inside = sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(max(lo, 0), min(hi, n) + 1))
        self.expect(1 - inside == frac(item["probability"]), f"{where}: binomial tail")

    def t1b(self, data):
        for i, row in enumerate(data["rows"]):
            if row["bits"] > 10:
                continue
            x = frac(row["exp_eps"])
            alpha, c, r = (x + 1) / (x - 1), F(0), F(1)
            w1, w2 = frac(row["w1"]), frac(row["w2"])
            law = corbinq_joint(alpha, c, r, w1, w2, row["bits"], "corrected")
            gap = pair_mse(law, alpha, c, r, w1, w2) - pair_mse(optimal_law(alpha, c, r, w1, w2), alpha, c, r, w1, w2)
            self.expect(gap == frac(row["sup_gap"]), f"T1b row {i}: gap at the witness {gap} != {row['sup_gap']}")
            bound = r * r * alpha * alpha * F(64, 2 ** row["bits"])
            self.expect(bound == frac(row["bound"]), f"T1b row {i}: bound")

    def t2b(self, data):
        for i, row in enumerate(data["rows"]):
            alpha, c, r = frac(row["alpha"]), F(0), F(1)
            w = frac(row["witness_w"])
            mse = pair_mse(optimal_law(alpha, c, r, w, w), alpha, c, r, w, w)
            self.expect(mse == frac(row["sup_pair_mse"]), f"T2b row {i}: witness MSE")
            self.expect(r * r * (alpha * alpha + 2 * alpha - 1) == frac(row["claimed_pair_bound"]), f"T2b row {i}: bound")

    def p1(self, data):
        for i, row in enumerate(data["levels"]):
            x, alpha = frac(row["exp_eps"]), frac(row["alpha"])
            self.expect(alpha == (x + 1) / (x - 1), f"P1 row {i}: alpha")
            self.expect((alpha + 1) / (alpha - 1) == frac(row["ratio_at_c_plus_r_alpha"]) == x, f"P1 row {i}: ratio")

    def t3(self, data):
        cx = data["counterexample"]
        # Eq. (th:3:1) in floating point from the certificate's own parameters.
        n, gamma, delta, r, alpha, m = (cx["n"], float(frac(cx["gamma"])), float(frac(cx["delta"])),
                                        float(frac(cx["radius"])), float(frac(cx["alpha"])), cx["m"])
        big_n, e_p = n * gamma - 1, 1 + 1 / alpha ** 2
        b_p = e_p / 3 + 1 / alpha
        l125, l10, l20m = math.log(1.25 / delta), math.log(10 / delta), math.log(20 * m / delta)
        eps_u = r * alpha * (math.sqrt(8 * m * l125 / (big_n * e_p)) + 8 * (l125 + l20m * l10) / (3 * big_n)
                             + 4 * b_p * math.sqrt(2 * m) * (1.75 + 3.75 / alpha ** 2) * math.sqrt(l10)
                             / (big_n * (1 - delta / 10) * e_p))
        self.expect(math.isclose(eps_u, cx["printed_eps_u_approx"], rel_tol=1e-12), "T3: printed ε_u")
        exact = math.log(float(frac(cx["exact_exp_eps_replace_one"])))
        self.expect(math.isclose(exact, cx["exact_eps_replace_one_approx"], rel_tol=1e-12), "T3: ln(exact e^ε)")
        self.expect(eps_u < exact, "T3: the printed ε_u is below the exact ε")


def seed_order(a, b):
    """experiments.hpp's rule: above iff min a > max b, below iff max a < min b."""
    if not a or not b:
        return "missing"
    if min(a) > max(b):
        return "above"
    if max(a) < min(b):
        return "below"
    return "overlap"


def csv_accuracies(path):
    """run -> seed -> accuracy (%) from the full-scale results, as the audit reads them."""
    import csv
    table = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            table.setdefault(row["run"], {})[int(row["seed"])] = 100 * float(row["test_accuracy_at_best_round"])
    return table


def experiment(checker, cert, out_dir):
    """E1-E5: every order recomputed from the values in the certificate, every value against the
    results CSV it names (when that file is here), and each part's and the claim's verdict from
    the rule the certificate states."""
    data = cert["data"]
    # The CSV where the audit read it, or beside the certificates (DIR/fl-full/results.csv).
    candidates = [data["results_csv"], os.path.join(out_dir, "fl-full", "results.csv")]
    found = [p for p in candidates if os.path.exists(p)]
    table = csv_accuracies(found[0]) if found else None
    wants = {"above": ("above", "below"), "not above": (None, "above"), "not below": (None, "below")}

    def values_of(side, where):
        if table is not None and "run" in side:
            for seed, value in zip(side["seeds"], side["values"]):
                expected = table.get(side["run"], {}).get(seed)
                if "minus_run" in side and expected is not None:
                    other = table.get(side["minus_run"], {}).get(seed)
                    expected = None if other is None else expected - other
                checker.expect(expected == value, f"{where}: {side['label']} seed {seed}: {value} != results {expected}")
        return side["values"]

    verdicts = []
    for i, part in enumerate(data.get("parts", [])):
        want = part["want"]
        holds, fails = True, False
        for j, item in enumerate(part["comparisons"]):
            where = f"{cert['id']} part {i} comparison {j}"
            order = seed_order(values_of(item["a"], where), values_of(item["b"], where))
            checker.expect(order == item["order"], f"{where}: order {item['order']} != {order}")
            good = order == "above" if want == "above" else order in ("overlap", "below" if want == "not above" else "above")
            holds = holds and good
            fails = fails or order == wants[want][1]
        verdict = "fails" if fails else "holds" if holds and part["comparisons"] else "undecided"
        checker.expect(verdict == part["verdict"], f"{cert['id']} part {i}: verdict {part['verdict']} != {verdict}")
        verdicts.append(verdict)
    if verdicts:
        claim = "fails" if "fails" in verdicts else "holds" if all(v == "holds" for v in verdicts) else "undecided"
        checker.expect(claim == cert["verdict"], f"{cert['id']}: verdict {cert['verdict']} != {claim}")


def main(out_dir):
    checker = Checker()
    cert_dir = os.path.join(out_dir, "certificates")
    names = sorted(f for f in os.listdir(cert_dir) if f.endswith(".json"))
    for name in names:
        with open(os.path.join(cert_dir, name)) as f:
            cert = json.load(f)
        checker.walk(cert["data"], cert["id"])
        extra = getattr(checker, cert["id"].lower(), None)
        if extra is not None:
            extra(cert["data"])
        if "parts" in cert["data"]:
            experiment(checker, cert, out_dir)
    for failure in checker.failures:
        print("MISMATCH", failure)
    print(f"recheck: {len(names)} certificates, {checker.items} items, {len(checker.failures)} mismatches")
    return 1 if checker.failures or not names else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "reports"))
