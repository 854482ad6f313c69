"""The Python module against values derived by hand and by the C++ tests (run by ctest with
Debian's python3 and PYTHONPATH at the built module)."""
import math
import warnings
from decimal import Decimal
from fractions import Fraction as F

import numpy as np

import corbin

# corbin joint --exp-eps 3 --w 1/4 --w2 -1/8 --bits 2 (test_cli's contract values).
law = corbin.joint_law(corbin.alpha_of_exp_eps(3), 0, 1, F(1, 4), "-0.125", 2)
assert law == {"++": F(7, 128), "+-": F(65, 128), "-+": F(53, 128), "--": F(3, 128)}, law
assert corbin.alpha_of_exp_eps(3) == 2
assert corbin.ldpq_q(2, 0, 1, 0.3) == F(1, 2) + F(3, 40)  # 0.3 is read as 3/10 exactly

u = corbin.pair_utility(2, 0, 1, F(1, 4), F(-1, 8), 2)
assert (u["mse"], u["mse_optimal"], u["mse_ldp"], u["gap"]) == (F(79, 64), F(31, 64), F(507, 64), F(3, 4))
assert corbin.sup_gap(2, 0, 1, 5) == {"sup_gap": F(1, 4), "w1": F(1, 16), "w2": F(-1, 16)}
assert corbin.pldp(2, 0, 1, 5, "as-printed") == F(24, 7)
assert corbin.pldp(corbin.alpha_of_exp_eps(33), 0, 1, 5, "reference-code") == float("inf")

assert abs(corbin.ucdp_printed(100, 50, "1/2", "1e-5", 1, 2)["eps_u"] - 131.2035529928753) < 1e-9
assert corbin.exact_ucdp(50, "1/2", "1e-5", 2, neighbours="remove")["infinite"]
assert abs(corbin.agm_sigma(1, "1e-5", 1) - 3.7306316348159418) < 1e-12
assert corbin.laplace_scale("1/2", 2) == 4

# Sampler: seeded and reproducible; the empirical mean is near the input (unbiased).
w1 = np.full(1 << 18, 0.3, dtype=np.float32)
w2 = np.zeros(1 << 18, dtype=np.float32)
a1, a2 = corbin.sample_corbinq(w1, w2, 3, 0, 1, 5, 7)
b1, b2 = corbin.sample_corbinq(w1, w2, 3, 0, 1, 5, 7)
assert (a1 == b1).all() and (a2 == b2).all()
assert set(np.unique(a1)) == {-2.0, 2.0}
assert abs(a1.mean() - 0.3) < 5 * 2 / np.sqrt(len(w1))

# The registry (fl/registry.hpp): its mechanisms with the properties `corbin mechanisms --json`
# gives, and each room's own answers, exact as Fractions, enclosures as (lower, upper) Fractions.
rooms = {m["name"]: m for m in corbin.mechanisms()}
assert list(rooms)[:3] == ["vanilla", "ldp", "corbin"] and {"pbm1", "rqm3", "signsgd"} <= set(rooms)
assert rooms["ldp"] == {"name": "ldp", "summary": rooms["ldp"]["summary"], "pairing": "alone", "takes_budget": True,
                        "federated": True, "bits_per_coordinate": 1, "device_kernel": True}
