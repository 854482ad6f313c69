"""corbin.Accountant (issue 12) against the exact law (corbin.exact_ucdp) and its own invariants."""
import math
from fractions import Fraction

import corbin

DELTA = "1e-3"

# One coordinate, one round: the bracket holds the exact ε of the rational law.
for n, gamma in [(12, "1/2"), (9, 1)]:
    exact = corbin.exact_ucdp(n, gamma, DELTA, 2)["eps"]
    lo, hi = corbin.Accountant(n, gamma, alpha=2, role="ldpq").epsilon(DELTA)
    assert lo <= exact * (1 + 1e-12) and exact <= hi * (1 + 1e-12), (n, lo, exact, hi)
    assert hi - lo <= 0.02 * hi, (lo, hi)

# compose(k): ε grows with k, the pair stays ordered, and compositions multiply.
a = corbin.Accountant(1000, "1/2", alpha=2, role="ldpq")
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
lo, hi = corbin.Accountant(50, "1/2", alpha=2, neighbours="remove").epsilon("1e-5")
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
         (lambda: corbin.Accountant(1, "1/2", alpha=2), "n"),
         (lambda: corbin.Accountant(10, "1/2", alpha=2, neighbours="swap"), "relation")])
# The shapes other accountants use: the budget as exp_eps or eps (or alpha), get_epsilon_bounds and
# get_delta_bounds returning the certified ends as Fractions (exactly the directed-rounded doubles),
# then() for rounds of different kinds, and a repr that says what it holds.
e3 = corbin.Accountant(50, "1/2", exp_eps=3, role="ldpq")
assert e3.epsilon("1e-5") == corbin.Accountant(50, "1/2", alpha=2, role="ldpq").epsilon("1e-5")  # e^eps = 3 is alpha = 2
lo, hi = e3.get_epsilon_bounds("1e-5")
assert isinstance(lo, Fraction) and isinstance(hi, Fraction) and lo <= hi
assert (float(lo), float(hi)) == e3.epsilon("1e-5")
dlo, dhi = e3.get_delta_bounds(1)
assert isinstance(dlo, Fraction) and 0 <= dlo <= dhi <= 1
by_eps = corbin.Accountant(50, 1, eps=math.log(3))  # eps read as written: a float's shortest repr
assert abs(by_eps.epsilon("1e-5")[1] - corbin.Accountant(50, 1, exp_eps=3).epsilon("1e-5")[1]) < 1e-9
both = e3.then(e3.compose(9))
(b_lo, b_hi), (c_lo, c_hi) = both.epsilon("1e-5"), e3.compose(10).epsilon("1e-5")
assert both.compositions == 10 and max(b_lo, c_lo) <= min(b_hi, c_hi)  # two brackets of one value
assert abs(b_hi - c_hi) < 1e-3 * c_hi
assert repr(e3).startswith("<corbin.Accountant: 1 composition (1 × n=50 gamma=1/2 exp_eps = 3 m=1 role=ldpq), "
                           "epsilon(1e-5) in [1.08"), repr(e3)
assert math.isinf(corbin.Accountant(50, "1/2", alpha=2, neighbours="remove").get_epsilon("1e-5"))
# A room's rounds, said as rounds (their coordinates configured together): PBM with two trials at
# e^eps = 4, and CQ, infinite (at c ± r its clients send their inputs whatever the shared shift).
pbm2 = corbin.Accountant(3, mechanism="pbm2", exp_eps=4, m=2, rounds=3)
assert repr(pbm2).startswith("<corbin.Accountant: 6 compositions (3 × rounds of 2 uses of a given mechanism)"), repr(pbm2)
p_lo, p_hi = pbm2.epsilon("1e-3")
assert 0 < p_lo <= p_hi < 1.01 * p_lo, (p_lo, p_hi)  # 0.33 % wide: the rounds adapt, coordinates do not
assert corbin.Accountant(5, mechanism="cq", rounds=2).epsilon("1e-5") == (math.inf, math.inf)
refused([(lambda: corbin.Accountant(50, "1/2"), "budget is missing"),
         (lambda: corbin.Accountant(50, "1/2", alpha=2, eps=1), "budget is given twice"),
         (lambda: e3.get_delta(-1), "eps")])

