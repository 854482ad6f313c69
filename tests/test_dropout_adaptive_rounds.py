"""corbin account over rounds with dropout against the exact worst case of an adversary who fixes
each round's inputs before that round's draw but after the rounds before (replace one, every client
on LDPQ, one coordinate a round): computed here from the LDPQ laws alone with Fractions.

A round's release is (who survived, the survivors' count of "+"). With the other clients' inputs
fixed (j of the n - 1 others at c + r, the rest at c - r) and client 1's pair of inputs (x, x2) in
either order, the label is (client 1 survived, K+ of the j, K- of the others) and the count is
client 1's output, if it survived, plus Bin(K+, q_high) + Bin(K-, q_low). Over T rounds with the
configuration of round t chosen from the outputs before it, the hockey stick of the product
splits over the first round's outcomes:
    delta_T(eps) = max_c1 sum_o P1(o) * delta_(T-1)(eps - ln(P1(o) / Q1(o)))
(the whole mass P1(o) where Q1(o) = 0), with delta_1 the best single configuration at each eps.
That is the largest delta any adversary of this kind attains, so corbin's lower end (a strategy of
that kind over the configurations it keeps) must not pass it; and it is one adversary of the
mechanism as run, so corbin's upper end must hold it. The best fixed sequence (no adaptation) is
printed beside it: where the adaptive value exceeds it, the lower end must be above the fixed one
(it was the fixed one's 0.963 at n = 4, e^eps_p = 3, dropout 1/10, two rounds, delta = 1/10).

The upper end covers a stronger adversary too, one who chooses every input (client 1's order
included) after seeing who survived: each round is then the labelled mixture over the draws
(client 1 survived or not, s others survived), the adversary picking j of the s at c + r for the
draw it sees:
    after_T(g) = sum_draw w(draw) * max_(order, j) sum_o P(o) * after_(T-1)(g * Q(o) / P(o)),
after_0(g) = (1 - g)+. corbin's upper end must hold it, and (searching the adversary's choices
given each draw, not a pair dominating all of them) lie within 10^-4 of it: it was 0.25624 where
this value is 0.23666 (n = 3, e^eps_p = 3, dropout 1/10, three rounds, eps = 1)."""
import json, os, subprocess, sys
from decimal import Decimal, getcontext
from fractions import Fraction as F
from math import comb

getcontext().prec = 50
CLI = os.environ["CORBIN_CLI"]


def dec(x):
    return Decimal(x.numerator) / Decimal(x.denominator)


def binom(k, q):
    return [comb(k, i) * q**i * (1 - q) ** (k - i) for i in range(k + 1)]


def conv(x, y):
    z = [F(0)] * (len(x) + len(y) - 1)
    for i, u in enumerate(x):
        for j, v in enumerate(y):
            z[i + j] += u * v
    return z


def configurations(n, e, p):
    """Every configuration's release as a list of (P, Q) over its outcomes, as Decimals."""
    qh = e / (e + 1)
    ql = 1 - qh
    others = n - 1
    out = []
    for x, x2 in [(qh, ql), (ql, qh)]:
        for j in range(others + 1):
            outcomes = []
            for alive in (0, 1):
                for kp in range(j + 1):
                    for km in range(others - j + 1):
                        w = ((1 - p) if alive else p) * comb(j, kp) * (1 - p) ** kp * p ** (j - kp)
                        w *= comb(others - j, km) * (1 - p) ** km * p ** (others - j - km)
                        rest = conv(binom(kp, qh), binom(km, ql))
                        P = conv([1 - x, x], rest) if alive else rest
                        Q = conv([1 - x2, x2], rest) if alive else rest
                        outcomes += [(dec(w * a), dec(w * b)) for a, b in zip(P, Q) if a or b]
            out.append(outcomes)
    return out


def draws(n, e, p):
    """Each draw's weight and, for every choice of inputs made after it, the round's outcomes."""
    qh = e / (e + 1)
    ql = 1 - qh
    others = n - 1
    out = []
    for alive in (0, 1):
        for s in range(others + 1):
            w = ((1 - p) if alive else p) * comb(others, s) * (1 - p) ** s * p ** (others - s)
            choices = []
            for x, x2 in [(qh, ql), (ql, qh)]:
                for j in range(s + 1):
                    rest = conv(binom(j, qh), binom(s - j, ql))
                    P = conv([1 - x, x], rest) if alive else rest
                    Q = conv([1 - x2, x2], rest) if alive else rest
                    choices.append([(dec(a), dec(b)) for a, b in zip(P, Q) if a or b])
            out.append((dec(w), choices))
    return out


def after_draw(drawn, rounds, g):
    def value(outcomes, h):
        if rounds == 1:
            return delta_one(outcomes, h)
        return delta_rounds(outcomes, lambda k: after_draw(drawn, rounds - 1, k), h)
    return sum(w * max(value(c, g) for c in choices) for w, choices in drawn)


def delta_one(outcomes, g):
    return sum(max(Decimal(0), a - g * b) for a, b in outcomes)


def delta_rounds(first, rest_value, g):
    """sum_o P(o) * rest_value(g * Q(o) / P(o)) for the first round's outcomes."""
    total = Decimal(0)
    for a, b in first:
        if a == 0:
            continue
        total += a if b == 0 else a * rest_value(g * b / a)
    return total


def adaptive(configs, rounds, g):
    if rounds == 1:
        return max(delta_one(c, g) for c in configs)
    return max(delta_rounds(c, lambda h: adaptive(configs, rounds - 1, h), g) for c in configs)