assert rooms["corbin"]["pairing"] == "pairs" and rooms["rqm3"]["bits_per_coordinate"] == 32
# B1: PBM with m = 1 is LDPQ. At e^ε = 9 (α = 5/4), w = 1/3: ±5/4 with P(+) = 1/2 + (1/3)/(5/2) = 19/30,
# MSE (5/4)² − (1/3)² = 209/144; RQM with m = 3 has another law (91/72).
ldpq = [(F(-5, 4), F(11, 30)), (F(5, 4), F(19, 30))]
assert sorted(corbin.law("pbm1", F(1, 3), exp_eps=9)) == sorted(corbin.law("ldp", "1/3", exp_eps=9)) == ldpq
assert corbin.mse("pbm1", F(1, 3), exp_eps=9) == corbin.mse("ldp", F(1, 3), alpha=F(5, 4)) == F(209, 144)
assert corbin.mse("rqm3", F(1, 3), exp_eps=9) == F(91, 72)
assert sum(p for _, p in corbin.law("rqm3", F(1, 3), exp_eps=9)) == 1
# RQM m = 3's PLDP ratio is the e^ε it is calibrated to, reached at the range's ends; at ε = 1 both
# are enclosures of e. CorBin-FL's room gives the CorBinQ ratio above (as printed: 24/7 > 3).
p = corbin.pldp("rqm3", exp_eps=9)
assert (p["ratio"], p["bound"], p["unbounded"], {p["w_high"], p["w_low"]}) == (9, 9, False, {-1, 1}), p
lo, hi = corbin.pldp("rqm3", eps=1)["ratio"]
assert lo < hi and abs(float(lo) - 2.718281828459045) < 1e-15 and hi - lo < F(1, 2 ** 100)
p = corbin.pldp("corbin", alpha=2, bits=5, variant="as-printed")
assert (p["ratio"], p["bound"], p["client"]) == (F(24, 7), 3, "follower (Q2)")
s = corbin.pldp("signsgd")  # takes no budget, claims no ε, and one output is impossible at the other end
assert s["unbounded"] and s["ratio"] == float("inf") and s["bound"] is None
# The Gaussian's MSE is σ² at sensitivity 2r, whatever w: an enclosure, no law.
lo, hi = corbin.mse("gaussian", F(1, 2), eps=1)
assert lo <= hi and abs(float(lo) - corbin.agm_sigma(1, "1e-5", 2) ** 2) < 1e-9

for bad in (lambda: corbin.joint_law(2, 0, 1, 2, 0, 5), lambda: corbin.alpha_of_exp_eps(1),
            lambda: corbin.agm_sigma(0, "1e-5", 1)):
    try:
        bad()
        raise AssertionError("bad input accepted")
    except ValueError:
        pass
# LDPQ's MSE at w = c and a transcendental ε: an enclosure (lower, upper) of (rα)² = coth(1/2)².
lo, hi = corbin.mse("ldp", 0, eps=1)
assert lo <= hi and hi - lo < F(1, 10 ** 30), (lo, hi)
assert abs(float(lo) - (math.cosh(0.5) / math.sinh(0.5)) ** 2) < 1e-12, float(lo)
# Issue 10's reproducers: each bad argument is a ValueError naming the parameter, as the C++
# library names it (was: ldpq_q(2, 0, 1, 7) = 9/4, a negative MSE at α = -3, an answer at a
# negative e^ε, an unnamed OverflowError at α = 0, an infinity silently clipped, and integers
# wrapped or refused by pybind11 without a name).
inf_w = np.array([np.inf], dtype=np.float32)
zero_w = np.zeros(1, dtype=np.float32)
for call, name in ((lambda: corbin.ldpq_q(2, 0, 1, 7), "w"),
                   (lambda: corbin.pair_utility(-3, 0, 1, 0, 0, 5), "alpha"),
                   (lambda: corbin.exact_ucdp(50, "1/2", "1e-5", -2), "alpha"),
                   (lambda: corbin.joint_law(0, 0, 1, 0, 0, 5), "alpha"),
                   (lambda: corbin.joint_law(2, 0, 0, 0, 0, 5), "radius"),
                   (lambda: corbin.sample_corbinq(inf_w, zero_w, 3, 0, 1, 5, 1), "w1[0]"),
                   (lambda: corbin.sup_gap(2, 0, 1, -1), "bits"),
                   (lambda: corbin.sup_gap(2, 0, 1, 2 ** 64), "bits"),
                   (lambda: corbin.ucdp_printed(2 ** 64 + 1, 50, "1/2", "1e-5", 1, 2), "m"),
                   (lambda: corbin.exact_ucdp(2 ** 40, "1/2", "1e-5", 2), "n"),
                   (lambda: corbin.sample_corbinq(zero_w, zero_w, 3, 0, 1, 5, -1), "seed"),
                   (lambda: corbin.law("gaussian", 0, exp_eps=3), "mechanism"),  # no finite law
                   (lambda: corbin.law("nope", 0, exp_eps=3), "mechanism"),
                   (lambda: corbin.law("ldp", 0, eps=1), "mechanism"),  # LDPQ's law at an irrational α
                   (lambda: corbin.pldp("laplace", exp_eps=3), "mechanism"),  # no PLDP claim
                   (lambda: corbin.law("ldp", F(5, 4), exp_eps=3), "w"),
                   (lambda: corbin.mse("ldp", 0, exp_eps=3, radius=0), "radius"),
                   (lambda: corbin.mse("ldp", 0, exp_eps=1), "exp_eps"),
                   (lambda: corbin.mse("ldp", 0), "budget"),
                   (lambda: corbin.mse("corbin", 0, exp_eps=3, bits=-1), "bits"),
                   # Integers past Python's 4 300 digits of str(): read exactly, refused by name
                   # (was: "Exceeds the limit (4300 digits) for integer string conversion").
                   (lambda: corbin.Accountant(10 ** 5000, gamma=1, exp_eps=3), "n"),
                   (lambda: corbin.Accountant(10, gamma=1, exp_eps=10 ** 5000), "exp_eps"),
                   (lambda: corbin.sup_gap(2, 0, 1, 10 ** 5000), "bits"),
                   (lambda: corbin.ldpq_q(2, 0, 1, 10 ** 5000), "w")):
    try:
        call()
        raise AssertionError("accepted: " + name)
    except ValueError as e:
        assert str(e).startswith(name + " is "), (name, str(e))
        assert len(str(e)) < 400, (name, len(str(e)))  # one short line, the value shortened
