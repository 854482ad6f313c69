"""The audit's figures, drawn from the data `corbin audit` writes (DIR/figures/data/*.csv and
DIR/certificates/*.json). The notebooks import the same functions, so the report and the
notebooks show the same pictures.

Usage: /usr/bin/python3 notebooks/corbin_figures.py DIR
"""
import csv
import json
import os
import sys

import matplotlib.pyplot as plt

from corbin_output import save_figure


def read_csv(path):
    """Numbers by column; an empty cell (no value at that row) is NaN."""
    with open(path) as f:
        return [{k: float(v) if v != "" else float("nan") for k, v in row.items()} for row in csv.DictReader(f)]


def read_certificate(out_dir, claim):
    with open(os.path.join(out_dir, "certificates", claim + ".json")) as f:
        return json.load(f)["data"]


def experiment8(out_dir, fig_dir):
    """Pair MSE of CorBinQ (d = 5) and of two LDPQs over w1, w2 in [-1/2, 1/2], several ε, and their
    difference, the gap X8 is about (one colour scale per row, shared across ε)."""
    rows = read_csv(os.path.join(out_dir, "figures", "data", "experiment8.csv"))
    for r in rows:
        r["gap"] = r["mse_ldpq"] - r["mse_corbinq_d5"]
    eps_values = sorted({r["eps"] for r in rows})
    panels = (("mse_corbinq_d5", "CorBinQ, d = 5"), ("mse_ldpq", "two LDPQs"), ("gap", "gap: LDPQs − CorBinQ"))
    fig, axes = plt.subplots(len(panels), len(eps_values), figsize=(4.2 * len(eps_values), 10), squeeze=False)
    for row_index, (key, title) in enumerate(panels):
        low, high = min(r[key] for r in rows), max(r[key] for r in rows)
        for col, eps in enumerate(eps_values):
            sub = [r for r in rows if r["eps"] == eps]
            w1 = sorted({r["w1"] for r in sub})
            w2 = sorted({r["w2"] for r in sub})
            grid = [[next(r[key] for r in sub if r["w1"] == a and r["w2"] == b) for a in w1] for b in w2]
            ax = axes[row_index][col]
            image = ax.imshow(grid, origin="lower", extent=(w1[0], w1[-1], w2[0], w2[-1]), cmap="viridis",
                              vmin=low, vmax=high)
            ax.set_title(f"{title}, ε = {eps:g}")
            ax.set_xlabel("w1")
            ax.set_ylabel("w2")
            fig.colorbar(image, ax=ax, label="MSE")
    fig.suptitle("Experiment 8: exact pair MSE and X8's gap (bottom row), c = 0, r = 1/2, d = 5")
    fig.tight_layout()
    save_figure(fig, os.path.join(fig_dir, "experiment8_pair_mse.png"), dpi=110)
    plt.close(fig)


def plot_gap_vs_d(rows, ax, center="0", radius="1"):
    """rows: dicts with exp_eps, bits, sup_gap, bound (numbers), at levels c ± rα."""
    for x in sorted({r["exp_eps"] for r in rows}):
        sub = sorted((r for r in rows if r["exp_eps"] == x and r["bits"] <= 16), key=lambda r: r["bits"])
        line, = ax.semilogy([r["bits"] for r in sub], [r["sup_gap"] for r in sub], "o-",
                            label=f"exact sup, e^ε = {x:.3g}")
        ax.semilogy([r["bits"] for r in sub], [r["bound"] for r in sub], "--", color=line.get_color(), alpha=0.6)
    ax.set_xlabel("shared bits d")
    ax.set_ylabel(f"gap to the d → ∞ optimum (c = {center}, r = {radius})")
    ax.set_title("Levels c ± rα: exact supremum (solid) vs r²α²/2^(d−6) (dashed)")
    ax.legend(fontsize=7)


