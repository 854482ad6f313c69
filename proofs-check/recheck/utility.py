"""The pair's MSE, the d → ∞ optimum it is compared with (T1b, T1u, T2b, T2c, X8), Thm 1's gap
bound, and the best pair sharing d bits (T1c)."""
import math
from fractions import Fraction as F

from .algorithm2 import threshold_range
from .exact import floor_frac
from .limits import RADIUS


def pair_mse(law, level, x, y):
    """E[(Q1 + Q2 − w1 − w2)²] with outputs c ± L, x = w1 − c, y = w2 − c."""
    s = x + y
    return law["++"] * (2 * level - s) ** 2 + (law["+-"] + law["-+"]) * s ** 2 + law["--"] * (2 * level + s) ** 2


def optimal_law(q1, q2):
    """The d → ∞ coupling of two LDPQ marginals (countermonotone): P(++) = max(0, q1 + q2 − 1)."""
    pp, mm = max(F(0), q1 + q2 - 1), max(F(0), 1 - q1 - q2)
    return {"++": pp, "--": mm, "+-": q1 - pp, "-+": q2 - pp}


def independent_law(q1, q2):
    """Two independent LDPQs (LDP-FL)."""
    return {"++": q1 * q2, "+-": q1 * (1 - q2), "-+": (1 - q1) * q2, "--": (1 - q1) * (1 - q2)}


def sup_gap(alpha, d, r=RADIUS):
    """sup over w1, w2 in [c − r, c + r] of MSE(CorBinQ) − MSE(optimal coupling), corrected.

    With outputs c ± L (L = rα) and fixed LDPQ marginals, E[(Q1 + Q2 − w1 − w2)²] =
    2L² + 2E[XY] − s², E[XY] = L²(4P(++) + 1 − 2q1 − 2q2): the gap is 8L²(P(++) − P*(++)),
    P*(++) = max(0, q1 + q2 − 1) = max(0, u − v)/2^d. From joint_from_cells, P(++)·2^d =
    max(0, u − v) when u and v lie in different cells and f1(1 − f2) in the same cell, so the
    gap is 8L² min(f1, f2)(1 − max(f1, f2))/2^d in a shared cell, 0 otherwise. Both positions
    range over [lo, hi]; the sup puts both at the same t, the point of the cell's feasible
    range nearest 1/2: 8L² max_t t(1 − t)/2^d over the cells of lo and hi and one interior cell."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    low_cell, high_cell = math.floor(lo), math.floor(hi)
    cells = {low_cell, high_cell} | ({low_cell + 1} if high_cell - low_cell >= 2 else set())
    best = F(0)
    for a in cells:
        start, end = max(lo - a, F(0)), min(hi - a, F(1))
        t = min(max(F(1, 2), start), end)
        best = max(best, t * (1 - t))
    level = r * alpha
    return 8 * level * level * best / n


def paper_gap_bound(alpha, d, r=RADIUS):
    """Thm 1: r²α²/2^(d−6)."""
    return r * r * alpha * alpha * F(64, 2 ** d)


def sup_optimal_pair_mse(alpha, r=RADIUS):
    """sup over inputs of the d → ∞ pair MSE M = 2L|s| − s², s = (w1 − c) + (w2 − c) in
    [−2r, 2r]: L² at |s| = L when L <= 2r (α <= 2), else 4rL − 4r² = 4r²(α − 1) at |s| = 2r."""
    level = r * alpha
    return level * level if level <= 2 * r else 4 * r * level - 4 * r * r


def min_pp_over_d_bit_pairs(q1, q2, n):
    """min of P(++) = Σ_z p1(z) p2(z)/2^d over conditional laws with Σ p_i = 2^d q_i, p_i in
    [0, 1] (a pair that even sees both inputs). The bilinear minimum sits at a vertex of each
    polytope; every vertex p1 has the same entries (⌊s1⌋ ones, one fraction, zeros), and the
    best p2 fills the cells where p1 is smallest."""
    s1, s2 = n * q1, n * q2
    ones, fraction = floor_frac(s1)
    p1 = [F(0)] * (n - ones - (1 if fraction else 0)) + ([fraction] if fraction else []) + [F(1)] * ones
    total = F(0)
    for p in p1:
        take = min(s2, F(1))
        if take <= 0:
            break
        total += take * p
        s2 -= take
    return total / n
