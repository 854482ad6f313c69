"""corbin account with dropout against the exact δ(ε) of one round when who survived is public
and known to the adversary before it picks the other clients' inputs (replace one, every client on
LDPQ): the labelled mixture over the number K of surviving others of the worst configuration of
K + 1 clients, computed here from the LDPQ laws alone with Fractions (the m = 2 case takes every
pair of configurations of the others, client 1's inputs the same in both coordinates). The upper
end must hold it (the survivors' mixture, round.hpp); the lower end, of inputs fixed before the
draw, must not pass it. The floors' upper end was 1.0055 where the exact ε is 0.7155 (n = 4)."""
import itertools, json, math, os, subprocess, sys
from fractions import Fraction as F
from math import comb
from decimal import Decimal, getcontext
getcontext().prec = 60
CLI = os.environ["CORBIN_CLI"]
def binom(k, q): return [comb(k, i) * q**i * (1 - q)**(k - i) for i in range(k + 1)]
def conv(x, y):
    z = [F(0)] * (len(x) + len(y) - 1)
    for i, u in enumerate(x):
        for j, v in enumerate(y): z[i + j] += u * v
    return z
def pair(K, kp, x, x2, qh, ql):
    o = conv(binom(kp, qh), binom(K - kp, ql))
    return conv([1 - x, x], o), conv([1 - x2, x2], o)
def H(P, Q, g):
    return sum(max(Decimal(0), Decimal(a.numerator) / Decimal(a.denominator) - g * Decimal(b.numerator) / Decimal(b.denominator)) for a, b in zip(P, Q))
def Hm(pairs, g):  # product pair of several coordinates
    P, Q = {(): F(1)}, {(): F(1)}
    for (p1, q1) in pairs:
        P2, Q2 = {}, {}
        for k, v in P.items():
            for i, a in enumerate(p1): P2[k + (i,)] = v * a
        for k, v in Q.items():
            for i, b in enumerate(q1): Q2[k + (i,)] = v * b
        P, Q = P2, Q2
    return sum(max(Decimal(0), Decimal(P[k].numerator) / Decimal(P[k].denominator) - g * Decimal(Q[k].numerator) / Decimal(Q[k].denominator)) for k in P)
viol = 0; rows = 0
for n, e, p, m in [(2, F(3), F(1, 10), 1), (3, F(2), F(1, 4), 1), (4, F(3), F(1, 10), 1), (5, F(2), F(1, 2), 1), (6, F(5), F(1, 3), 1), (3, F(3), F(1, 10), 2), (4, F(2), F(1, 4), 2)]:
    qh = e / (e + 1); ql = 1 - qh; L = n - 1
    for eps in [F(1, 100), F(1, 10), F(1, 2), F(1)]:
        g = Decimal(math.e) ** 0 if eps == 0 else (Decimal(eps.numerator) / Decimal(eps.denominator)).exp()
        d = Decimal(0)
        for K in range(L + 1):
            w = (1 - p) * comb(L, K) * (1 - p)**K * p**(L - K)
            configs = [pair(K, kp, x, x2, qh, ql) for kp in range(K + 1) for (x, x2) in [(qh, ql), (ql, qh)]]
            if m == 1:
                best = max(H(P, Q, g) for P, Q in configs)
            else:  # client 1's inputs are its data: the same pair in every coordinate; the others per coordinate
                best = Decimal(0)
                for (x, x2) in [(qh, ql), (ql, qh)]:
                    cs = [pair(K, kp, x, x2, qh, ql) for kp in range(K + 1)]
                    for combo in itertools.product(cs, repeat=m):
                        best = max(best, Hm(list(combo), g))
            d += Decimal(w.numerator) / Decimal(w.denominator) * best
        out = subprocess.run([CLI, "account", "--n", str(n), "--gamma", "1", "--exp-eps", str(e), "--dropout", str(p), "--m", str(m), "--at-eps", str(eps), "--json"], capture_output=True, text=True)
        j = json.loads(out.stdout)
        lo, hi = float(j["delta_lower"]), float(j["delta_upper"])
        ok = lo <= float(d) + 1e-12 and float(d) <= hi + 1e-12
        if m == 1 and eps >= F(1, 2):  # the mixture is the round itself: the upper end meets it
            ok = ok and hi <= float(d) + 1e-9
        viol += not ok; rows += 1
        print(("ok " if ok else "VIOLATION ") + f"n={n} e^eps_p={e} p={p} m={m} eps={eps}: exact {float(d):.12f} corbin [{lo:.12f}, {hi:.12f}]", flush=True)
print(rows, "rows", viol, "violations")
sys.exit(1 if viol else 0)