def plot_bound_at_witness(witnesses, ax):
    """Eq. (th:1:opt) at the printed reading's witness, against d: CorBinQ's MSE and the right-hand
    side, the competitor's MSE plus r²α²/2^(d−6). witnesses: check_t1b's free_levels_pair items."""
    w = witnesses[0]
    d = [x["bits"] for x in witnesses]
    corbinq = [x["corbinq_mse_approx"] for x in witnesses]
    rhs = [x["competitor_mse_approx"] + x["thm1_bound_approx"] for x in witnesses]
    ax.semilogy(d, corbinq, "o-", label="CorBinQ's MSE m(Q1, Q2, w, w′)")
    ax.semilogy(d, rhs, "s--", label="right side: a pair with levels " + " and ".join(w["competitor_levels"]) +
                                     f" (MSE {w['competitor_mse_approx']:g}) + r²α²/2^(d−6)")
    failing = [x["bits"] for x in witnesses if x["refutes"]]
    if failing:
        ax.axvspan(min(failing) - 0.5, max(d) + 0.5, color="tab:red", alpha=0.08, label=f"fails: d >= {min(failing)}")
    ax.set_xlabel("shared bits d")
    ax.set_ylabel("MSE")
    ax.set_title(f"As printed, at the witness: c = {w['center']}, r = {w['radius']}, e^ε = {w['exp_eps']}, "
                 f"w = w′ = {w['w1']}", fontsize=9)
    ax.legend(fontsize=7)


def gap_vs_d(out_dir, fig_dir):
    """Theorem 1: the printed bound at its witness against d (left), and with levels c ± rα the
    exact supremum of the gap against d with the paper's bound (right)."""
    data = read_certificate(out_dir, "T1b")
    rows = [{"exp_eps": r["exp_eps_approx"], "bits": r["bits"], "sup_gap": r["sup_gap_approx"],
             "bound": r["bound_approx"]} for r in data["rows"]]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    plot_bound_at_witness(data["witness_against_d"], left)
    plot_gap_vs_d(rows, right)
    fig.suptitle("Theorem 1, Eq. (th:1:opt)")
    fig.tight_layout()
    save_figure(fig, os.path.join(fig_dir, "t1b_gap_vs_d.png"), dpi=110)
    plt.close(fig)


# The columns are the registry's mechanisms (fl::Mechanism::worst_aggregate_mse), named as the
# rooms name them; these say how the audit set them up. A mechanism not listed is drawn under its
# own name, so a new room shows up without a change here.
PRIVACY_UTILITY_LABELS = {
    "ldp": "LDP-FL", "corbin": "CorBin-FL (d = 5: the d → ∞ worst case)", "augcorbin": "AugCorBin-FL, γ = 1/2",
    "gaussian": "Gaussian (analytic, δ = 1e-5)", "laplace": "Laplace", "pbm1": "PBM, m = 1 (= LDP-FL)",
    "pbm2": "PBM, m = 2", "rqm2": "RQM, m = 2 (= LDP-FL)", "rqm3": "RQM, m = 3",
}
# PBM (m = 1) and RQM (m = 2) are LDPQ: drawn dashed and dotted over LDP-FL's line.
PRIVACY_UTILITY_STYLES = {"pbm1": "--", "rqm2": ":"}


def plot_privacy_utility(rows, ax, n=50, r=1, labels=None):
    """rows: dicts with eps and one key per mechanism (worst-case MSE per coordinate), at n clients
    and radius r; labels: the curves' names where they differ from PRIVACY_UTILITY_LABELS (the
    audit's setting). A column that is zero throughout (vanilla FedAvg) has no place on a log scale
    and is named in the title."""
    labels = {**PRIVACY_UTILITY_LABELS, **(labels or {})}
    eps = [r["eps"] for r in rows]
    zero = []
    for key in rows[0]:
        if key == "eps":
            continue
        values = [r[key] for r in rows]
        if all(v == 0 for v in values):
            zero.append(key)
            continue
        ax.loglog(eps, values, PRIVACY_UTILITY_STYLES.get(key, "-"), label=labels.get(key, key))
    ax.set_xlabel("ε (PLDP per coordinate)")
    ax.set_ylabel("worst-case aggregate MSE per coordinate")
    ax.set_title(f"Privacy–utility, n = {n}, r = {r}" + (f" ({', '.join(zero)}: 0)" if zero else ""))
    ax.legend(fontsize=8)


