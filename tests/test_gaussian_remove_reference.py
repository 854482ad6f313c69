"""corbin account --mechanism gaussian --neighbours remove held to a reviewer's independent brute
force (proofs-check/reference/gaussian_remove, written without reading the accountant): each of its
four parts with --quick (no dropout T = 1 with --at-eps, T = 2, dropout with m = 1 and m = 2), every
eps_upper at or above the exact truth, every eps_lower at or below the as-run truth. A part exits 1
on any violation (it prints "VIOLATIONS k"); this test fails if any part does not exit 0. The runner
is tests/reference_parts.py (the CLI: the first argument, else CORBIN_CLI, else CORBIN, else
build/analysis/corbin)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_parts import run  # noqa: E402

run("gaussian_remove", [("part1", "no dropout, T=1, eps(delta) and --at-eps"), ("part2", "no dropout, T=2"),
                        ("part3", "dropout, m=1"), ("part4", "dropout, m=2")])