def adaptive_phases(per_round, g):
    """As adaptive(), each round with its own configurations (a phase's dropout rate)."""
    if len(per_round) == 1:
        return max(delta_one(c, g) for c in per_round[0])
    return max(delta_rounds(c, lambda h: adaptive_phases(per_round[1:], h), g) for c in per_round[0])


def after_draw_phases(per_round, g):
    """As after_draw(), each round with its own draws."""
    def value(outcomes, h):
        if len(per_round) == 1:
            return delta_one(outcomes, h)
        return delta_rounds(outcomes, lambda k: after_draw_phases(per_round[1:], k), h)
    return sum(w * max(value(c, g) for c in choices) for w, choices in per_round[0])


def best_fixed(configs, rounds, g):
    """The best sequence of configurations chosen before anything is seen."""
    def value(seq, h):
        if len(seq) == 1:
            return delta_one(configs[seq[0]], h)
        return delta_rounds(configs[seq[0]], lambda k: value(seq[1:], k), h)
    best = Decimal(0)
    def walk(seq):
        nonlocal best
        if len(seq) == rounds:
            best = max(best, value(seq, g))
            return
        for i in range(len(configs)):
            walk(seq + [i])
    walk([])
    return best


def corbin(n, e, p, rounds, eps):
    out = subprocess.run([CLI, "account", "--n", str(n), "--gamma", "1", "--exp-eps", str(e), "--dropout", str(p),
                          "--rounds", str(rounds), "--at-eps", str(eps), "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("corbin account failed: " + out.stderr)
    j = json.loads(out.stdout)
    return float(j["delta_lower"]), float(j["delta_upper"])


violations = rows = above_fixed = 0
for n, e, p, rounds in [(2, F(3), F(1, 10), 2), (3, F(2), F(1, 4), 2), (4, F(3), F(1, 10), 2),
                        (4, F(2), F(1, 2), 2), (3, F(3), F(1, 10), 3)]:
    configs = configurations(n, e, p)
    drawn = draws(n, e, p)
    for eps in [F(1, 4), F(1, 2), F(1)]:
        g = dec(eps).exp()
        exact = float(adaptive(configs, rounds, g))
        fixed = float(best_fixed(configs, rounds, g))
        after = float(after_draw(drawn, rounds, g))
        lo, hi = corbin(n, e, p, rounds, eps)
        ok = lo <= exact + 1e-12 and exact <= hi + 1e-12 and after <= hi + 1e-12 and hi <= after + 1e-4
        # Where adapting gains, the lower end adapts too (above the best fixed sequence).
        gains = exact > fixed + 1e-6
        if gains:
            ok = ok and lo > fixed + 1e-9
            above_fixed += 1
        violations += not ok
        rows += 1
        print(("ok " if ok else "VIOLATION ") + f"n={n} e^eps_p={e} p={p} T={rounds} eps={eps}: adaptive {exact:.12f} "
              f"best fixed {fixed:.12f} after the draw {after:.12f} corbin [{lo:.12f}, {hi:.12f}]", flush=True)
# Phases: rounds with dropout and rounds without in one run (--phase dropout=...), one search over
# the menus in turn: the lower end plays the mechanism as run in each phase (the rounds without
# dropout their family's configurations, those with it the mixtures over who survived), below the
# exact value and within 5 % of it (the composed phases' lower ends were 5 % to 41 % below: 0.14782
# at n = 3, e^eps_p = 2, dropout 0 then 1/4, eps = 1/4, against the exact 0.16496; 0.01578 against
# 0.02670 at eps = 1); the upper end holds the after-draw value within 10^-4.
for n, e, rates in [(3, F(2), [F(0), F(1, 4)]), (4, F(3), [F(1, 10), F(0)]), (3, F(3), [F(0), F(1, 10), F(0)])]:
    configs = [configurations(n, e, p) for p in rates]
    drawn = [draws(n, e, p) for p in rates]
    args = ["--dropout", str(rates[0])]
    for p in rates[1:]:
        args += ["--phase", f"dropout={p},rounds=1"]
    for eps in [F(1, 4), F(1)]:
        g = dec(eps).exp()
        exact = float(adaptive_phases(configs, g))
        after = float(after_draw_phases(drawn, g))
        out = subprocess.run([CLI, "account", "--n", str(n), "--gamma", "1", "--exp-eps", str(e), "--at-eps", str(eps),
                              "--json"] + args, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("corbin account failed: " + out.stderr)
        j = json.loads(out.stdout)
        lo, hi = float(j["delta_lower"]), float(j["delta_upper"])
        ok = lo <= exact + 1e-12 and exact <= hi + 1e-12 and after <= hi + 1e-12 and hi <= after + 1e-4
        ok = ok and lo >= 0.95 * exact
        violations += not ok
        rows += 1
        print(("ok " if ok else "VIOLATION ") + f"n={n} e^eps_p={e} rates={[str(p) for p in rates]} eps={eps}: "
              f"adaptive {exact:.12f} after the draw {after:.12f} corbin [{lo:.12f}, {hi:.12f}]", flush=True)
print(rows, "rows,", above_fixed, "where adapting gains,", violations, "violations")
# The cases are chosen so that adapting gains somewhere: otherwise the check of the lower end
# above the fixed sequence would test nothing.
sys.exit(1 if violations or above_fixed == 0 else 0)
