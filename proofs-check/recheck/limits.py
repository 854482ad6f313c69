"""The rechecker's fixed vocabulary and limits: what a certificate may ask this script to compute
(each limit names the library's own, or says why this value), the precision of its decimal
arithmetic, and where the files beside it are."""
import os
import sys
from decimal import Decimal
from fractions import Fraction as F

# The folder of the entry point (proofs-check/): the Coq proofs are beside it, the project above.
PROOFS_CHECK_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


VARIANTS = ("corrected", "as-printed", "reference-code")
JOINT_KEYS = ("++", "+-", "-+", "--")
# Largest d the library accepts (corbinq.hpp kMaxBits) and largest binomial it sums exactly
# (dropout.hpp kExactBinomialTrials): bounds on what a certificate may ask this script to compute.
kMaxBits = 1 << 15
kExactBinomialTrials = 4000
# Every check evaluates Algorithm 2 at center c = 0 and radius r = 1 (check_*.cpp: `c(0), r(1)`).
CENTER, RADIUS = F(0), F(1)
# The enumeration of all 2^d shared vectors runs as a cross-check of the closed form up to here.
kMaxEnumeratedBits = 10
# Search sizes beyond which an exhaustive recomputation is not attempted (the checks never go
# near them: L1 stops at d = 5, T1c's witness at d = 3).
kMaxLeakageCells = 1 << 12
kMaxOptimisedCells = 1 << 12
# Decimal arithmetic for the transcendental values: kWorkDigits significant digits. The
# certificates print each end of an enclosure with kCertDigits significant digits (rounded), so
# a recomputed value may sit outside the printed ends by one unit in the last printed digit;
# kEnclosureSlack allows ten such units, relative, and the work precision leaves ~30 digits of
# headroom below that.
kWorkDigits = 60
kCertDigits = 30
kEnclosureSlack = Decimal(10) ** -(kCertDigits - 2)
# A `_approx` twin is a double rounded once from the exact value or the enclosure's midpoint
# (error <= 1 ulp = 2^-52 relative); Python's float(Fraction) is correctly rounded (1/2 ulp).
kApproxRelTol = 2.0 ** -51
# Untrusted input (certificates, the results CSV): read at most kMaxInputBytes, parse JSON only
# when nested at most kMaxJsonDepth deep. The largest certificate is ~400 KB on the paper grid
# (T1c; B1 ~62 KB on the quick grid) and the results CSV ~11 KB, so 64 MiB leaves a margin of more
# than 100 while bounding what one file can cost (memory for the parsed tree, the linear depth
# scan, the decimal and exact arithmetic driven by what it lists). The checks nest at most 8
# levels (root object, data, a list of rows or witnesses, a row, a list of atoms, an atom ...):
# 64 leaves a margin of 8 and keeps every recursive walk here far from Python's recursion limit.
kMaxInputBytes = 64 << 20
kMaxJsonDepth = 64
# Clients in an exactly computed population (T3's and S1's replace-one laws, T3's witnesses):
# exact_ucdp.hpp kMaxExactClients, the library's own limit for these laws.
kMaxExactClients = 5000
# Trials of T4u's exact survival sums (two survival_at_least, in big integers: 0.7 s at the
# check's n = 4400, ~7 s at this limit, growing about as n^2.5).
kMaxSurvivalTrials = 10_000
# Largest ε the library accepts (budget.hpp Budget::kMaxEps).
kMaxEps = 10 ** 8
if hasattr(sys, "set_int_max_str_digits"):
    # T3's and T4's exact probabilities have thousands of digits; a bound still applies.
    sys.set_int_max_str_digits(200_000)
