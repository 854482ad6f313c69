"""corbin account --mechanism laplace --neighbours remove held to a reviewer's independent brute
force (proofs-check/reference/laplace_remove, written from the mechanism's description without
reading the accountant): each of its three parts with --quick (no dropout T = 1: --at-eps over a grid
of client 1's input, and --delta; T = 2 rounds of m = 2, 3 coordinates by a PLD bracket; dropout
with m = 1: the sum alone as run, and the others' survival known), every delta_upper / eps_upper at or
above the truth, every lower end at or below it. A part exits 1 on any violation (it prints
"VIOLATIONS k"); this test fails if any part does not exit 0. The runner
is tests/reference_parts.py (the CLI: the first argument, else CORBIN_CLI, else CORBIN, else
build/analysis/corbin)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_parts import run  # noqa: E402

run("laplace_remove", [("part1", "no dropout, T=1, --at-eps and --delta"), ("part2", "no dropout, T=2, m=2,3"),
                       ("part3", "dropout, m=1")])