try:
    corbin.law("gaussian", 0, exp_eps=3)
except ValueError as e:
    assert "answers law " in str(e) and "gaussian" in str(e), str(e)
# Issue 27: a wrong type is a TypeError naming the argument (was: None as w killed the interpreter
# in law() and read garbage in mse(); True and [1] were read through their str()).
for call, name in ((lambda: corbin.law("ldp", None, exp_eps=9), "w"),
                   (lambda: corbin.mse("rqm2", None, exp_eps=9), "w"),
                   (lambda: corbin.mse("corbin", None, exp_eps=9), "w"),
                   (lambda: corbin.law("ldp", True, exp_eps=9), "w"),
                   (lambda: corbin.law("ldp", [1], exp_eps=9), "w"),
                   (lambda: corbin.law("ldp", 0, exp_eps=9, bits=None), "bits"),
                   (lambda: corbin.law("ldp", 0, exp_eps=9, bits=5.0), "bits"),
                   (lambda: corbin.law("ldp", 0, exp_eps=9, delta=None), "delta"),
                   (lambda: corbin.pair_utility(3, 0, 1, None, 0, 5), "w1"),
                   (lambda: corbin.alpha_of_exp_eps(None), "exp_eps"),
                   (lambda: corbin.Accountant(None, "1/2", alpha=3), "n"),
                   (lambda: corbin.Accountant(50, "1/2", alpha=3).compose(None), "compositions"),
                   (lambda: corbin.Accountant(50, "1/2", alpha=3).epsilon(None), "delta")):
    try:
        call()
        raise AssertionError("accepted: " + name)
    except TypeError as e:
        assert str(e).startswith(name + " must be "), (name, str(e))
# Integer and number types that are not Python's own are read as what they are.
assert corbin.sup_gap(3, 0, 1, np.int64(5)) == corbin.sup_gap(3, 0, 1, 5)
assert corbin.sup_gap(np.float64(3), 0, 1, 5) == corbin.sup_gap(Decimal("3"), 0, 1, 5)
# The aggregate MSE over n clients (issue 25): at e^ε = 3, r = 1/20, n = 100 the worst cases are
# exactly 1/10^4 (LDP-FL), 1/(2·10^4) (CorBin-FL's pairs), 3/(4·10^4) (AugCorBin-FL, γ = 1/2), 0
# (vanilla), each enclosed; γ is AugCorBin-FL's alone; a room that does not know it says so.
for mechanism, value in (("ldp", F(1, 10**4)), ("corbin", F(1, 2 * 10**4)),
                         ("augcorbin", F(3, 4 * 10**4)), ("vanilla", F(0))):
    budget = {} if mechanism == "vanilla" else {"exp_eps": 3}  # vanilla takes none
    lower, upper = corbin.aggregate_mse(mechanism, 100, radius=F(1, 20), **budget)
    assert isinstance(lower, F) and lower <= value <= upper and upper - lower < F(1, 10**30), (mechanism, lower, upper)
