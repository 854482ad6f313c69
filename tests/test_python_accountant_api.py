"""corbin.Accountant as Opacus' and dp_accounting's accountants are used (issue 36): get_epsilon a
float (the certified upper end) with the pair one call away, the budget a keyword, a training loop
of step()/get_epsilon(), pickling, rounds=0 refused as the CLI refuses it, and client sampling."""
import json
import math
import os
import pickle
import subprocess
from fractions import Fraction

import corbin

CLI = os.environ["CORBIN_CLI"]  # the build's corbin, set by ctest


def refused(call, error, start):
    """call() raises `error` whose message is one line starting with `start`."""
    try:
        call()
    except error as e:
        assert str(e).startswith(start) and "\n" not in str(e), (start, str(e))
    else:
        raise AssertionError(start)


def cli(*args):
    out = subprocess.run([CLI, "account", *args, "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# get_epsilon: a float, a certified upper end (the fast one); the pair (lower, upper) as Fractions,
# one call away, its upper end at most get_epsilon's (the searches over the adversary's choices
# only lower it).
a = corbin.Accountant(50, "1/2", exp_eps=3, role="ldpq", rounds=10)
eps = a.get_epsilon("1e-5")
lo, hi = a.get_epsilon_bounds("1e-5")
assert type(eps) is float and isinstance(lo, Fraction) and isinstance(hi, Fraction)
assert 3 < lo <= hi <= eps < 3.5, (lo, hi, eps)  # ten rounds of e^ε = 3 among 50 clients
assert (float(lo), float(hi)) == a.epsilon("1e-5")
d = a.get_delta(3)
dlo, dhi = a.get_delta_bounds(3)
assert type(d) is float and 0 < dlo <= dhi <= d < 1e-3, (dlo, dhi, d)
assert (float(dlo), float(dhi)) == a.delta(3)
inf = corbin.Accountant(50, "1/2", exp_eps=3, neighbours="remove", role="ldpq").get_epsilon("1e-5")
assert inf == math.inf  # remove one at c = 0: the sums never meet
refused(lambda: a.get_epsilon(0), ValueError, "delta is 0, but must be in (0, 1)")
refused(lambda: a.get_delta(-1), ValueError, "eps is -1, but must be at least 0")

# The budget is a keyword: a third positional number could be α, e^ε or ε.
refused(lambda: corbin.Accountant(50, "1/2", 2), TypeError, "alpha must be given by keyword")
assert (corbin.Accountant(50, "1/2", alpha=2, role="ldpq").get_epsilon("1e-5")
        == corbin.Accountant(50, "1/2", exp_eps=3, role="ldpq").get_epsilon("1e-5"))  # α = 2 is e^ε = 3

# rounds=0 is refused as the CLI's --rounds 0 is: the same message, the keyword for the option.
said = subprocess.run([CLI, "account", "--n", "100", "--gamma", "1", "--exp-eps", "3", "--rounds", "0", "--delta", "1e-5"],
                      capture_output=True, text=True)
assert said.returncode == 2 and said.stderr.startswith("corbin: --rounds is '0', but must be "), said.stderr
rule = said.stderr.strip()[len("corbin: --"):]
refused(lambda: corbin.Accountant(100, 1, exp_eps=3, rounds=0), ValueError, rule)
refused(lambda: corbin.Accountant(100, mechanism="ldp", exp_eps=3, rounds=0), ValueError, rule)

# A training loop as Opacus' (account after each round): the first round is the Accountant, each
# further one a step(). Each answer is the upper end of the same run accounted at once.
loop = corbin.Accountant(100, 1, exp_eps=3)
curve = [loop.get_epsilon("1e-5")]
for _ in range(999):
    loop.step()
    curve.append(loop.get_epsilon("1e-5"))
assert loop.rounds == 1000 and len(curve) == 1000
assert all(x <= y for x, y in zip(curve, curve[1:])), "more rounds released less"
for r in (1, 10, 1000):
    at_once = corbin.Accountant(100, 1, exp_eps=3, rounds=r)
    lo, hi = at_once.get_epsilon_bounds("1e-5")
    assert curve[r - 1] == at_once.get_epsilon("1e-5") and lo <= hi <= curve[r - 1], (r, curve[r - 1], lo, hi)
# One round of 100 clients on LDPQ at e^ε = 3 (the bracket is tight at one use); 1 000 rounds grow
# about as √1000 times that, less than the 1 000 times basic composition would give.
assert abs(curve[0] - 0.46329137) < 1e-6, curve[0]
assert 15 < curve[-1] < 30, curve[-1]
# A repeated question is the same answer (kept), and repr reads get_epsilon_bounds' bracket.
assert loop.get_epsilon("1e-5") == curve[-1] and repr(loop) == repr(loop)
assert repr(loop).endswith(", %r]>" % float(hi)), (repr(loop), hi)

# Pickled and loaded: the same answers, the same next steps.
saved = pickle.loads(pickle.dumps(loop))
assert saved.rounds == 1000 and saved.get_epsilon("1e-5") == curve[-1] and repr(saved) == repr(loop)
assert len(pickle.dumps(loop)) < 2000  # the loop's 999 steps are one step of 999 in the state
saved.step()
loop.step()
assert saved.get_epsilon("1e-5") == loop.get_epsilon("1e-5") > curve[-1]
mixed = (corbin.Accountant(12, "1/2", exp_eps=3, role="ldpq", rounds=2)
         .step(2, dropout="1/10").step(gamma=1, eps="0.5")
         .then(corbin.Accountant.from_laws(["1/4", "3/4"], ["3/4", "1/4"]).compose(3))
         .compose(2))
# compose(k) repeats the run in order: a round at e^eps = 2 then one at 3, twice, is the same
# ledger as those four rounds stepped (A, B, A, B), not each phase lengthened (A, A, B, B: the
# adversary's program over menus in turn depends on the order, and that one's upper end 1.3674599
# is below the repeated run's lower end 1.3700491 at delta = 1/10).
ab = corbin.Accountant(4, 1, exp_eps=2).step(exp_eps=3)
stepped = corbin.Accountant(4, 1, exp_eps=2).step(exp_eps=3).step(exp_eps=2).step(exp_eps=3)
assert ab.compose(2).epsilon("1/10") == stepped.epsilon("1/10"), (ab.compose(2).epsilon("1/10"), stepped.epsilon("1/10"))
aabb = corbin.Accountant(4, 1, exp_eps=2, rounds=2).step(2, exp_eps=3)
assert aabb.epsilon("1/10")[1] < ab.compose(2).epsilon("1/10")[0]
# One pair of datasets for a whole run, a mechanism's rounds included (was accepted: LDP-FL rounds
# with client 1 replaced, then rounds with it removed).
refused(lambda: corbin.Accountant(6, mechanism="ldp", exp_eps=2, center=9)
        .then(corbin.Accountant(6, mechanism="ldp", exp_eps=2, center=9, neighbours="remove")),
        ValueError, "relation is remove, but must be the run's (replace)")
# A pair of laws of one's own: from_laws and the CLI's --laws are one accountant (the same doubles),
# and a malformed pair is refused naming p or q.
laws = corbin.Accountant.from_laws(["1/4", "3/4"], ["3/4", "1/4"]).compose(3)
by_cli = cli("--laws", "1/4,3/4:3/4,1/4", "--rounds", "3", "--delta", "1/100")
assert (by_cli["eps_lower_approx"], by_cli["eps_upper_approx"]) == laws.epsilon("1/100"), (by_cli, laws.epsilon("1/100"))
refused(lambda: corbin.Accountant.from_laws(["1/2", "1/4"], ["3/4", "1/4"]), ValueError, "p is summing to 3/4")
refused(lambda: corbin.Accountant.from_laws(["1/4", "3/4"], ["1"]), ValueError, "q is 1 values")
back = pickle.loads(pickle.dumps(mixed))
assert back.rounds == mixed.rounds == 2 * (2 + 2 + 1 + 3)  # the laws' 3 uses count as rounds
assert back.get_epsilon_bounds("1e-3") == mixed.get_epsilon_bounds("1e-3")
assert back.get_delta_bounds(2) == mixed.get_delta_bounds(2)
room = corbin.Accountant(10, mechanism="gaussian", calibration_delta="1e-5", exp_eps=3, rounds=4)
assert pickle.loads(pickle.dumps(room)).epsilon("1e-5") == room.epsilon("1e-5")
# A copy steps on its own: stepping it leaves the original's answers and state alone.
one = corbin.Accountant(20, 1, exp_eps=3, rounds=2)
two = pickle.loads(pickle.dumps(one)).step(3)
assert one.rounds == 2 and two.rounds == 5 and pickle.loads(pickle.dumps(one)).rounds == 2
blank = corbin.Accountant.__new__(corbin.Accountant)
refused(lambda: blank.__setstate__((2, [])), ValueError, "state is of another layout")
refused(lambda: blank.__setstate__((1, [("step", 1, {})])), ValueError, "state is a call 'step' first")

# Client sampling: each client, client 1 included, takes part with probability q. It is client
# dropout 1 − q (the same rounds: the same answers), in Python and in the CLI.
sampled = corbin.Accountant(20, 1, exp_eps=3, sampling_rate="1/2", rounds=3)
dropped = corbin.Accountant(20, 1, exp_eps=3, dropout="1/2", rounds=3)
assert sampled.get_epsilon_bounds("1e-3") == dropped.get_epsilon_bounds("1e-3")
# Each round is the mixture over who survived, no floors: over the populations themselves (every
# client on LDPQ: 20), or past 64 of them the ladder's (γ = 1/2, drawn roles).
assert sampled.explain(delta="1e-3")["survivors_mixed_rounds"] == 3
pairs = corbin.Accountant(20, "1/2", exp_eps=3, sampling_rate="1/2", rounds=3).explain(delta="1e-3")
assert pairs["survivors_mixed_rounds"] == 3 and "failure" not in pairs, pairs
by_cli = cli("--n", "20", "--gamma", "1", "--exp-eps", "3", "--sampling-rate", "1/2", "--rounds", "3", "--delta", "1e-3")
assert (by_cli["eps_lower_approx"], by_cli["eps_upper_approx"]) == sampled.epsilon("1e-3"), by_cli
steps = corbin.Accountant(20, 1, exp_eps=3, rounds=2).step(2, sampling_rate="9/10")
assert steps.get_epsilon_bounds("1e-3") == corbin.Accountant(20, 1, exp_eps=3, rounds=2).step(
    2, dropout="1/10").get_epsilon_bounds("1e-3")
phase = cli("--n", "20", "--gamma", "1", "--exp-eps", "3", "--rounds", "2", "--phase", "rounds=2,sampling-rate=9/10",
            "--delta", "1e-3")
assert (phase["eps_lower_approx"], phase["eps_upper_approx"]) == steps.epsilon("1e-3"), phase
# What is certified: the lower end is the mechanism as run (client 1 and the others each sitting a
# round out with probability 1 − q: fewer others add noise, so here it is above the unsampled
# run's); the upper end covers client 1 as if it took part in every round, with the others'
# guaranteed survivors (no amplification by client 1's own sampling): never below the unsampled
# run's.
full = corbin.Accountant(20, 1, exp_eps=3, rounds=3).get_epsilon_bounds("1e-3")
lo_s, hi_s = sampled.get_epsilon_bounds("1e-3")
assert full[0] < lo_s <= hi_s and full[1] < hi_s, (lo_s, hi_s, full)
refused(lambda: corbin.Accountant(20, 1, exp_eps=3, sampling_rate=0), ValueError, "sampling_rate is 0, but must be in (0, 1]")
refused(lambda: corbin.Accountant(20, 1, exp_eps=3, sampling_rate="3/2"), ValueError, "sampling_rate is 3/2")
refused(lambda: corbin.Accountant(20, 1, exp_eps=3, sampling_rate="1/2", dropout="1/2"), ValueError,
        "sampling_rate is given with dropout")
refused(lambda: corbin.Accountant(20, 1, exp_eps=3).step(sampling_rate="1/2", dropout="1/2"), ValueError,
        "sampling_rate is given with dropout")
# A lone room with dropout (or client sampling) is the mixture over who survived, as the CLI's
# --mechanism NAME --dropout p; CQ, whose clients share the server's randomness, refuses it by name.
pbm = corbin.Accountant(10, mechanism="pbm1", exp_eps=3, dropout="1/10", rounds=2)
assert pbm.epsilon("1e-5") == corbin.Accountant(10, mechanism="pbm1", exp_eps=3, sampling_rate="9/10",
                                                 rounds=2).epsilon("1e-5")
by_cli = cli("--mechanism", "pbm1", "--n", "10", "--exp-eps", "3", "--dropout", "1/10", "--rounds", "2", "--delta", "1e-5")
assert (by_cli["eps_lower_approx"], by_cli["eps_upper_approx"]) == pbm.epsilon("1e-5"), (by_cli, pbm.epsilon("1e-5"))
assert by_cli["dropout"]["survivors_mixed_rounds"] == "2", by_cli
assert pbm.explain(delta="1e-5")["survivors_mixed_rounds"] == 2
plain = corbin.Accountant(10, mechanism="pbm1", exp_eps=3, rounds=2).epsilon("1e-5")
assert plain != pbm.epsilon("1e-5"), plain
refused(lambda: corbin.Accountant(10, mechanism="cq", dropout="1/10"),
        ValueError, "dropout is 1/10, but must be 0 for mechanism='cq': used without dropout")
refused(lambda: corbin.Accountant(10, mechanism="pbm1", exp_eps=3, dropout="3/2"), ValueError, "dropout is 3/2")
gauss = subprocess.run([CLI, "account", "--mechanism", "cq", "--n", "10", "--dropout", "1/10", "--delta", "1e-5"],
                       capture_output=True, text=True)
assert gauss.returncode == 2 and gauss.stderr.startswith("corbin: --dropout is 1/10"), gauss.stderr
assert len(gauss.stderr.splitlines()) == 1, gauss.stderr
both = subprocess.run([CLI, "account", "--n", "20", "--gamma", "1", "--exp-eps", "3", "--dropout", "1/2",
                       "--sampling-rate", "1/2", "--delta", "1e-3"], capture_output=True, text=True)
assert both.returncode == 2 and "--sampling-rate" in both.stderr and len(both.stderr.splitlines()) == 1, both.stderr
# A room's dropout round of m coordinates shares the draw, in Python as in the CLI: the same
# doubles, and its upper end at least the 3.1973 Theorem 3's path attains with the same clients.
shared = corbin.Accountant(3, mechanism="ldp", m=3, exp_eps=3, dropout="1/2", rounds=1)
by_cli = cli("--mechanism", "ldp", "--n", "3", "--m", "3", "--exp-eps", "3", "--dropout", "1/2", "--delta", "1/100")
assert shared.epsilon("1/100") == (by_cli["eps_lower_approx"], by_cli["eps_upper_approx"]), by_cli
assert shared.epsilon("1/100")[1] >= 3.1973, shared.epsilon("1/100")
print("ok")
