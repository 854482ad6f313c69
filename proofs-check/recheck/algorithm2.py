"""Algorithms 1 and 2 of the paper, in the three readings of Algorithm 2 (corrected, as-printed,
reference-code), each implemented from the paper and REFERENCES.md twice: an O(1) closed form
over the threshold cells, and an enumeration of every shared vector Z for small d; the two are
compared wherever both run (checked_joint_law)."""
from fractions import Fraction as F

from .exact import floor_frac
from .limits import JOINT_KEYS, kMaxEnumeratedBits
from .report import InternalError


def alpha_of(exp_eps):
    """Alg. 1, line 1: α = (e^ε + 1)/(e^ε − 1)."""
    return (exp_eps + 1) / (exp_eps - 1)


def ldpq_q(alpha, c, r, w):
    """Alg. 1, line 2: q = 1/2 + (w − c)/(2rα), the probability of the output c + rα."""
    return F(1, 2) + (w - c) / (2 * r * alpha)


def threshold_range(alpha, n):
    """Alg. 2, line 3: the leader's position 2^d q(w) over w in [c − r, c + r] is
    [n(1 − 1/α)/2, n(1 + 1/α)/2]; the follower's 2^d (1 − q(w')) covers the same range."""
    return n * (1 - 1 / alpha) / 2, n * (1 + 1 / alpha) / 2


def tie_probability(cell, n, variant):
    """P(own sign | Z = T): the fractional part (Alg. 2, lines 9 and 17); in the reference code
    (REFERENCES.md) idx' = 2^d − 2 at the top cell 2^d − 1, so (P − idx'/2^d)·2^d >= 1."""
    a, f = cell
    return F(1) if variant == "reference-code" and a == n - 1 else f


def joint_from_cells(u_cell, v_cell, n, variant):
    """The exact joint law of Alg. 2 from the threshold cells u = 2^d q1 = a1 + f1 and
    v = 2^d (1 − q2) = a2 + f2 (f = 1 stands for the limit from the left of a + 1); O(1) in d.

    Z is uniform on {0, …, 2^d − 1} (lexicographic order of d bits is integer order). Given
    Z = z the clients are independent, and each conditional law is piecewise constant in z:
      P(Q1 = + | z) = 1 on [0, a1), the tie probability at a1, 0 beyond (lines 4-11);
      P(Q2 = − | z) = 1 on [0, a2), the tie probability at a2, 0 beyond (lines 12-19, line 14
        comparing with T2), or, as printed (line 14 compares with T1), 1 on [0, a2), f2 on
        [a2, a1] (the ELSE branch, T2 ⪯ Z ⪯ T1) and 0 beyond.
    So P(Q1 = +, Q2 = −) is the overlap sum of the two, and the other cells follow from the
    sums of each."""
    a1, _ = u_cell
    a2, f2 = v_cell
    plus1 = [(0, a1, F(1)), (a1, a1 + 1, tie_probability(u_cell, n, variant))]
    if variant == "as-printed":
        minus2 = [(0, a2, F(1)), (a2, a1 + 1, f2)]
    else:
        minus2 = [(0, a2, F(1)), (a2, a2 + 1, tie_probability(v_cell, n, variant))]

    def total(pieces):
        return sum((max(0, min(e, n) - max(b, 0)) * v for b, e, v in pieces), F(0))

    s1, s2 = total(plus1), total(minus2)
    s12 = sum((max(0, min(e1, e2, n) - max(b1, b2, 0)) * v1 * v2
               for b1, e1, v1 in plus1 for b2, e2, v2 in minus2), F(0))
    return {"++": (s1 - s12) / n, "+-": s12 / n, "-+": (n - s1 - s2 + s12) / n, "--": (s2 - s12) / n}


def joint_law(alpha, c, r, w1, w2, d, variant):
    """Alg. 2's exact joint law (closed form) for the leader's w1 and the follower's w2."""
    n = 2 ** d
    return joint_from_cells(floor_frac(n * ldpq_q(alpha, c, r, w1)), floor_frac(n * (1 - ldpq_q(alpha, c, r, w2))),
                            n, variant)


def enumerate_joint(alpha, c, r, w1, w2, d, variant):
    """The same law by running Alg. 2 for every shared vector Z = z in {0, …, 2^d − 1}."""
    n = 2 ** d
    u = n * ldpq_q(alpha, c, r, w1)          # leader's threshold position
    v = n * (1 - ldpq_q(alpha, c, r, w2))    # follower's
    a1, f1 = floor_frac(u)
    a2, f2 = floor_frac(v)

    def tie(a, f):
        return F(1) if variant == "reference-code" and a == n - 1 else f

    law = dict.fromkeys(JOINT_KEYS, F(0))
    for z in range(n):
        p1 = F(1) if z < a1 else tie(a1, f1) if z == a1 else F(0)      # P(Q1 = + | z)
        if variant == "as-printed":
            # Line 14 as printed: ELSIF T1 ≺ Z -> "+"; otherwise "−" with probability f2.
            m2 = F(1) if z < a2 else f2 if z <= a1 else F(0)
        else:
            m2 = F(1) if z < a2 else tie(a2, f2) if z == a2 else F(0)  # P(Q2 = − | z)
        law["++"] += p1 * (1 - m2) / n
        law["+-"] += p1 * m2 / n
        law["-+"] += (1 - p1) * (1 - m2) / n
        law["--"] += (1 - p1) * m2 / n
    return law


def checked_joint_law(alpha, c, r, w1, w2, d, variant):
    """The closed form, compared with the enumeration when d <= kMaxEnumeratedBits."""
    law = joint_law(alpha, c, r, w1, w2, d, variant)
    if d <= kMaxEnumeratedBits and law != enumerate_joint(alpha, c, r, w1, w2, d, variant):
        raise InternalError(f"closed form != enumeration at alpha={alpha} w1={w1} w2={w2} d={d} {variant}")
    return law


def marginals(law):
    """(P(Q1 = c + rα), P(Q2 = c + rα))."""
    return law["++"] + law["+-"], law["++"] + law["-+"]
