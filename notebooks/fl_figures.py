"""Figures of a federated run, drawn from the rounds.jsonl that `corbin fl` writes: test
accuracy per round, and the live check (the aggregate's empirical MSE on the sampled
coordinates against its exact expectation and the theorems' bound). The experiments script
uses the same functions for its comparisons.

Usage: /usr/bin/python3 notebooks/fl_figures.py RUN_DIR   (writes accuracy.png and mse.png there)
"""
import json
import os
import sys

import matplotlib.pyplot as plt
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


def plot_mse(rows, ax):
    checked = [r for r in rows if r.get("mse_expected") is not None]
    x = [r["round"] for r in checked]
    ax.plot(x, [r["mse_empirical_sampled"] for r in checked], marker="o", ms=3, label="empirical")
    ax.plot(x, [r["mse_expected"] for r in checked], marker="s", ms=3, ls="--", label="exact expectation")
    bounded = [r for r in checked if r.get("mse_bound") is not None]
    if bounded:
        ax.plot([r["round"] for r in bounded], [r["mse_bound"] for r in bounded], ls=":", label="theorem's bound")
    ax.set_yscale("log")
    ax.set_xlabel("round (from 0, as in rounds.jsonl)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("MSE of the aggregate (sampled coordinates)")
    ax.grid(alpha=0.3, which="both")
    ax.legend()


def plot_z(rows, ax):
    checked = [r for r in rows if r.get("mse_z") is not None]
    ax.axhspan(-2, 2, color="0.9")
    ax.plot([r["round"] for r in checked], [r["mse_z"] for r in checked], marker="o", ms=3)
    ax.set_xlabel("round (from 0, as in rounds.jsonl)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("z (empirical − expected)")
    ax.grid(alpha=0.3)


def main(run_dir):
    plt.switch_backend("Agg")
    rows = read_rounds(run_dir)
    if not rows:
        sys.exit(run_dir + "/rounds.jsonl has no rounds")
    title = "{} — {} clients".format(rows[0]["mechanism"], rows[0].get("clients", "?"))
    fig, ax = plt.subplots(figsize=(6, 4))
    plot_accuracy(rows, ax)
    ax.set_title(title)
    if any(r.get("reloaded_best") for r in rows):
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(run_dir, "accuracy.png"), dpi=110)
    plt.close(fig)
    if any(r.get("mse_expected") is not None for r in rows):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        plot_mse(rows, axes[0])
        plot_z(rows, axes[1])
        fig.suptitle(title + ": the live check")
        fig.tight_layout()
        fig.savefig(os.path.join(run_dir, "mse.png"), dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fl-run")
