"""Theorem 3's ε_u as printed (Eq. (th:3:1)) and through cpSGD, in decimal at the caller's
precision; and the exact replace-one e^ε of a population of LDPQ clients (T3, S1), whose worst
case over the other clients' inputs is screened in double precision and decided exactly."""
import math
from decimal import Decimal
from fractions import Fraction as F

from .exact import dec, decide_at_least


def theorem3_printed(n, gamma, delta, radius, alpha, m):
    """Eq. (th:3:1) and its precondition as printed, natural logarithms, the second term read as
    8(ln(1.25/δ) + ln(20m/δ) ln(10/δ))/(3(nγ − 1)). Returns (ε_u, precondition holds)."""
    big_n = dec(n * gamma - 1)
    a, d_ = dec(alpha), dec(delta)
    l125, l10, l20m = (Decimal("1.25") / d_).ln(), (10 / d_).ln(), (20 * m / d_).ln()
    e_p = 1 + 1 / (a * a)
    b_p = e_p / 3 + 1 / a
    eps_u = dec(radius) * a * ((8 * m * l125 / (big_n * e_p)).sqrt() + 8 * (l125 + l20m * l10) / (3 * big_n)
                              + 4 * b_p * Decimal(2 * m).sqrt() * (Decimal("1.75") + Decimal("3.75") / (a * a))
                              * l10.sqrt() / (big_n * (1 - d_ / 10) * e_p))
    lhs = big_n * (Decimal(1) / 4 - 1 / (4 * a * a))
    rhs = max(23 * (m / d_).ln(), 2 * dec(radius) * a)
    return eps_u, decide_at_least(lhs, rhs, "Thm 3's printed precondition")


def cpsgd_theorem1(big_n, p, s, d1, d2, dinf, dim, delta):
    """cpSGD Thm 1 (REFERENCES.md) for f(D) + s(Z − Np), Z ~ Binomial(N, p) per coordinate.
    Returns (ε, precondition N p(1 − p) >= max(23 ln(10 dim/δ), 2Δ∞/s))."""
    q = 1 - p
    sq = p * p + q * q
    b_p = Decimal(2) / 3 * sq + 1 - 2 * p
    c_p = Decimal(2).sqrt() * (3 * p ** 3 + 3 * q ** 3 + 2 * p * p + 2 * q * q)
    d_p = Decimal(4) / 3 * sq
    npq = big_n * p * q
    l125, l10, l20d = (Decimal("1.25") / delta).ln(), (10 / delta).ln(), (20 * dim / delta).ln()
    eps = (d2 * (2 * l125).sqrt() / (s * npq.sqrt()) + (d2 * c_p * l10.sqrt() + d1 * b_p) / (s * npq * (1 - delta / 10))
           + (Decimal(2) / 3 * dinf * l125 + dinf * d_p * l20d * l10) / (s * npq))
    precondition = decide_at_least(npq, max(23 * (10 * dim / delta).ln(), 2 * dinf / s), "cpSGD's precondition")
    return eps, precondition


def theorem3_cpsgd(n, gamma, delta, radius, alpha, m, consistent_units):
    """The proof's substitutions into cpSGD (REFERENCES.md): N = nγ − 1, p = 1/2 − 1/(2α), s = 2,
    Δ1 = 2mrα, Δ2 = 2√m rα, Δ∞ = 2rα, dim = m. With consistent units the noise step is the
    released sum's own unit, s = 2rα (a ratio of probabilities cannot depend on r)."""
    a, ra = dec(alpha), dec(radius * alpha)
    s = 2 * ra if consistent_units else Decimal(2)
    return cpsgd_theorem1(dec(n * gamma - 1), Decimal(1) / 2 - 1 / (2 * a), s, 2 * m * ra, 2 * Decimal(m).sqrt() * ra,
                          2 * ra, m, dec(delta))


