"""Exact and decimal helpers: rationals (fractions.Fraction) stay exact; where a logarithm or a
square root enters, the arithmetic is decimal at kWorkDigits significant digits and compared
with the certificate's enclosures (inside), or exact comparisons of squares decide a floor."""
import math
from decimal import Decimal
from fractions import Fraction as F

from .limits import kApproxRelTol, kEnclosureSlack, kWorkDigits
from .report import InternalError


def rat(value):
    return F(value)


def floor_frac(x):
    a = math.floor(x)
    return a, x - a


def dec(x):
    """A Fraction as a Decimal at the current context's precision (rounded once)."""
    return Decimal(x.numerator) / Decimal(x.denominator)


def enclosure(value):
    return Decimal(value[0]), Decimal(value[1])


def inside(x, value):
    """x (Decimal) within the printed enclosure, allowing kEnclosureSlack for its rounding."""
    lo, hi = enclosure(value)
    return lo - abs(lo) * kEnclosureSlack <= x <= hi + abs(hi) * kEnclosureSlack


def approx_agrees(approx, exact):
    """A decimal twin against the exact Fraction (or the enclosure's midpoint, a Decimal)."""
    if isinstance(exact, F):
        if exact == 0:
            return approx == 0
        try:
            return math.isclose(approx, float(exact), rel_tol=kApproxRelTol)
        except OverflowError:  # beyond any double: no finite twin can agree
            return False
    return math.isclose(approx, float(exact), rel_tol=kApproxRelTol, abs_tol=1e-300)


def decide_at_least(lhs, rhs, what):
    """lhs >= rhs for Decimals computed at kWorkDigits; too close to tell raises InternalError."""
    if abs(lhs - rhs) <= (abs(lhs) + abs(rhs)) * Decimal(10) ** -(kWorkDigits - 10):
        raise InternalError(f"{what}: {lhs} and {rhs} are too close to compare at {kWorkDigits} digits")
    return lhs >= rhs


def floor_sqrt_sum(a, b, sign):
    """⌊a + sign·√b⌋ exactly for rationals a, b >= 0 (sign ±1), by comparing squares."""
    k = math.floor(a + sign * math.isqrt(math.floor(b)))  # within a few units of the answer

    def at_most(k):  # k <= a + sign √b
        t = k - a
        return (t <= 0 or t * t <= b) if sign > 0 else (t <= 0 and t * t >= b)
    while not at_most(k):
        k -= 1
    while at_most(k + 1):
        k += 1
    return k


def ceil_sqrt_sum(a, b, sign):
    """⌈a + sign·√b⌉ exactly."""
    return -floor_sqrt_sum(-a, b, -sign)


def binomial_outside(trials, p, first, last):
    """P(X outside [first, last]) for X ~ Binomial(trials, p), p = a/b, exactly (integers)."""
    a, b = p.numerator, p.denominator
    inside = sum(math.comb(trials, k) * a ** k * (b - a) ** (trials - k)
                 for k in range(max(first, 0), min(last, trials) + 1))
    return 1 - F(inside, b ** trials)


def rational_sqrt(x):
    """√x when x is the square of a rational, else None (a Fraction is in lowest terms, and so is
    its square root's)."""
    if x < 0:
        return None
    n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return F(n, d) if n * n == x.numerator and d * d == x.denominator else None
