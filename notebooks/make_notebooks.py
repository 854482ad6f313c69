"""Writes the notebooks from their cell sources (kept here so that a diff of a notebook is a
diff of code). Run: /usr/bin/python3 notebooks/make_notebooks.py"""
import os

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = os.path.dirname(os.path.abspath(__file__))

SETUP = """import os, sys
# The module is built by CMake into build/analysis/python; the tests set CORBIN_PYTHONPATH.
for path in (os.environ.get("CORBIN_PYTHONPATH", ""), os.path.join(os.getcwd(), "..", "build", "analysis", "python")):
    if path and path not in sys.path:
        sys.path.insert(0, path)
from fractions import Fraction as F
%matplotlib inline
import matplotlib.pyplot as plt
import corbin
import corbin_figures"""

NOTEBOOKS = {
    "privacy_utility.ipynb": [
        new_markdown_cell("# Privacy–utility curves\n\nWorst-case aggregate MSE per coordinate against the "
                          "PLDP budget ε for LDP-FL, CorBin-FL (d → ∞ and d = 5), AugCorBin-FL (γ = 1/2), "
                          "and the Gaussian and Laplace baselines, n = 50 clients, r = 1. Exact values come "
                          "from the `corbin` module as fractions."),
        new_code_cell(SETUP),
        new_code_cell("""n, r = 50, 1
grid = [F(k, 8) for k in range(-8, 9)]  # inputs in [-1, 1]
rows, d5 = [], []
for eps in [0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 4, 5, 7]:
    exp_eps = F(round(2.718281828459045 ** eps * 10**6) + 1, 10**6)
    alpha = corbin.alpha_of_exp_eps(exp_eps)
    ldp = corbin.pair_utility(alpha, 0, r, 0, 0, 5)["mse_ldp"] / 2   # one LDPQ client at w = c
    pair_inf = max(corbin.pair_utility(alpha, 0, r, a, b, 5)["mse_optimal"] for a in grid for b in grid)
    pair_d5 = max(corbin.pair_utility(alpha, 0, r, a, b, 5)["mse"] for a in grid for b in grid)
    sigma = corbin.agm_sigma(F(eps).limit_denominator(10**6), F(1, 10**5), 2 * r)
    b_lap = corbin.laplace_scale(F(eps).limit_denominator(10**6), 2 * r)
    # AugCorBin-FL as the round runs it: the first floor(γn) = 25 alone, then 12 pairs and an odd one out alone.
    alone = n // 2 + (n - n // 2) % 2
    pairs = (n - alone) // 2
    rows.append({"eps": eps, "ldp": float(ldp / n), "corbin": float(pair_inf / (2 * n)),
                 "augcorbin": float((alone * ldp + pairs * pair_inf) / n ** 2),
                 "gaussian": sigma ** 2 / n, "laplace": float(2 * b_lap ** 2 / n)})
    d5.append(float(pair_d5 / (2 * n)))
# CorBin-FL is at least twice better than LDP-FL in the worst case (claim T2c).
assert all(r["ldp"] >= 2 * r["corbin"] * (1 - 1e-12) for r in rows)
fig, ax = plt.subplots(figsize=(7, 4.5))
corbin_figures.plot_privacy_utility(rows, ax, n=n)
ax.loglog([r["eps"] for r in rows], d5, ":", label="CorBin-FL, d = 5 (grid maximum)")
ax.legend(fontsize=8)
[(r["eps"], round(r["ldp"] / r["corbin"], 3)) for r in rows]"""),
    ],
    "aggregate_mse.ipynb": [
        new_markdown_cell("# The aggregate MSE a researcher asks for\n\nThe worst case over every client's input of "
                          "the per-coordinate MSE of the server's average, E[(mean of the n outputs − mean of the n "
                          "inputs)²], against the PLDP budget ε for LDP-FL, CorBin-FL (d = 5, pairs), AugCorBin-FL "
                          "(γ = 1/2: ⌊γn⌋ clients alone, the rest in pairs) and the Gaussian mechanism (δ = 1e-5, "
                          "sensitivity 2r), at n = 100 clients and r = 0.05. The same numbers twice: from "
                          "`corbin sweep --quantity aggregate_mse` (a CSV) and from the module's "
                          "`corbin.aggregate_mse` (certified (lower, upper) Fractions)."),
        new_code_cell(SETUP),
        new_code_cell("""import csv, io, shutil, subprocess
# The CLI: CORBIN_CLI (the tests set it), else the build tree's, else the installed one.
cli = os.environ.get("CORBIN_CLI") or next(
    (p for p in (os.path.join(os.getcwd(), "..", "build", "analysis", "corbin"), shutil.which("corbin")) if p and os.path.exists(p)))
mechanisms = ["ldp", "corbin", "augcorbin", "gaussian"]
eps_grid = "0.1:10:9:log"
labels = {"ldp": "LDP-FL", "corbin": "CorBin-FL (d = 5)", "augcorbin": "AugCorBin-FL (γ = 1/2)",
          "gaussian": "Gaussian (δ = 1e-5)"}

def sweep(*clients):
    \"\"\"The sweep's rows at n clients (--n N) or at given inputs (--weights ...); an argument vector, never a shell.\"\"\"
    out = subprocess.run([cli, "sweep", "--quantity", "aggregate_mse", "--mechanism", ",".join(mechanisms),
                          "--eps", eps_grid, "--radius", "0.05", *clients],
                         check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(io.StringIO(out)))

def largest_difference(rows, **clients):
    \"\"\"The module at the rows' points (the CSV's ε as printed, an exact decimal; the same setting): the
    largest relative difference between its ends and the CSV's, which prints each to 17 significant digits.\"\"\"
    worst = 0.0
    for row in rows:
        kwargs = {"gamma": "1/2"} if row["mechanism"] == "augcorbin" else {}
        lower, upper = corbin.aggregate_mse(row["mechanism"], eps=row["eps"], radius="1/20", **clients, **kwargs)
        for mine, theirs in ((lower, row["aggregate_mse_lower"]), (upper, row["aggregate_mse_upper"])):
            worst = max(worst, abs(float(mine) - float(theirs)) / float(mine))
    return worst

def plot(rows, ylabel, title):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for m in mechanisms:
        mine = [r for r in rows if r["mechanism"] == m]
        ax.loglog([float(r["eps"]) for r in mine], [float(r["aggregate_mse_upper"]) for r in mine], marker="o", label=labels[m])
    ax.set_xlabel("PLDP budget ε (per coordinate, per round)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)

swept = sweep("--n", "100")
len(swept), swept[0]"""),
        new_code_cell("""worst = largest_difference(swept, n=100)
print("largest relative difference between the sweep's and the module's ends:", worst)
assert worst < 1e-15"""),
        new_code_cell("""plot(swept, "worst-case MSE of the average, per coordinate",
     "n = 100 clients, inputs in [c − 0.05, c + 0.05]: the worst case over all inputs")
# CorBin-FL halves LDP-FL's worst case or better (claim T2c), AugCorBin-FL lies between them.
by = {(r["mechanism"], r["eps"]): float(r["aggregate_mse_upper"]) for r in swept}
assert all(by[("corbin", e)] <= by[("augcorbin", e)] <= by[("ldp", e)] for (m, e) in by if m == "ldp")"""),
        new_markdown_cell("## At the inputs of a round\n\nThe same quantity at given inputs rather than the worst "
                          "case: 100 clients spread evenly over [−0.05, 0.05] (`--weights -0.05:0.05:100`). It is "
                          "the expectation over every coin of the round, the server's random pairing order "
                          "included, so CorBin-FL's answer is the mechanism's and not one pairing's. Again from the "
                          "sweep and from the module, compared end to end (ε is given, so α is transcendental and "
                          "the values are certified enclosures; with --exp-eps or --alpha they are exact)."),
        new_code_cell("""inputs = [F(-1, 20) + F(1, 10) * F(i, 99) for i in range(100)]  # the range -0.05:0.05:100, exactly
at_inputs = sweep("--weights", "-0.05:0.05:100")
worst = largest_difference(at_inputs, weights=inputs)
print("largest relative difference between the sweep's and the module's ends:", worst)
assert worst < 1e-15
plot(at_inputs, "MSE of the average at these inputs, per coordinate",
     "n = 100 clients at inputs spread evenly over [−0.05, 0.05]")
# At any inputs each is at most its worst case (the figure above).
at = {(r["mechanism"], r["eps"]): float(r["aggregate_mse_lower"]) for r in at_inputs}
assert all(at[key] <= by[key] for key in at)"""),
    ],
    "theorem1_gap.ipynb": [
        new_markdown_cell("# Theorem 1: the gap to the optimum\n\nThe exact supremum over all inputs of "
                          "MSE(CorBinQ) − MSE(optimal coupling), against the paper's bound r²α²/2^(d−6)."),
        new_code_cell(SETUP),
        new_code_cell("""rows = []
for exp_eps in [F(3, 2), F(3), F(11)]:
    alpha = corbin.alpha_of_exp_eps(exp_eps)
    for d in range(0, 13):
        sup = corbin.sup_gap(alpha, 0, 1, d)
        bound = alpha ** 2 * F(64, 2 ** d)
        # The witness reaches the supremum through the exact law.
        assert corbin.pair_utility(alpha, 0, 1, sup["w1"], sup["w2"], d)["gap"] == sup["sup_gap"]
        rows.append({"exp_eps": float(exp_eps), "bits": d, "sup_gap": float(sup["sup_gap"]),
                     "bound": float(bound), "ratio": bound / sup["sup_gap"]})
# Where 2^d >= α the supremum is 2α²/2^d: the bound is exactly 32 times larger.
assert all(r["ratio"] == 32 for r in rows if 2 ** r["bits"] >= 1 + 2 / (r["exp_eps"] - 1))
fig, ax = plt.subplots(figsize=(7, 4.5))
corbin_figures.plot_gap_vs_d(rows, ax)
sorted({r["ratio"] for r in rows})"""),
    ],
    "theorem3_comparison.ipynb": [
        new_markdown_cell("# Theorem 3: printed, re-derived, exact\n\nε_u at δ = 1e-5 for m = 1, γ = 1/2, "
                          "e^ε = 3, r = 1 against n: Eq. (th:3:1) as printed, cpSGD's Theorem 1 with the "
                          "proof's substitutions and with consistent units, and the exact ε of the released "
                          "sum (replace one)."),
        new_code_cell(SETUP),
        new_code_cell("""curve = []
for n in [50, 100, 200, 500, 1000]:
    alpha = corbin.alpha_of_exp_eps(3)
    args = (1, n, F(1, 2), F(1, 10**5), 1, alpha)
    exact = corbin.exact_ucdp(n, F(1, 2), F(1, 10**5), alpha)
    curve.append({"n": n, "printed": corbin.ucdp_printed(*args)["eps_u"],
                  "cpsgd_proof_units": corbin.ucdp_cpsgd(*args)["eps_u"],
                  "cpsgd_consistent_units": corbin.ucdp_cpsgd(*args, consistent_units=True)["eps_u"],
                  "exact_replace_one": exact["eps"]})
# Removing a client (Eq. (1)) shifts the lattice of the sum: the two laws are disjoint.
assert corbin.exact_ucdp(100, F(1, 2), F(1, 10**5), alpha, neighbours="remove")["infinite"]
fig, ax = plt.subplots(figsize=(7, 4.5))
corbin_figures.plot_eps_u_vs_n(curve, ax)
curve"""),
    ],
}

for name, cells in NOTEBOOKS.items():
    # Cell ids from the notebook's name and the cell's place, so that regenerating changes nothing
    # but what changed.
    for index, cell in enumerate(cells):
        cell["id"] = f"{os.path.splitext(name)[0][:20]}-{index}"
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                            "language": "python"}})
    nbformat.write(nb, os.path.join(HERE, name))
    print("wrote", name)