def smallest_exp_eps(p, q, delta):
    """The smallest e^ε with Σ max(0, P − e^ε Q) <= δ, exactly (δ(x) is piecewise linear, decreasing)."""
    points = sorted(((a / b if b else None, a, b) for a, b in zip(p, q) if a > 0),
                    key=lambda t: (t[0] is not None, -(t[0] or 0)))
    mass_p, mass_q = F(0), F(0)
    for ratio, a, b in points:  # x at the next breakpoint: δ(x) = mass_p − x mass_q on this segment
        if ratio is None:
            mass_p += a
            if mass_p > delta:
                return None  # an output only one law has outweighs δ: no ε suffices
            continue
        if mass_p - ratio * mass_q > delta:  # δ(x) <= δ first above this breakpoint
            return max(F(1), (mass_p - delta) / mass_q)
        mass_p += a
        mass_q += b
    return max(F(1), (mass_p - delta) / mass_q) if mass_q else F(1)


def binomial_numerators(count, a, b):
    """(b − a + a z)^count: the integer numerators of Binomial(count, a/b) over b^count."""
    return [math.comb(count, k) * a ** k * (b - a) ** (count - k) for k in range(count + 1)]


def poly_mul(x, y):
    out = [0] * (len(x) + len(y) - 1)
    for i, u in enumerate(x):
        if u:
            for j, v in enumerate(y):
                out[i + j] += u * v
    return out


def ldpq_replace_exp_eps(others, top, alpha, delta):
    """The exact e^ε at δ (worse direction) with client 1 on LDPQ at c + r against c − r, `top` of the
    `others` other LDPQ clients at c + r and the rest at c − r (other pairs at (c, c) add one sure
    "+" each, a shift). Integers over the common denominator b^(others + 1), q− = a/b."""
    q = F(1, 2) - 1 / (2 * alpha)
    a, b = q.numerator, q.denominator
    if top > others - top:  # the mirror image (every output reflected) has the same e^ε
        top = others - top
    rest = poly_mul(binomial_numerators(others - top, a, b), binomial_numerators(top, b - a, b))
    p = [F(v, b ** (others + 1)) for v in poly_mul(rest, [a, b - a])]       # client 1 at c + r: q+ = (b − a)/b
    r = [F(v, b ** (others + 1)) for v in poly_mul(rest, [b - a, a])]       # at c − r: q− = a/b
    forward, backward = smallest_exp_eps(p, r, delta), smallest_exp_eps(r, p, delta)
    return None if forward is None or backward is None else max(forward, backward)


def population_ldpq(n, gamma):
    """The LDPQ clients of the reference code's population, client 1 included: ⌊γn⌋, one more if
    the rest is odd (exact_ucdp.hpp population_counts)."""
    ldpq = math.floor(gamma * n)
    return ldpq + 1 if (n - ldpq) % 2 else ldpq


def ldpq_replace_worst(others, alpha, delta, claimed_exp_eps):
    """Every configuration of the accountant's reduction for client 1 on LDPQ (Neighbours.v: j of the
    other LDPQ clients at c + r, j = 0..others; pairs at (c, c)), screened in double precision at
    the claimed worst e^ε: the j whose δ there is within 10^-9 of δ or above are recomputed
    exactly. Returns the j whose exact e^ε exceeds the claim (none when the claim is the worst)."""
    import numpy as np
    q = float(F(1, 2) - 1 / (2 * alpha))
    gamma = float(claimed_exp_eps)

    def pmf(count, p):
        k = np.arange(count + 1)
        logs = np.array([math.lgamma(count + 1) - math.lgamma(i + 1) - math.lgamma(count - i + 1) for i in k])
        return np.exp(logs + k * math.log(p) + (count - k) * math.log1p(-p))

    beyond = []
    for top in range(others // 2 + 1):  # the rest are mirror images
        rest = np.convolve(pmf(others - top, q), pmf(top, 1 - q))
        with_hi, with_lo = np.convolve(rest, [q, 1 - q]), np.convolve(rest, [1 - q, q])
        screened = max(np.maximum(with_hi - gamma * with_lo, 0).sum(), np.maximum(with_lo - gamma * with_hi, 0).sum())
        if screened >= float(delta) * (1 - 1e-9):
            exact = ldpq_replace_exp_eps(others, top, alpha, delta)
            if exact is None or exact > claimed_exp_eps:
                beyond.append(top)
    return beyond
