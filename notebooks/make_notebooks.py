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

def parameters(source):
    """The notebook's one parameters cell, first of its code cells: every number the notebook
    computes with is set here and nowhere else (literals only, tagged "parameters" as papermill
    reads it: `papermill NB out.ipynb -p n 100` runs it at other values)."""
    cell = new_code_cell("# Parameters: every value the notebook uses (edit, then run all).\n" + source)
    cell["metadata"]["tags"] = ["parameters"]
    return cell


NOTEBOOKS = {
    "privacy_utility.ipynb": [
        new_markdown_cell("# Privacy–utility curves\n\nWorst-case aggregate MSE per coordinate against the "
                          "PLDP budget ε for LDP-FL, CorBin-FL (d → ∞ and at d shared bits), AugCorBin-FL, and the "
                          "Gaussian and Laplace baselines, at the parameters of the first code cell. Exact values "
                          "come from the `corbin` module as fractions."),
        parameters("""n = 50                     # clients
r = "1"                    # the inputs' range [c − r, c + r], c = 0
eps_grid = [0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 4, 5, 7]  # PLDP budgets ε
bits = 5                   # CorBinQ's shared bits d (the dotted curve)
gamma = "1/2"              # AugCorBin-FL's share of clients on LDPQ
delta = "1e-5"             # the Gaussian's δ
input_steps = 8            # inputs per r on the grid the pairs' worst case is searched over
exp_eps_decimals = 6       # e^ε rounded up to this many decimals, so that α is exact"""),
        new_code_cell(SETUP),
        new_code_cell("""import math
r, gamma, delta = F(r), F(gamma), F(delta)
grid = [r * F(k, input_steps) for k in range(-input_steps, input_steps + 1)]  # inputs in [-r, r]
# AugCorBin-FL as the round runs it: the first floor(γn) alone, the rest in pairs, an odd one out alone.
alone = math.floor(gamma * n) + (n - math.floor(gamma * n)) % 2
pairs = (n - alone) // 2
rows, at_bits = [], []
for eps in eps_grid:
    exp_eps = F(math.ceil(math.exp(eps) * 10**exp_eps_decimals), 10**exp_eps_decimals)
    alpha = corbin.alpha_of_exp_eps(exp_eps)
    ldp = corbin.pair_utility(alpha, 0, r, 0, 0, bits)["mse_ldp"] / 2   # one LDPQ client at w = c
    pair_inf = max(corbin.pair_utility(alpha, 0, r, a, b, bits)["mse_optimal"] for a in grid for b in grid)
    pair_d = max(corbin.pair_utility(alpha, 0, r, a, b, bits)["mse"] for a in grid for b in grid)
    sigma = corbin.agm_sigma(F(eps).limit_denominator(10**6), delta, 2 * r)
    b_lap = corbin.laplace_scale(F(eps).limit_denominator(10**6), 2 * r)
    rows.append({"eps": eps, "ldp": float(ldp / n), "corbin": float(pair_inf / (2 * n)),
                 "augcorbin": float((alone * ldp + pairs * pair_inf) / n ** 2),
                 "gaussian": sigma ** 2 / n, "laplace": float(2 * b_lap ** 2 / n)})
    at_bits.append(float(pair_d / (2 * n)))
# CorBin-FL is at least twice better than LDP-FL in the worst case (claim T2c).
assert all(row["ldp"] >= 2 * row["corbin"] * (1 - 1e-12) for row in rows)
labels = {"ldp": "LDP-FL", "corbin": "CorBin-FL (d → ∞)", "augcorbin": f"AugCorBin-FL, γ = {gamma}",
          "gaussian": f"Gaussian (analytic, δ = {float(delta):g})", "laplace": "Laplace"}
fig, ax = plt.subplots(figsize=(7, 4.5))
corbin_figures.plot_privacy_utility(rows, ax, n=n, r=r, labels=labels)
ax.loglog([row["eps"] for row in rows], at_bits, ":", label=f"CorBin-FL, d = {bits} (grid maximum)")
ax.legend(fontsize=8)
[(row["eps"], round(row["ldp"] / row["corbin"], 3)) for row in rows]"""),
    ],
    "aggregate_mse.ipynb": [
        new_markdown_cell("# The aggregate MSE a researcher asks for\n\nThe worst case over every client's input of "
                          "the per-coordinate MSE of the server's average, E[(mean of the n outputs − mean of the n "
                          "inputs)²], against the PLDP budget ε for LDP-FL, CorBin-FL (pairs), AugCorBin-FL "
                          "(⌊γn⌋ clients alone, the rest in pairs) and the Gaussian mechanism (sensitivity 2r), at "
                          "the parameters of the first code cell. The same numbers twice: from "
                          "`corbin sweep --quantity aggregate_mse` (a CSV that records every parameter it used) "
                          "and from the module's `corbin.aggregate_mse` (certified (lower, upper) Fractions)."),
        parameters("""mechanisms = ["ldp", "corbin", "augcorbin", "gaussian"]
eps_grid = "0.1:10:9:log"    # the sweep's ε axis: 9 points from 0.1 to 10, log-spaced
n = 100                      # clients (the worst case over their inputs)
radius = "0.05"              # the inputs' range [c − r, c + r], c = 0
bits = 5                     # CorBinQ's shared bits d
gamma = "1/2"                # AugCorBin-FL's share of clients on LDPQ
delta = "1e-5"               # the Gaussian's δ
inputs_range = ("-0.05", "0.05", 100)  # the second part's inputs: that many, evenly from the first to the second
tolerance = 1e-15            # the sweep's 17 significant digits against the module's ends"""),
        new_code_cell(SETUP),
        new_code_cell("""import csv, io, shutil, subprocess
# The CLI: CORBIN_CLI (the tests set it), else the build tree's, else the installed one.
cli = os.environ.get("CORBIN_CLI") or next(
    (p for p in (os.path.join(os.getcwd(), "..", "build", "analysis", "corbin"), shutil.which("corbin")) if p and os.path.exists(p)))
labels = {"ldp": "LDP-FL", "corbin": f"CorBin-FL (d = {bits})", "augcorbin": f"AugCorBin-FL (γ = {gamma})",
          "gaussian": f"Gaussian (δ = {delta})"}
# The setting each room reads (the sweep refuses an option no room asked reads, and so does the module).
setting = {"bits": str(bits)} if {"corbin", "augcorbin"} & set(mechanisms) else {}
if "augcorbin" in mechanisms:
    setting["gamma"] = gamma
if "gaussian" in mechanisms:
    setting["delta"] = delta

def sweep(*clients):
    \"\"\"The sweep's rows at n clients (--n N) or at given inputs (--weights ...); an argument vector, never a shell.\"\"\"
    options = [x for key, value in setting.items() for x in ("--" + key, value)]
    out = subprocess.run([cli, "sweep", "--quantity", "aggregate_mse", "--mechanism", ",".join(mechanisms),
                          "--eps", eps_grid, "--radius", radius, *options, *clients],
                         check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(io.StringIO(out)))

def largest_difference(rows, **clients):
    \"\"\"The module at the rows' points (the CSV's ε as printed, an exact decimal; the setting the CSV records
    for the row): the largest relative difference between its ends and the CSV's, which prints each to 17
    significant digits.\"\"\"
    worst = 0.0
    for row in rows:
        kwargs = {"gamma": row["gamma"]} if row["mechanism"] == "augcorbin" else {}
        lower, upper = corbin.aggregate_mse(row["mechanism"], eps=row["eps"], radius=row["radius"],
                                            bits=bits, delta=delta, **clients, **kwargs)
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

swept = sweep("--n", str(n))
# The CSV records the setting it was computed at, in every row.
assert all(F(row["radius"]) == F(radius) for row in swept)
len(swept), swept[0]"""),
        new_code_cell("""worst = largest_difference(swept, n=n)
print("largest relative difference between the sweep's and the module's ends:", worst)
assert worst < tolerance"""),
        new_code_cell("""plot(swept, "worst-case MSE of the average, per coordinate",
     f"n = {n} clients, inputs in [c − {radius}, c + {radius}]: the worst case over all inputs")
# CorBin-FL halves LDP-FL's worst case or better (claim T2c), AugCorBin-FL lies between them.
by = {(r["mechanism"], r["eps"]): float(r["aggregate_mse_upper"]) for r in swept}
if {"ldp", "corbin", "augcorbin"} <= set(mechanisms):
    assert all(by[("corbin", e)] <= by[("augcorbin", e)] <= by[("ldp", e)] for (m, e) in by if m == "ldp")"""),
        new_markdown_cell("## At the inputs of a round\n\nThe same quantity at given inputs rather than the worst "
                          "case: the inputs spread evenly over the range of the parameters' `inputs_range` "
                          "(`--weights LOW:HIGH:COUNT`). It is the expectation over every coin of the round, the "
                          "server's random pairing order included, so CorBin-FL's answer is the mechanism's and "
                          "not one pairing's. Again from the sweep and from the module, compared end to end (ε is "
                          "given, so α is transcendental and the values are certified enclosures; with --exp-eps "
                          "or --alpha they are exact)."),
        new_code_cell("""low, high, count = F(inputs_range[0]), F(inputs_range[1]), inputs_range[2]
inputs = [low + (high - low) * F(i, count - 1) for i in range(count)]  # the range LOW:HIGH:COUNT, exactly
at_inputs = sweep("--weights", ":".join(str(x) for x in inputs_range))
worst = largest_difference(at_inputs, weights=inputs)
print("largest relative difference between the sweep's and the module's ends:", worst)
assert worst < tolerance
plot(at_inputs, "MSE of the average at these inputs, per coordinate",
     f"n = {count} clients at inputs spread evenly over [{inputs_range[0]}, {inputs_range[1]}]")
# At any inputs each is at most its worst case over as many clients (the figure above).
if count == n:
    at = {(r["mechanism"], r["eps"]): float(r["aggregate_mse_lower"]) for r in at_inputs}
    assert all(at[key] <= by[key] for key in at)"""),
    ],
    "theorem1_gap.ipynb": [
        new_markdown_cell("# Theorem 1: the gap to the optimum\n\nThe exact supremum over all inputs of "
                          "MSE(CorBinQ) − MSE(optimal coupling), against the paper's bound r²α²/2^(d−6), at the "
                          "parameters of the first code cell."),
        parameters("""exp_eps_values = ["3/2", "3", "11"]   # e^ε, exact
max_bits = 12                          # d = 0, 1, …, max_bits
center, radius = "0", "1"              # the inputs' range [c − r, c + r]"""),
        new_code_cell(SETUP),
        new_code_cell("""c, r = F(center), F(radius)
rows = []
for exp_eps in map(F, exp_eps_values):
    alpha = corbin.alpha_of_exp_eps(exp_eps)
    for d in range(0, max_bits + 1):
        sup = corbin.sup_gap(alpha, c, r, d)
        bound = r ** 2 * alpha ** 2 * F(64, 2 ** d)
        # The witness reaches the supremum through the exact law.
        assert corbin.pair_utility(alpha, c, r, sup["w1"], sup["w2"], d)["gap"] == sup["sup_gap"]
        rows.append({"exp_eps": float(exp_eps), "bits": d, "sup_gap": float(sup["sup_gap"]),
                     "bound": float(bound), "ratio": bound / sup["sup_gap"]})
# Where 2^d >= α the supremum is 2r²α²/2^d: the bound is exactly 32 times larger.
assert all(row["ratio"] == 32 for row in rows if 2 ** row["bits"] >= 1 + 2 / (row["exp_eps"] - 1))
fig, ax = plt.subplots(figsize=(7, 4.5))
corbin_figures.plot_gap_vs_d(rows, ax, center=center, radius=radius)
sorted({row["ratio"] for row in rows})"""),
    ],
    "theorem3_comparison.ipynb": [
        new_markdown_cell("# Theorem 3: printed, re-derived, exact\n\nε_u at δ against n: Eq. (th:3:1) as "
                          "printed, cpSGD's Theorem 1 with the proof's substitutions and with consistent units, and "
                          "the exact ε of the released sum (replace one). The parameters of the first code cell are "
                          "the audit's counterexample (`reports/audit.md`, T3), where the printed ε_u falls below "
                          "the exact ε once the printed precondition holds (hollow markers: it fails)."),
        parameters("""m = 1                          # coordinates
gamma = "1"                    # the share of clients on LDPQ
exp_eps = "3"                  # e^ε (α = 2)
radius = "1/100"               # r
delta = "1e-5"                 # δ
n_values = [200, 500, 1000, 1414, 1800]  # clients; the audit's witness is n = 1800
witness_n = 1800"""),
        new_code_cell(SETUP),
        new_code_cell("""gamma, delta, radius = F(gamma), F(delta), F(radius)
alpha = corbin.alpha_of_exp_eps(F(exp_eps))
curve = []
for n in n_values:
    args = (m, n, gamma, delta, radius, alpha)
    exact = corbin.exact_ucdp(n, gamma, delta, alpha, radius=radius)
    printed = corbin.ucdp_printed(*args)
    curve.append({"n": n, "printed": printed["eps_u"], "printed_precondition": printed["precondition"],
                  "cpsgd_proof_units": corbin.ucdp_cpsgd(*args)["eps_u"],
                  "cpsgd_consistent_units": corbin.ucdp_cpsgd(*args, consistent_units=True)["eps_u"],
                  "exact_replace_one": exact["eps"]})
# Removing a client (Eq. (1)) shifts the lattice of the sum: the two laws are disjoint.
assert corbin.exact_ucdp(n_values[0], gamma, delta, alpha, radius=radius, neighbours="remove")["infinite"]
fig, ax = plt.subplots(figsize=(7, 4.5))
corbin_figures.plot_eps_u_vs_n(curve, ax, setting=f"m = {m}, γ = {gamma}, e^ε = {exp_eps}, r = {radius}, δ = {float(delta):g}",
                               witness_n=witness_n)
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
