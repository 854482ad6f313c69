# RERUN: /usr/bin/python3 part2.py [--quick] [--out DIR]   (writes DIR/part2.json, DIR/part2.out)
# Part 2: no dropout, T = 2 rounds of m = 2, 3 coordinates (`--rounds 2 --m M --at-eps E`): the
# 2M-fold composition of the one-use pair at the farther extreme, bracketed by the pessimistic and
# optimistic PLDs (pld.py), both orders. Client 1 at the farther extreme every round and coordinate
# is itself a choice, so the product is attained; it is the worst case because the extreme dominates
# every x1 at every e^eps in both orders (checked below at extra eps, and in part 1), and the
# composition of dominating pairs dominates (Zhu, Dong, Wang 2022).
import json

from pld import single_pld, bracket
from lap import *  # noqa: F401,F403
from cli import corbin, num, options, finish

args = options('part2', 'Part 2: no dropout, T = 2, m = 2, 3 (PLD bracket by FFT, tilted).')
TOL_REL = 1e-9      # the bracket's stated error: float64 rounding (a tilt's disagreement, 10x, is added)
TOL_ABS = 1e-30

CONFIGS = [(2, '1', '0', '1'), (5, '1', '0', '1'), (2, '1/2', '0', '1'), (5, '1/2', '0', '1'), (2, '1', '1/2', '1')]
MS = [2, 3]; ATS = ['1/2', '1', '2', '4']; DY = 2e-5
DOM = [(n, e, a) for n in [2, 5] for e in ['1/2', '1'] for a in ['1/100', '1/20', '1/5', '3', '5']]; NDOM = 20
QUICK = None
if args.quick:
    DY = 1e-4
    QUICK = {(2, '1', '0', '1'): [(2, '1'), (3, '4')], (5, '1/2', '0', '1'): [(2, '4'), (2, '1/2')]}
    CONFIGS = list(QUICK)
    DOM = [(5, '1', '1/5')]; NDOM = 5

rows = []; viol = []; nonmono = []
# dominance: H at x1 = i/NDOM (c = 0, r = 1) nondecreasing in i, both orders, up to the 40-digit noise
for n, epsb, e in DOM:
    b = b_of(Fraction(epsb), Fraction(1))
    v = [delta_remove(n, mp.mpf(i) / NDOM / mp.mpf(b), M(e)) for i in range(NDOM + 1)]
    for o in (0, 1):
        if not all(v[i + 1][o] >= v[i][o] - mp.mpf(10)**-30 for i in range(NDOM)):
            nonmono.append((n, epsb, e, 'fwd' if o == 0 else 'rev'))
    print('dominance n %d eps %s at %s: monotone fwd %s rev %s' % (n, epsb, e, (n, epsb, e, 'fwd') not in nonmono,
                                                                   (n, epsb, e, 'rev') not in nonmono), flush=True)

for (n, epsb, c, r) in CONFIGS:
    b = b_of(Fraction(epsb), Fraction(r))
    s = float(abs(Fraction(c)) + Fraction(r)) / b
    one = {'fwd': single_pld(n, s, n - 1, 0.0, dy=DY, h=DY), 'rev': single_pld(n - 1, 0.0, n, s, dy=DY, h=DY)}
    cases = QUICK[(n, epsb, c, r)] if QUICK else [(m, ae) for m in MS for ae in ATS]
    for m, ae in cases:
        k = 2 * m
        e = float(Fraction(ae))
        br = {o: bracket(one[o], k, e) for o in one}
        t_lo = max(x['lo'] for x in br.values())
        t_hi = max(x['hi'] for x in br.values())
        spread = max(x['tilt_spread'] for x in br.values())
        out = corbin(['--n', n, '--eps', epsb, '--m', m, '--rounds', 2, '--at-eps', ae, '--center', c, '--radius', r])
        lo, up = num(out.get('delta_lower')), num(out.get('delta_upper'))
        row = dict(kind='delta', n=n, eps_p=epsb, c=c, r=r, m=m, T=2, uses=k, at_eps=ae, b=b, dy=DY,
                   truth_lo=t_lo, truth_hi=t_hi, fwd=[br['fwd']['lo'], br['fwd']['hi']], rev=[br['rev']['lo'], br['rev']['hi']],
                   theta_fwd=br['fwd']['theta'], theta_rev=br['rev']['theta'], tilt_spread=spread,
                   lower=out.get('delta_lower'), upper=out.get('delta_upper'), cmd=out['_cmd'], err=out.get('_error'))
        v = []
        if lo is None or up is None:
            v.append('no output')
        else:
            lo, up = float(lo), float(up)
            tl = TOL_REL * t_lo + 10 * spread + TOL_ABS
            th = TOL_REL * t_hi + 10 * spread + TOL_ABS
            mid = (t_lo + t_hi) / 2
            if t_lo > 0:
                row['up_over_truth_lo'] = up / t_lo
            if t_hi > 0:
                row['lo_over_truth_hi'] = lo / t_hi
            if mid > 0:
                row['rel_width'] = (up - lo) / mid; row['ref_rel_width'] = (t_hi - t_lo) / mid
            if up < t_lo - tl: v.append('upper < truth (below the reference lower end)')
            if lo > t_hi + th: v.append('lower > truth (above the reference upper end)')
        row['violations'] = v
        if v: viol.append(row)
        rows.append(row); print(json.dumps(row), flush=True)

print('NONMONOTONE', len(nonmono), nonmono[:10])
finish('part2', args.out, rows, viol, dict(nonmonotone=nonmono))