# The role as drawn, by default, and named: at γ = 1/2 client 1 is paired in some rounds, where it
# has no finite ε (its pair's joint law has an unbounded ratio): said, with the LDPQ role's ε
# beside it; the lower end mixes an attained configuration of each role, each with its
# probability. At γ = 1 every client is on LDPQ.
worst = corbin.Accountant(100, "1/2", exp_eps=3, rounds=100).explain(delta="1e-5")
assert math.isinf(worst["eps"][1]) and worst["worst_role"] == "drawn", worst
parts = worst["lower_bound_attained_by"]
assert [p["role"] for p in parts] == ["ldpq", "paired"] and parts[1]["partner"] is not None, parts
assert [p["when"] for p in parts] == ["client 1 alone (probability 1/2)", "client 1 paired (probability 1/2)"]
assert "unbounded" in worst["infinite_because"] and 0 < worst["ldpq_role_eps"][0] <= worst["ldpq_role_eps"][1] < 10
assert corbin.Accountant(100, 1, exp_eps=3).explain(delta="1e-5")["worst_role"] == "ldpq"

# step(): one round at a time, as Opacus' accountant; the same as rounds=k at once.
s = corbin.Accountant(100, 1, exp_eps=3)  # the first round
for _ in range(9):
    s.step()
assert s.rounds == 10 and s.get_epsilon_bounds("1e-5") == corbin.Accountant(100, 1, exp_eps=3, rounds=10).get_epsilon_bounds("1e-5")

# The mixed run: 100 AugCorBin-FL rounds, then 100 with dropout 1/10, for a client on
# LDPQ; the CLI's --phase gives the same certified bracket (its decimals rounded outward).
import json
import os
import subprocess
mixed = corbin.Accountant(100, Fraction(1, 2), exp_eps=3, role="ldpq", rounds=100).step(100, dropout=Fraction(1, 10))
assert mixed.rounds == 200 and mixed.compositions == 200
lo, hi = mixed.get_epsilon_bounds("1e-5")
cli = os.environ["CORBIN_CLI"]  # the build's corbin, set by ctest
if True:
    out = json.loads(subprocess.run(
        [cli, "account", "--n", "100", "--gamma", "1/2", "--exp-eps", "3", "--role", "ldpq", "--rounds", "100",
         "--phase", "rounds=100,dropout=1/10", "--delta", "1e-5", "--json"],
        check=True, capture_output=True, text=True).stdout)
    assert (out["eps_lower_approx"], out["eps_upper_approx"]) == (float(lo), float(hi)), (out, lo, hi)
    assert Fraction(out["eps_lower"]) <= lo and hi <= Fraction(out["eps_upper"])
    at = json.loads(subprocess.run(
        [cli, "account", "--n", "100", "--gamma", "1/2", "--exp-eps", "3", "--role", "ldpq", "--rounds", "100",
         "--phase", "rounds=100,dropout=1/10", "--at-eps", "16", "--json"],
        check=True, capture_output=True, text=True).stdout)
    dlo, dhi = mixed.get_delta_bounds(16)
    assert (at["delta_lower_approx"], at["delta_upper_approx"]) == (float(dlo), float(dhi)), (at, dlo, dhi)
# Its parts: the dropout rounds cost privacy, and they add to the lower end too (each the mechanism
# as run: every client dropping, the survivors' sum), whose configuration says who drops.
first = corbin.Accountant(100, Fraction(1, 2), exp_eps=3, role="ldpq", rounds=100).get_epsilon_bounds("1e-5")
assert lo > first[0] and hi > first[1] and lo <= hi, (lo, hi, first)
info = mixed.explain(delta="1e-5")
# 100 clients at γ = 1/2 leave client 1 more populations than one accountant each: the ladder's
# mixture over who survived, with all of δ.
assert info["survivors_mixed_rounds"] == 100, info
assert "delta_mechanism" not in info and "failure" not in info, info
parts = info["lower_bound_attained_by"]
assert any(p["dropout"] is None for p in parts) and any(p["dropout"] and "1/10" in p["dropout"] for p in parts), parts
assert info["renyi"] >= hi and info["basic"] >= hi  # the references are looser upper bounds

# The inverse: the largest ε_p whose certified ε_upper(1e-5) after 100 rounds meets 8.
best = corbin.Accountant(100, 1, exp_eps=3, rounds=100).largest_eps(8, "1e-5")
assert best["eps_upper"] <= 8
# The upper end as printed (get_epsilon_bounds: with the search of the adversary's choices).
assert float(corbin.Accountant(100, 1, eps=best["largest"], rounds=100).get_epsilon_bounds("1e-5")[1]) == best["eps_upper"]
assert float(corbin.Accountant(100, 1, eps=best["refuted"], rounds=100).get_epsilon_bounds("1e-5")[1]) > 8