assert corbin.aggregate_mse("augcorbin", 100, exp_eps=3, radius=F(1, 20), gamma=1) == \
    corbin.aggregate_mse("ldp", 100, exp_eps=3, radius=F(1, 20))  # γ = 1: every client alone
for call, name in ((lambda: corbin.aggregate_mse("ldp", 100, exp_eps=3, gamma="1/2"), "gamma"),
                   (lambda: corbin.aggregate_mse("ldp", 0, exp_eps=3), "n"),
                   (lambda: corbin.aggregate_mse("cq", 100), "mechanism"),
                   (lambda: corbin.aggregate_mse("cq", 100, exp_eps=3), "budget"),
                   (lambda: corbin.aggregate_mse("augcorbin", 100, exp_eps=3, gamma=2), "gamma")):
    try:
        call()
        raise AssertionError("accepted: " + name)
    except ValueError as e:
        assert str(e).startswith(name + " is "), (name, str(e))
# ... and at given inputs (weights; n is their count): exactly 11/5120 for LDP-FL at -1/20, 1/40, 0,
# 1/20 (test_cli's derivation), 17/76800 for CQ over its shift and the server's order; CorBin-FL's, over the server's random order, is
# below LDP-FL's; an ε budget gives an enclosure; n and weights are one question each.
at = [F(-1, 20), F(1, 40), 0, "1/20"]
assert corbin.aggregate_mse("ldp", weights=at, exp_eps=3, radius=F(1, 20)) == (F(11, 5120), F(11, 5120))
assert corbin.aggregate_mse("cq", weights=at, radius=F(1, 20)) == (F(17, 76800), F(17, 76800))
lower, upper = corbin.aggregate_mse("corbin", weights=at, exp_eps=3, radius=F(1, 20))
assert lower == upper and 0 < lower < F(11, 5120)
lower, upper = corbin.aggregate_mse("corbin", weights=at, eps=1, radius=F(1, 20))
assert lower < upper and upper - lower < F(1, 10**30)
for call, name in ((lambda: corbin.aggregate_mse("ldp", 4, weights=at, exp_eps=3), "n"),
                   (lambda: corbin.aggregate_mse("ldp", exp_eps=3), "n"),
                   (lambda: corbin.aggregate_mse("ldp", weights=[], exp_eps=3), "weights"),
                   (lambda: corbin.aggregate_mse("ldp", weights=[0, 2], exp_eps=3), "weights[1]"),
                   (lambda: corbin.aggregate_mse("ldp", weights=[0] * 5000, exp_eps=3), "weights"),
                   (lambda: corbin.aggregate_mse("signsgd", weights=[0]), "mechanism")):
    try:
        call()
        raise AssertionError("accepted: " + name)
    except ValueError as e:
        assert str(e).startswith(name + " is "), (name, str(e))
for bad in ("0,1", 0.5, None):
    try:
        corbin.aggregate_mse("ldp", weights=bad, exp_eps=3) if bad is not None else \
            corbin.aggregate_mse("ldp", weights=[None], exp_eps=3)
        raise AssertionError("accepted: " + repr(bad))
    except TypeError as e:
        assert str(e).startswith("weights"), str(e)
