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
    """Pair MSE of CorBinQ (d = 5) and of two LDPQs over w1, w2 in [-1/2, 1/2], several ε."""
    rows = read_csv(os.path.join(out_dir, "figures", "data", "experiment8.csv"))
    eps_values = sorted({r["eps"] for r in rows})
    fig, axes = plt.subplots(2, len(eps_values), figsize=(4.2 * len(eps_values), 7), squeeze=False)
    for col, eps in enumerate(eps_values):
        sub = [r for r in rows if r["eps"] == eps]
        w1 = sorted({r["w1"] for r in sub})
        w2 = sorted({r["w2"] for r in sub})
        for row_index, key, title in ((0, "mse_corbinq_d5", "CorBinQ, d = 5"), (1, "mse_ldpq", "two LDPQs")):
            grid = [[next(r[key] for r in sub if r["w1"] == a and r["w2"] == b) for a in w1] for b in w2]
            ax = axes[row_index][col]
            image = ax.imshow(grid, origin="lower", extent=(w1[0], w1[-1], w2[0], w2[-1]), cmap="viridis")
            ax.set_title(f"{title}, ε = {eps:g}")
            ax.set_xlabel("w1")
            ax.set_ylabel("w2")
            fig.colorbar(image, ax=ax, label="MSE")
    fig.suptitle("Experiment 8: pair MSE, c = 0, r = 1/2 (exact)")
    fig.tight_layout()
    save_figure(fig, os.path.join(fig_dir, "experiment8_pair_mse.png"), dpi=110)
    plt.close(fig)


def plot_gap_vs_d(rows, ax):
    """rows: dicts with exp_eps, bits, sup_gap, bound (numbers)."""
    for x in sorted({r["exp_eps"] for r in rows}):
        sub = sorted((r for r in rows if r["exp_eps"] == x and r["bits"] <= 16), key=lambda r: r["bits"])
        line, = ax.semilogy([r["bits"] for r in sub], [r["sup_gap"] for r in sub], "o-",
                            label=f"exact sup, e^ε = {x:.3g}")
        ax.semilogy([r["bits"] for r in sub], [r["bound"] for r in sub], "--", color=line.get_color(), alpha=0.6)
    ax.set_xlabel("shared bits d")
    ax.set_ylabel("gap to the d → ∞ optimum (r = 1)")
    ax.set_title("Theorem 1: exact supremum (solid) vs r²α²/2^(d−6) (dashed)")
    ax.legend(fontsize=7)


def gap_vs_d(out_dir, fig_dir):
    """Theorem 1: the exact supremum of the gap against d, with the paper's bound."""
    rows = [{"exp_eps": r["exp_eps_approx"], "bits": r["bits"], "sup_gap": r["sup_gap_approx"],
             "bound": r["bound_approx"]} for r in read_certificate(out_dir, "T1b")["rows"]]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_gap_vs_d(rows, ax)
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


def plot_privacy_utility(rows, ax, n=50):
    """rows: dicts with eps and one key per mechanism (worst-case MSE per coordinate). A column
    that is zero throughout (vanilla FedAvg) has no place on a log scale and is named in the title."""
    eps = [r["eps"] for r in rows]
    zero = []
    for key in rows[0]:
        if key == "eps":
            continue
        values = [r[key] for r in rows]
        if all(v == 0 for v in values):
            zero.append(key)
            continue
        ax.loglog(eps, values, PRIVACY_UTILITY_STYLES.get(key, "-"), label=PRIVACY_UTILITY_LABELS.get(key, key))
    ax.set_xlabel("ε (PLDP per coordinate)")
    ax.set_ylabel("worst-case aggregate MSE per coordinate")
    ax.set_title(f"Privacy–utility, n = {n}, r = 1" + (f" ({', '.join(zero)}: 0)" if zero else ""))
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


def plot_eps_u_vs_n(curve, ax):
    """curve: dicts with n and the keys of EPS_U_CURVES."""
    n = [p["n"] for p in curve]
    for key, label in EPS_U_CURVES:
        ax.loglog(n, [p[key] for p in curve], "o-", label=label)
    ax.set_xlabel("clients n")
    ax.set_ylabel("ε_u at δ = 1e-5")
    ax.set_title("Theorem 3, m = 1 (remove one: ε = ∞ exactly)")
    ax.legend(fontsize=8)


def eps_u_vs_n(out_dir, fig_dir):
    """Theorem 3: ε_u against n, printed, re-derived, exact (m = 1, γ = 1/2, δ = 1e-5, e^ε = 3)."""
    curve = [dict(n=p["n"], **{key: p[key + "_approx"] for key, _ in EPS_U_CURVES})
             for p in read_certificate(out_dir, "T3")["eps_u_against_n"]]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_eps_u_vs_n(curve, ax)
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
