# RERUN: /usr/bin/python3 part3.py [--quick] [--out DIR]   (writes DIR/part3.json, DIR/part3.out)
# Part 3: dropout, T = 1, m = 1 (`--dropout p --at-eps E`, c = 0, r = 1, eps_p = 1). The as-run delta
# (the sum alone) over a search of configurations (x1, the other inputs) and at the configuration the
# CLI names; and the delta when the server also knows which other clients survived (drop.py).
import itertools
import json
import re

from drop import *  # noqa: F401,F403
from cli import corbin, num, options, finish

args = options('part3', 'Part 3: dropout, T = 1, m = 1 (as run: the sum alone; upper reference: the others\' survival known).')
TOL_REL = mp.mpf('1e-25')   # every value's stated error: 40-digit arithmetic, crossings to 1e-30
TOL_ABS = mp.mpf('1e-35')

NS = [2, 3, 5]; PS = ['1/10', '1/2']; ATS = ['1/10', '1/2', '1']
X1S = [Fraction(1), Fraction(1, 2), Fraction(0)]; N2_OTHERS = [Fraction(i - 10, 10) for i in range(21)]
VALS = [Fraction(-1), Fraction(0), Fraction(1)]; COUNT = True
CASES = None
if args.quick:
    CASES = [(2, '1/10', '1/2'), (2, '1/2', '1/10'), (3, '1/10', '1'), (3, '1/2', '1/2')]
    X1S = [Fraction(1), Fraction(0)]; N2_OTHERS = [Fraction(i - 2, 2) for i in range(5)]; COUNT = False
if CASES is None:
    CASES = [(n, p, ae) for n in NS for p in PS for ae in ATS]


def tol(t):
    return TOL_REL * abs(t) + TOL_ABS


def parse_pos(s):
    """'c + r', 'c - r', 'c' (c = 0, r = 1) -> the input, else None."""
    s = s.strip()
    return {'c + r': Fraction(1), 'c - r': Fraction(-1), 'c': Fraction(0)}.get(s)


def parse_named(att, n):
    """(x1, [others], order) from worst_case.lower_bound_attained_by[0], or None."""
    try:
        a = att[0]
        x1 = parse_pos(a['client_1'].replace('client 1 at', ''))
        m = re.search(r'clients? at (.*)$', a.get('other_ldpq', ''))
        xo = parse_pos(m.group(1)) if m else None
        if x1 is None or xo is None:
            return None
        return x1, [xo] * (n - 1), ('rev' if 'reversed' in a.get('order', '') else 'fwd')
    except (KeyError, IndexError, TypeError):
        return None


b = b_of(Fraction(1), Fraction(1))
rows = []; viol = []
for n, p, ae in CASES:
    E = M(ae)
    configs = []
    for x1 in X1S:
        if n == 2:
            configs += [(x1, [o]) for o in N2_OTHERS]
        else:
            configs += [(x1, list(ms)) for ms in itertools.combinations_with_replacement(VALS, n - 1)]
    out = corbin(['--n', n, '--eps', 1, '--dropout', p, '--at-eps', ae])
    named = parse_named(out.get('worst_case', {}).get('lower_bound_attained_by'), n)
    if named and (named[0], named[1]) not in configs:
        configs.append((named[0], named[1]))
    vals = []
    for x1, o in configs:
        dPQ, dQP = asrun_both(n, p, x1, o, b, E)
        vals.append((max(dPQ, dQP), x1, o, dPQ, dQP))
    best = max(vals, key=lambda v: v[0])
    A_named = None
    if named:
        A_named = next(v for v in vals if v[1] == named[0] and v[2] == named[1])
    kn = knows_delta(n, p, 1, b, E)
    cnt = max(count_delta(n, p, 1, xo, b, E) for xo in [-1, 0, 1]) if COUNT else None
    lo, up = num(out.get('delta_lower')), num(out.get('delta_upper'))
    row = dict(n=n, eps_p='1', c='0', r='1', p=p, at_eps=ae, b=b, configs=len(configs),
               asrun_best=mp.nstr(best[0], 20), asrun_best_fwd=mp.nstr(best[3], 15), asrun_best_rev=mp.nstr(best[4], 15),
               asrun_best_x1=str(best[1]), asrun_best_others=[str(x) for x in best[2]],
               named=(None if not named else dict(x1=str(named[0]), others=[str(x) for x in named[1]], order=named[2])),
               asrun_named=(None if A_named is None else mp.nstr(A_named[0], 20)),
               knows=mp.nstr(kn[0], 20), knows_fwd=mp.nstr(kn[1], 15), knows_rev=mp.nstr(kn[2], 15),
               count_model=(None if cnt is None else mp.nstr(cnt, 12)),
               lower=out.get('delta_lower'), upper=out.get('delta_upper'), cmd=out['_cmd'], err=out.get('_error'))
    v = []
    if lo is None or up is None:
        v.append('no output')
    else:
        if kn[0] > 0: row['up_over_knows'] = float(up / kn[0])
        if best[0] > 0: row['lo_over_asrun_best'] = float(lo / best[0]); row['up_over_asrun_best'] = float(up / best[0])
        # The others'-survival-known value is a model, not the truth: the upper end is its pair met
        # with the count told's, so it may lie below it (up_over_knows, reported).
        worst_A = max(vals, key=lambda t: t[0])[0]
        if up < worst_A - tol(worst_A): v.append('upper < an as-run value')
        if lo > best[0] + tol(best[0]): v.append('lower > best as-run value found')
        if A_named is not None and lo > A_named[0] + tol(A_named[0]): v.append('lower > as-run value at the named configuration')
    row['violations'] = v
    if v: viol.append(row)
    rows.append(row); print(json.dumps(row), flush=True)

finish('part3', args.out, rows, viol)