# An enclosure whose ends have more digits than Python reads from a decimal string (ε = 10^6:
# ends near 2^(−1.4·10^6)) still comes back as Fractions.
lower, upper = corbin.aggregate_mse("laplace", 10, eps=10**6)
assert isinstance(lower, F) and 0 < lower <= upper and abs(float(upper) - 8e-13) < 1e-24, (float(lower), float(upper))
# pair_utility takes the budget as α (positional, as before), e^ε or ε (issue 25): e^ε = 3 is α = 2
# exactly; ε gives certified (lower, upper) pairs, here around two independent LDPQs' 2α².
assert corbin.pair_utility(exp_eps=3, w1=0, w2=F(1, 2), bits=5) == corbin.pair_utility(2, 0, 1, 0, F(1, 2), 5)
at_eps = corbin.pair_utility(eps=1, w1=0, w2=0, bits=5)
alpha_e = (math.e + 1) / (math.e - 1)
lower, upper = at_eps["mse_ldp"]
assert isinstance(lower, F) and lower <= upper and upper - lower < F(1, 10**30)
assert abs(float(lower) - 2 * alpha_e ** 2) < 1e-12, (float(lower), 2 * alpha_e ** 2)
for kwargs, word in (({"alpha": 2, "exp_eps": 3}, "given twice"), ({}, "missing")):
    try:
        corbin.pair_utility(w1=0, w2=0, **kwargs)
        raise AssertionError("accepted: " + repr(kwargs))
    except ValueError as e:
        assert str(e).startswith("budget is " + word), str(e)
# Every question takes the budget as α, e^ε or ε: the exact laws as α or e^ε (ε would make α
# transcendental, which an exact law cannot hold, so it is refused naming eps); the formulas of
# Theorem 3 as any of the three.
assert corbin.joint_law(exp_eps=3, center=0, radius=1, w1=F(1, 2), w2=0, bits=3) == \
    corbin.joint_law(2, 0, 1, F(1, 2), 0, 3)
assert corbin.ldpq_q(exp_eps=3, w=F(1, 2)) == corbin.ldpq_q(2, 0, 1, F(1, 2)) == F(5, 8)
assert corbin.sup_gap(exp_eps=3) == corbin.sup_gap(2, 0, 1, 5)
assert corbin.pldp(exp_eps=3) == corbin.pldp(2, 0, 1, 5) == 3
assert corbin.exact_ucdp(12, "1/2", "1e-3", exp_eps=3) == corbin.exact_ucdp(12, "1/2", "1e-3", 2)
assert corbin.ucdp_printed(1, 50, "1/2", "1e-5", 1, exp_eps=3) == corbin.ucdp_printed(1, 50, "1/2", "1e-5", 1, 2)
by_eps = corbin.ucdp_cpsgd(1, 50, "1/2", "1e-5", 1, eps=math.log(3))["eps_u"]
assert abs(by_eps - corbin.ucdp_cpsgd(1, 50, "1/2", "1e-5", 1, 2)["eps_u"]) < 1e-9 * by_eps
for call in (lambda: corbin.joint_law(eps=1, w1=0, w2=0), lambda: corbin.exact_ucdp(12, "1/2", "1e-3", eps=1)):
    try:
        call()
        raise AssertionError("eps accepted for an exact law")
    except ValueError as e:
        assert str(e).startswith("eps is "), str(e)
# An ε passed where e^ε is read (exp_eps=1.0986 is ln 3): a valid budget, so a UserWarning naming
# both keywords, not an error; e^ε = 3/2 and above, or the budget as α or ε, say nothing.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    corbin.pldp(exp_eps=1.0986)
    assert [(w.category, str(w.message)) for w in caught] == [
        (UserWarning, "exp_eps = 1.0986 is e^ε, so ε = 0.09404; for ε = 1.0986 give eps=1.0986")], caught
    caught.clear()
    corbin.pldp(exp_eps=F(3, 2))
    corbin.pldp(alpha=5)
    corbin.ucdp_cpsgd(1, 50, "1/2", "1e-5", 1, eps=1.0986)
    assert caught == [], caught
with warnings.catch_warnings():
    warnings.simplefilter("error")  # a filter that raises: the exception reaches the caller
    try:
        corbin.ldpq_q(exp_eps="1.2", w=0)
        raise AssertionError("no warning for exp_eps=1.2")
    except UserWarning as e:
        assert "give eps=1.2" in str(e), str(e)
print("python module: all checks passed")
