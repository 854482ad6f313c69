"""corbin.Accountant (issue 12) against the exact law (corbin.exact_ucdp) and its own invariants."""
import math

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

# Bad input names the parameter.
for call, name in [(lambda: a.epsilon(0), "delta"), (lambda: a.compose(0), "compositions"),
                   (lambda: corbin.Accountant(1, "1/2", 2), "n"),
                   (lambda: corbin.Accountant(10, "1/2", 2, neighbours="swap"), "relation")]:
    try:
        call()
    except corbin.InvalidArgument as e:
        assert str(e).startswith(name), (name, str(e))
    else:
        raise AssertionError(name)
print("ok")