refused([(lambda: mixed.step(1, sigma=2), "sigma"),
         (lambda: mixed.step(1, dropout=1), "dropout"),
         (lambda: mixed.step(1, role="both"), "role"),
         (lambda: mixed.explain(), "delta"),
         (lambda: corbin.Accountant.from_laws([1], [1]).step(), "step")])
print("ok")

# Another registered mechanism (Mechanism::round_accountant), the same answers as the CLI's
# --mechanism, as identical doubles; its unused keywords refused by name.
for args, kwargs in [(["--mechanism", "ldp", "--n", "10", "--exp-eps", "3", "--rounds", "5"],
                      dict(mechanism="ldp", exp_eps=3, rounds=5)),
                     (["--mechanism", "gaussian", "--calibration-delta", "1e-5", "--n", "10", "--exp-eps", "3",
                       "--rounds", "10"], dict(mechanism="gaussian", calibration_delta="1e-5", exp_eps=3, rounds=10)),
                     (["--mechanism", "laplace", "--n", "10", "--eps", "1", "--rounds", "10"],
                      dict(mechanism="laplace", eps=1, rounds=10)),
                     (["--mechanism", "gaussian", "--calibration-delta", "1e-5", "--n", "10", "--eps", "1",
                       "--rounds", "10", "--neighbours", "remove"],
                      dict(mechanism="gaussian", calibration_delta="1e-5", eps=1, rounds=10, neighbours="remove"))]:
    room = corbin.Accountant(10, **kwargs)
    lo, hi = room.epsilon("1e-5")
    out = json.loads(subprocess.run([cli, "account", *args, "--delta", "1e-5", "--json"], check=True,
                                    capture_output=True, text=True).stdout)
    assert (out["eps_lower_approx"], out["eps_upper_approx"]) == (lo, hi), (out, lo, hi)
g = corbin.Accountant(10, mechanism="gaussian", calibration_delta="1e-5", exp_eps=3, rounds=10).epsilon("1e-5")
assert g[0] <= math.log(3) <= g[1] and g[1] - g[0] < 1e-3, g
refused([(lambda: corbin.Accountant(10, "1/2", mechanism="ldp", exp_eps=3), "gamma"),
         (lambda: corbin.Accountant(10, mechanism="pbm2", exp_eps=3), "mechanism"),
         (lambda: corbin.Accountant(1001, mechanism="laplace", exp_eps=3), "mechanism"),
         (lambda: corbin.Accountant(10, mechanism="gaussian", exp_eps=3), "calibration_delta"),
         (lambda: corbin.Accountant(10, mechanism="cq", dropout="1/10"), "dropout"),
         (lambda: corbin.Accountant(10, mechanism="rqm3", exp_eps=3, role="ldpq"), "role"),
         (lambda: corbin.Accountant(10, exp_eps=3), "gamma"),
         (lambda: corbin.Accountant(10, "1/2", exp_eps=3, calibration_delta="1e-5"), "calibration_delta"),
         (lambda: corbin.Accountant(10, mechanism="ldp", exp_eps=3).step(1), "step")])

# Why ε is infinite, in the CLI's words, and client 1 on LDPQ in every round beside it (the
# issue's 500 rounds at n = 100, γ = 1/2); a finite answer gives neither.
paired = corbin.Accountant(100, "1/2", exp_eps=3, rounds=500).explain(delta="1e-5")
assert math.isinf(paired["eps"][1]), paired["eps"]
assert "client 1 as a pair's member" in paired["infinite_because"] and "S1" in paired["infinite_because"], paired
assert paired["ldpq_role_eps"] == corbin.Accountant(100, "1/2", exp_eps=3, rounds=500, role="ldpq").explain(delta="1e-5")["eps"]
out = json.loads(subprocess.run([cli, "account", "--n", "100", "--gamma", "1/2", "--exp-eps", "3", "--rounds", "500",
                                 "--delta", "1e-5", "--json"], check=True, capture_output=True, text=True).stdout)
assert out["infinite_because"] == paired["infinite_because"], (out["infinite_because"], paired["infinite_because"])
assert out["ldpq_role"]["eps_upper_approx"] == float(paired["ldpq_role_eps"][1])
finite = corbin.Accountant(100, 1, exp_eps=3).explain(delta="1e-5")
assert finite["infinite_because"] is None and finite["ldpq_role_eps"] is None, finite
assert corbin.Accountant(100, 0, exp_eps=3).explain(delta="1e-5")["ldpq_role_eps"] is None  # no LDPQ position