def privacy_utility(out_dir, fig_dir):
    """Worst-case aggregate MSE per coordinate against ε, n = 50, r = 1."""
    rows = read_csv(os.path.join(out_dir, "figures", "data", "privacy_utility.csv"))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_privacy_utility(rows, ax)
    fig.tight_layout()
    save_figure(fig, os.path.join(fig_dir, "privacy_utility.png"), dpi=110)
    plt.close(fig)


EPS_U_CURVES = (("printed", "Eq. (th:3:1) as printed"), ("cpsgd_proof_units", "cpSGD, proof's units"),
                ("cpsgd_consistent_units", "cpSGD, consistent units"), ("exact_replace_one", "exact (replace one)"))


def plot_eps_u_vs_n(curve, ax, setting=None, witness_n=None, precondition_from=None):
    """curve: dicts with n, the keys of EPS_U_CURVES and optionally printed_precondition (a hollow
    marker where it fails); setting: the words for the title (the parameters every point shares);
    witness_n: marked; precondition_from: the least n meeting the printed precondition (a dotted
    line; by default the least point meeting it, where some point does not)."""
    n = [p["n"] for p in curve]
    met = [p.get("printed_precondition", True) for p in curve]
    for key, label in EPS_U_CURVES:
        line, = ax.loglog(n, [p[key] for p in curve], "-", label=label)
        for filled in (True, False):
            points = [(x, p[key]) for x, p, m in zip(n, curve, met) if m == filled]
            if points:
                ax.loglog(*zip(*points), "o", color=line.get_color(),
                          markerfacecolor=line.get_color() if filled else "none")
    if precondition_from is None and not all(met) and any(met):
        precondition_from = min(x for x, m in zip(n, met) if m)
    if precondition_from is not None:
        ax.axvline(precondition_from, color="grey", linestyle=":",
                   label=f"printed precondition holds from n = {precondition_from}")
    if witness_n is not None:
        ax.axvline(witness_n, color="tab:red", alpha=0.4, label=f"witness n = {witness_n}")
    ax.set_xlabel("clients n")
    ax.set_ylabel("ε_u")
    ax.set_title("Theorem 3" + (f": {setting}" if setting else "") + " (remove one: ε = ∞)", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))


def eps_u_vs_n(out_dir, fig_dir):
    """Theorem 3: ε_u against n, printed, re-derived, exact, at the counterexample's setting (only
    n moves; hollow markers where the printed precondition fails)."""
    data = read_certificate(out_dir, "T3")
    cx = data["counterexample"]
    curve = [dict(n=p["n"], printed_precondition=p["printed_precondition"],
                  **{key: p[key + "_approx"] for key, _ in EPS_U_CURVES}) for p in data["eps_u_against_n"]]
    setting = (f"m = {cx['m']}, γ = {cx['gamma']}, α = {cx['alpha']}, r = {cx['radius']}, "
               f"δ = {cx['delta_approx']:g}")
    fig, ax = plt.subplots(figsize=(9.5, 4.5))
    plot_eps_u_vs_n(curve, ax, setting=setting, witness_n=cx["n"], precondition_from=data["printed_precondition_from_n"])
    fig.tight_layout()
    save_figure(fig, os.path.join(fig_dir, "t3_eps_u_vs_n.png"), dpi=110)
    plt.close(fig)


def main(out_dir):
    plt.switch_backend("Agg")  # files only; notebooks keep their inline backend
    fig_dir = os.path.join(out_dir, "figures")
    os.makedirs(fig_dir, exist_ok=True)
    for draw in (experiment8, gap_vs_d, privacy_utility, eps_u_vs_n):
        draw(out_dir, fig_dir)
        print("drew", draw.__name__)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "reports")
