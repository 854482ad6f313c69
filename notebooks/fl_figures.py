"""Figures of a federated run, drawn from the rounds.jsonl (and summary.json) that `corbin fl`
writes: test and validation accuracy per round, the test loss, the privacy spent (the
accountant's certified ε_upper per round, with the run's --target-eps), and the live check (the
aggregate's empirical MSE on the sampled coordinates against its exact expectation and the
paper's bound, named). Rounds are numbered from 0, as in rounds.jsonl. The experiments script
uses the same functions for its comparisons.

Usage: /usr/bin/python3 notebooks/fl_figures.py RUN_DIR
       (writes accuracy.png, loss.png, privacy.png where ε is accounted, and mse.png there)
"""
import json
import os
import sys
import textwrap

import matplotlib.pyplot as plt

from corbin_output import save_figure
from matplotlib.ticker import MaxNLocator


def read_rounds(run_dir):
    with open(os.path.join(run_dir, "rounds.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def plot_accuracy(rows, ax, label=None):
    ax.plot([r["round"] for r in rows], [r["test_accuracy"] for r in rows], marker="o", ms=3, label=label)
    reloads = [r["round"] for r in rows if r.get("reloaded_best")]
    if reloads:
        ax.scatter(reloads, [rows[i - 1]["test_accuracy"] for i in reloads], marker="x", color="k", zorder=3,
                   label="best model reloaded" if label is None else None)
    ax.set_xlabel("round (from 0, as in rounds.jsonl)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("test accuracy")
    ax.grid(alpha=0.3)


# Which bound the live check holds each mechanism's aggregate to (fl/mechanisms/*.cpp).
BOUND_NAMES = {
    "corbin": "paper's bound: Thms 2–3 (d → ∞) + Thm 1's gap r²α²/2^(d−6) per pair",
    "augcorbin": "paper's bound: Thms 2–3 (d → ∞) + Thm 1's gap per pair, (rα)² per lone client",
    "ldp": "paper's bound: (rα)² per client (LDPQ's variance, Appendix C)",
    "gaussian": "the noise's variance σ² per client (exact)",
    "laplace": "the noise's variance 2b² per client (exact)",
}


def plot_validation(rows, ax):
    ax.plot([r["round"] for r in rows], [r["validation_accuracy"] for r in rows], ls="--", marker=".", ms=3,
            label="validation accuracy (chooses the checkpoint)")


def plot_loss(rows, ax):
    finite = [r for r in rows if r.get("test_loss") is not None and r["test_loss"] == r["test_loss"]]
    ax.plot([r["round"] for r in finite], [r["test_loss"] for r in finite], marker="o", ms=3)
    ax.set_yscale("log")
    ax.set_xlabel("round (from 0, as in rounds.jsonl)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("test loss (cross-entropy, log scale)")
    ax.grid(alpha=0.3, which="both")


# The privacy figure's curves: the certified ε_upper after each round, and beside an infinite
# one, a client on LDPQ in every round (rounds.jsonl writes it only there).
PRIVACY_SERIES = (("eps_upper_model", "ε_upper, the model (m parameters)"),
                  ("eps_upper_coordinate", "ε_upper, one coordinate"),
                  ("eps_upper_model_ldpq_role", "ε_upper, the model, a client on LDPQ every round"))


def finite_rows(rows, key):
    return [r for r in rows if isinstance(r.get(key), (int, float)) and not isinstance(r.get(key), bool)]


def privacy_caption(rows):
    """What the privacy figure says in words where the run's own bound is not finite: never that no
    finite ε is certified while a finite curve is drawn (the curves drawn are named), and nothing
    where the model's bound is finite in some round (its curve says it)."""
    if finite_rows(rows, "eps_upper_model"):
        return None
    drawn = [label for key, label in PRIVACY_SERIES[1:] if finite_rows(rows, key)]
    if not drawn:
        return "no finite ε certified in any round"
    return "the model: no finite ε certified in any round (drawn: " + "; ".join(drawn) + ")"


def plot_privacy(rows, ax, target=None, infinite_because=None):
    """The accountant's certified ε_upper after each round, for the model's m parameters and for
    one coordinate, and a client on LDPQ every round where the model's is infinite; rounds where
    no finite ε is certified are marked on the top edge, and the caption (privacy_caption) and
    `infinite_because` (summary.json's reason) say so in words."""
    for key, label in PRIVACY_SERIES:
        finite = finite_rows(rows, key)
        if finite:
            ax.plot([r["round"] for r in finite], [r[key] for r in finite], marker="o", ms=3, label=label,
                    ls="--" if key.endswith("_ldpq_role") else "-")
        infinite = [r["round"] for r in rows if r.get(key) == "infinite"]
        if infinite:
            ax.scatter(infinite, [1] * len(infinite), marker="^", color="r", transform=ax.get_xaxis_transform(),
                       clip_on=False, label=label + ": infinite", zorder=3)
    if target is not None:
        ax.axhline(target, color="k", ls=":", label="--target-eps {:g}".format(target))
    if any(finite_rows(rows, key) for key, _ in PRIVACY_SERIES) or target is not None:
        ax.set_yscale("log")
    caption = privacy_caption(rows)
    if caption:
        text = "\n".join(textwrap.fill(t, 72) for t in (caption, infinite_because) if t)
        ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", fontsize=7,
                bbox=dict(facecolor="white", alpha=0.8, edgecolor="0.7"))
    ax.set_xlabel("round (from 0, as in rounds.jsonl)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("certified ε at the run's δ")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)


def plot_mse(rows, ax):
    checked = [r for r in rows if r.get("mse_expected") is not None]
    x = [r["round"] for r in checked]
    ax.plot(x, [r["mse_empirical_sampled"] for r in checked], marker="o", ms=3, label="empirical")
    ax.plot(x, [r["mse_expected"] for r in checked], marker="s", ms=3, ls="--", label="exact expectation")
    bounded = [r for r in checked if r.get("mse_bound") is not None]
    if bounded:
        ax.plot([r["round"] for r in bounded], [r["mse_bound"] for r in bounded], ls=":",
                label=BOUND_NAMES.get(rows[0].get("mechanism"), "the paper's bound"))
    ax.set_yscale("log")
    ax.set_xlabel("round (from 0, as in rounds.jsonl)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("MSE of the aggregate (sampled coordinates)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)


def plot_z(rows, ax):
    checked = [r for r in rows if r.get("mse_z") is not None]
    # The band: |z| <= 2, where about 95 % of rounds fall when the exact expectation is right.
    ax.axhspan(-2, 2, color="0.9", label="|z| <= 2 (about 95 % of rounds if the law is right)")
    ax.plot([r["round"] for r in checked], [r["mse_z"] for r in checked], marker="o", ms=3)
    ax.set_xlabel("round (from 0, as in rounds.jsonl)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("z = (empirical − expected) / sd")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)


def drop_stale(path):
    """A figure this run has nothing for is removed, not left from an earlier run in the folder."""
    if os.path.isfile(path) and not os.path.islink(path):
        os.remove(path)


def main(run_dir):
    plt.switch_backend("Agg")
    rows = read_rounds(run_dir)
    if not rows:
        sys.exit(run_dir + "/rounds.jsonl has no rounds")
    title = "{} — {} clients".format(rows[0]["mechanism"], rows[0].get("clients", "?"))
    summary_path = os.path.join(run_dir, "summary.json")
    summary = json.load(open(summary_path)) if os.path.exists(summary_path) else {}
    fig, ax = plt.subplots(figsize=(6, 4))
    plot_accuracy(rows, ax, label="test accuracy")
    plot_validation(rows, ax)
    ax.set_ylabel("accuracy")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, os.path.join(run_dir, "accuracy.png"), dpi=110)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 4))
    plot_loss(rows, ax)
    ax.set_title(title + ": test loss")
    fig.tight_layout()
    save_figure(fig, os.path.join(run_dir, "loss.png"), dpi=110)
    plt.close(fig)
    privacy = os.path.join(run_dir, "privacy.png")
    if any(r.get("eps_upper_model") is not None for r in rows):
        fig, ax = plt.subplots(figsize=(6, 4))
        accounted = summary.get("privacy") or {}
        plot_privacy(rows, ax, summary.get("target_eps"), accounted.get("infinite_because"))
        ax.set_title(title + ": privacy spent (certified, worst client)")
        fig.tight_layout()
        save_figure(fig, privacy, dpi=110)
        plt.close(fig)
    else:
        drop_stale(privacy)
    if any(r.get("mse_expected") is not None for r in rows):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        plot_mse(rows, axes[0])
        plot_z(rows, axes[1])
        fig.suptitle(title + ": the live check")
        fig.tight_layout()
        save_figure(fig, os.path.join(run_dir, "mse.png"), dpi=110)
        plt.close(fig)
    else:
        drop_stale(os.path.join(run_dir, "mse.png"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fl-run")
