# RERUN: /usr/bin/python3 part1.py [--quick] [--out DIR]   (writes DIR/part1.json, DIR/part1.out)
# Part 1: no dropout, T = 1, m = 1. delta(eps) (`--at-eps`) exactly (lap.hockey, mpmath) at every x1 on
# a grid over [c - r, c + r], both orders, the largest kept; and eps(delta) (`--delta`) at the farther
# extreme, a root of the exact delta certified to 1e-12 relative.
import itertools
import json
import sys

from scipy import optimize

from lap import *  # noqa: F401,F403
from cli import corbin, num, options, finish

args = options('part1', 'Part 1: no dropout, T = 1, m = 1 (--at-eps over a grid of x1; --delta at the farther extreme).')
TOL_REL = mp.mpf('1e-25')   # the truth's stated error: 40-digit arithmetic, crossings to 1e-30
TOL_ABS = mp.mpf('1e-35')

NS = [2, 3, 5, 8]; EPS = ['1/2', '1', '3']; CRS = [('0', '1'), ('1/2', '1')]; ATS = ['1/10', '1/2', '1', '2']; NG = 40
EPS_CASES = [(2, '1', '0', '1/1000'), (5, '1/2', '1/2', '1/100000'), (8, '3', '0', '1/1000000'), (3, '1', '1/2', '1/100')]
if args.quick:
    NS = [2, 5]; EPS = ['1']; CRS = [('0', '1'), ('1/2', '1')]; ATS = ['1/10', '1/2', '2']; NG = 4
    EPS_CASES = [(2, '1', '0', '1/1000'), (3, '1', '1/2', '1/100')]

rows = []; viol = []; nonmono = []


def tol(t):
    return TOL_REL * abs(t) + TOL_ABS


for n, epsb, (c, r) in itertools.product(NS, EPS, CRS):
    C = Fraction(c); R = Fraction(r)
    b = b_of(Fraction(epsb), R); bm = mp.mpf(b)
    xs = [C - R + 2 * R * Fraction(i, NG) for i in range(NG + 1)]
    for ae in ATS:
        A = M(ae)
        vals = []
        for x in xs:
            dPQ, dQP = delta_remove(n, M(x) / bm, A)
            vals.append((max(dPQ, dQP), dPQ, dQP, x))
        best = max(vals, key=lambda v: v[0])
        truth = best[0]
        # H nondecreasing in |x1| (the farther extreme the worst): up to the 40-digit noise
        byabs = sorted(vals, key=lambda v: abs(v[3]))
        mono = all(byabs[i + 1][0] >= byabs[i][0] - mp.mpf(10)**-30 or abs(byabs[i + 1][3]) == abs(byabs[i][3])
                   for i in range(len(byabs) - 1))
        out = corbin(['--n', n, '--eps', epsb, '--at-eps', ae, '--center', c, '--radius', r])
        lo, up = num(out.get('delta_lower')), num(out.get('delta_upper'))
        row = dict(kind='delta', n=n, eps_p=epsb, c=c, r=r, at_eps=ae, b=b, truth=mp.nstr(truth, 20),
                   truth_fwd=mp.nstr(best[1], 15), truth_rev=mp.nstr(best[2], 15), worst_x1=str(best[3]),
                   x_grid=len(xs), monotone_in_abs_x=mono, lower=out.get('delta_lower'), upper=out.get('delta_upper'),
                   cmd=out['_cmd'], err=out.get('_error'))
        v = []
        if lo is None or up is None:
            v.append('no output')
        else:
            if truth > 0:
                row['up_over_truth'] = float(up / truth); row['lo_over_truth'] = float(lo / truth)
                row['rel_width'] = float((up - lo) / truth)
            if up < truth - tol(truth): v.append('upper < truth')
            if lo > truth + tol(truth): v.append('lower > truth')
        if not mono: nonmono.append(row['cmd'])
        row['violations'] = v
        if v: viol.append(row)
        rows.append(row); print(json.dumps(row), flush=True)

for n, epsb, c, D in EPS_CASES:
    r = '1'
    b = b_of(Fraction(epsb), Fraction(r))
    s = (abs(M(c)) + M(r)) / mp.mpf(b)   # the farther extreme, in units of b
    Dm = M(D)

    def g(e):
        return max(delta_remove(n, s, e)) - Dm
    # double-precision root, then an enclosure certified by the exact sign of g at its ends
    e0 = optimize.brentq(lambda e: float(g(mp.mpf(e))), 0.0, 20.0, xtol=1e-15, rtol=1e-13)
    t_lo, t_hi = mp.mpf(e0) * (1 - mp.mpf('1e-12')), mp.mpf(e0) * (1 + mp.mpf('1e-12'))
    cert = g(t_lo) > 0 and g(t_hi) < 0
    if not cert:   # bisection in mpmath alone
        t_lo, t_hi = mp.mpf(0), mp.mpf(20)
        for _ in range(80):
            mid = (t_lo + t_hi) / 2
            if g(mid) > 0: t_lo = mid
            else: t_hi = mid
    out = corbin(['--n', n, '--eps', epsb, '--center', c, '--radius', r, '--delta', D])
    lo, up = num(out.get('eps_lower')), num(out.get('eps_upper'))
    row = dict(kind='eps', n=n, eps_p=epsb, c=c, r=r, delta=D, b=b, truth_lo=mp.nstr(t_lo, 17), truth_hi=mp.nstr(t_hi, 17),
               certified_1e12=cert, lower=out.get('eps_lower'), upper=out.get('eps_upper'), cmd=out['_cmd'], err=out.get('_error'))
    v = []
    if lo is None or up is None:
        v.append('no output')
    else:
        row['up_over_truth'] = float(up / t_lo); row['lo_over_truth'] = float(lo / t_hi); row['rel_width'] = float((up - lo) / t_lo)
        if up < t_lo: v.append('upper < truth')
        if lo > t_hi: v.append('lower > truth')
    row['violations'] = v
    if v: viol.append(row)
    rows.append(row); print(json.dumps(row), flush=True)

print('NONMONOTONE', len(nonmono), nonmono[:10])
finish('part1', args.out, rows, viol, dict(nonmonotone=nonmono))
