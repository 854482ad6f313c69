"""corbin.Accountant (issue 12) against the exact law (corbin.exact_ucdp) and its own invariants."""
import math
from fractions import Fraction

import corbin

DELTA = "1e-3"

# One coordinate, one round: the bracket holds the exact ε of the rational law.
for n, gamma in [(12, "1/2"), (9, 1)]:
    exact = corbin.exact_ucdp(n, gamma, DELTA, 2)["eps"]
    lo, hi = corbin.Accountant(n, gamma, 2).epsilon(DELTA)
    assert lo <= exact * (1 + 1e-12) and exact <= hi * (1 + 1e-12), (n, lo, exact, hi)
    assert hi - lo <= 0.02 * hi, (lo, hi)

# compose(k): ε grows with k, the pair stays ordered, and compositions multiply.
a = corbin.Accountant(1000, "1/2", 2)
b = a.compose(1000).compose(1000)
assert b.compositions == 10 ** 6
e1, e2 = a.compose(1000).epsilon("1e-5"), b.epsilon("1e-5")
assert e1[0] <= e1[1] < e2[0] <= e2[1], (e1, e2)
# The worst case over the others' configurations: attained lower end, dominating upper end.
assert e2[1] / e2[0] - 1 <= 0.03, e2
# δ(ε) at the ε bounds is consistent with ε(δ): δ_upper(eps_upper) <= δ < δ_lower(just below eps_lower).
d_at_upper = b.delta(repr(e2[1]))
assert d_at_upper[1] <= 1e-5, d_at_upper
d_below_lower = b.delta(repr(e2[0] * (1 - 1e-9)))
assert d_below_lower[0] > 1e-5, d_below_lower

# Remove-one at c = 0: the sums never meet, so no finite ε.
lo, hi = corbin.Accountant(50, "1/2", 2, neighbours="remove").epsilon("1e-5")
assert math.isinf(lo) and math.isinf(hi)

def refused(cases):
    """Each call raises InvalidArgument whose message starts with its name."""
    for call, name in cases:
        try:
            call()
        except corbin.InvalidArgument as e:
            assert str(e).startswith(name), (name, str(e))
        else:
            raise AssertionError(name)


# Bad input names the parameter.
refused([(lambda: a.epsilon(0), "delta"), (lambda: a.compose(0), "compositions"),
         (lambda: corbin.Accountant(1, "1/2", 2), "n"),
         (lambda: corbin.Accountant(10, "1/2", 2, neighbours="swap"), "relation")])
# The shapes other accountants use: the budget as exp_eps or eps (or alpha), get_epsilon and
# get_delta returning the certified ends as Fractions (exactly the directed-rounded doubles),
# then() for rounds of different kinds, and a repr that says what it holds.
e3 = corbin.Accountant(50, "1/2", exp_eps=3)
assert e3.epsilon("1e-5") == corbin.Accountant(50, "1/2", 2).epsilon("1e-5")  # e^eps = 3 is alpha = 2
lo, hi = e3.get_epsilon("1e-5")
assert isinstance(lo, Fraction) and isinstance(hi, Fraction) and lo <= hi
assert (float(lo), float(hi)) == e3.epsilon("1e-5")
dlo, dhi = e3.get_delta(1)
assert isinstance(dlo, Fraction) and 0 <= dlo <= dhi <= 1
by_eps = corbin.Accountant(50, 1, eps=math.log(3))  # eps read as written: a float's shortest repr
assert abs(by_eps.epsilon("1e-5")[1] - corbin.Accountant(50, 1, exp_eps=3).epsilon("1e-5")[1]) < 1e-9
both = e3.then(e3.compose(9))
(b_lo, b_hi), (c_lo, c_hi) = both.epsilon("1e-5"), e3.compose(10).epsilon("1e-5")
assert both.compositions == 10 and max(b_lo, c_lo) <= min(b_hi, c_hi)  # two brackets of one value
assert abs(b_hi - c_hi) < 1e-3 * c_hi
assert repr(e3).startswith("<corbin.Accountant: 1 composition, epsilon(1e-5) in [1.08")
assert math.isinf(corbin.Accountant(50, "1/2", 2, neighbours="remove").get_epsilon("1e-5")[1])
refused([(lambda: corbin.Accountant(50, "1/2"), "budget is missing"),
         (lambda: corbin.Accountant(50, "1/2", 2, eps=1), "budget is given twice"),
         (lambda: e3.get_delta(-1), "eps")])
print("ok")
