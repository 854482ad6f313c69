"""PLDP of one CorBinQ client (Eq. (LDP), condition C5), every reading of Algorithm 2 (A2, R1),
in closed form and, for the self-test, by a search over every cell end."""
import math
from fractions import Fraction as F

from .algorithm2 import joint_from_cells, marginals, threshold_range
from .exact import floor_frac


UNBOUNDED = "unbounded"


def ratio_max(a, b):
    if a is None:
        return b
    if UNBOUNDED in (a, b):
        return UNBOUNDED
    return max(a, b)


def own_sign_envelopes(client, variant, n, lo, hi):
    """(sup, inf) of g = 2^d · P(own sign) over the client's position in [lo, hi], one pair per
    partner case that can be extremal; the own sign is + for the leader, − for the follower.

    Corrected (and the leader as printed): g = Σ_z P(own sign | z) = a + f is the position
    itself, increasing and continuous: sup hi, inf lo. Reference code: the same except g = 2^d
    on the top cell. The follower as printed, with the leader in cell A:
    g_A(v) = a + f · max(0, A − a + 1), increasing on each cell with limit A + 1 at its right end
    when a <= A, equal to a when a > A. So inf g_A = min(g_A(lo), L + 1) and sup g_A = H for
    A < H; for A = H, sup = H + 1 (a limit) when L < H. The inf grows with A, so A = L and
    A = H are the only candidates (L, H the cells of lo, hi)."""
    low_cell, high_cell = math.floor(lo), math.floor(hi)
    if variant == "reference-code":
        top = n - 1
        return [(F(n) if high_cell == top else hi, F(n) if low_cell == top else lo)]
    if client == 1 or variant == "corrected" or low_cell == high_cell:
        return [(hi, lo)]
    frac_lo = lo - low_cell
    return [(F(high_cell), lo),
            (F(high_cell + 1), min(low_cell + frac_lo * (high_cell - low_cell + 1), F(low_cell + 1)))]


def pldp_table(alpha, d, variant):
    """sup over the partner's and the client's own inputs of P(o | w)/P(o | w') for each
    (client, output); outputs +1 (c + rα) and −1 (c − rα). UNBOUNDED when some output has
    probability 0 (or tending to 0) for one input and > 0 for another; an output that never
    occurs puts no constraint."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    table = {}
    for client in (1, 2):
        own = 1 if client == 1 else -1
        for g_sup, g_inf in own_sign_envelopes(client, variant, n, lo, hi):
            for output in (1, -1):
                top, bottom = (g_sup, g_inf) if output == own else (n - g_inf, n - g_sup)
                if top == 0:
                    continue
                ratio = UNBOUNDED if bottom == 0 else top / bottom
                table[(client, output)] = ratio_max(table.get((client, output)), ratio)
    return table


def pldp_sup(alpha, d, variant):
    result = None
    for ratio in pldp_table(alpha, d, variant).values():
        result = ratio_max(result, ratio)
    return result


def client_plus(client, own_cell, partner_cell, n, variant):
    """P(the client outputs c + rα) with its own and its partner's threshold cells."""
    if client == 1:
        return marginals(joint_from_cells(own_cell, partner_cell, n, variant))[0]
    return marginals(joint_from_cells(partner_cell, own_cell, n, variant))[1]


def cells_at(position, lo):
    """The cell at a threshold position, and the limit from its left when the position is an
    integer above lo (the check reports such a limit by the input at the position)."""
    a, f = floor_frac(position)
    out = [((a, f), True)]
    if f == 0 and position > lo:
        out.append(((a - 1, F(1)), False))
    return out


def all_cell_ends(lo, hi):
    """Every end of every threshold cell meeting [lo, hi]; right ends as limits (f = 1)."""
    low_cell, high_cell = math.floor(lo), math.floor(hi)
    ends = []
    for a in range(low_cell, high_cell + 1):
        ends.append((a, max(F(0), lo - a)))
        ends.append((a, hi - a) if a == high_cell else (a, F(1)))
    return ends


def pldp_brute_force(alpha, d, variant):
    """pldp_sup by evaluating the closed-form law at every cell end of both clients (the law is
    affine in each client's fractional part inside a cell); for the self-test."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    ends = all_cell_ends(lo, hi)
    result = None
    for client in (1, 2):
        for partner in ends:
            plus = [client_plus(client, own, partner, n, variant) for own in ends]
            for probs in (plus, [1 - p for p in plus]):
                if max(probs) == 0:
                    continue
                result = ratio_max(result, UNBOUNDED if min(probs) == 0 else max(probs) / min(probs))
    return result
