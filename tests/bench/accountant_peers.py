#!/usr/bin/python3
"""Benchmark (not a CI test): corbin's certified accountant against two public peers.

Compares, on the same pairs of exact laws and the same k-fold compositions,
  * corbin.Accountant.from_laws(p, q, cells)      certified (eps_lower, eps_upper)
  * Google's dp_accounting, PLD code              privacy_loss_distribution.from_two_probability_mass_functions
                                                  (privacy buckets, optimistic and pessimistic) and the
                                                  connect-the-dots discretisation pld_pmf.create_pmf_pessimistic_connect_dots
  * Microsoft's prv_accountant                    PRVAccountant with a PrivacyRandomVariable written here for
                                                  a discrete pair; its (eps_lower, eps_estimate, eps_upper)
at delta = 1e-5, where eps(delta) is the larger over the two orders (P against Q, Q against P).
Every tool is asked for both orders.

Problems (e^eps = 3 mechanism, exact laws on 0..len-1):
  a  client 1 beside one other client:  P = [3/16, 10/16, 3/16],  Q = [9/16, 6/16, 1/16]
  a_swapped  the same pair in the other order (Q, P); eps(delta) is the same number
  b  client 1 beside 49 others all at one end:
     P = Bin(49, 1/4) * Bernoulli(3/4),  Q = Bin(49, 1/4) * Bernoulli(1/4)   (* = convolution)

Where it is cheap (the k-fold law has at most --exact-budget multinomial classes: by default
k <= 100 for (a), k <= 3 for (b)) the script computes the exact eps(delta) itself in rationals:
delta(eps) is affine in e^eps between consecutive likelihood ratios, so e^eps solves a linear
equation with rational coefficients, and eps = ln of that rational (50 significant digits).

Each tool runs in its own subprocess (this file with --worker), so that one run does not
inflate another's peak memory: wall time is measured inside the worker around the tool's
calls (construction + composition + eps query, imports excluded), peak memory is the
worker's ru_maxrss from os.wait4 (imports included; the CSV also gives the RSS right after
the imports). Each run has a timeout (--timeout, default 300 s) and an address-space limit
(--mem-limit-gb, default 8).

Getting the peers (nothing of theirs is copied into this project; run them from their own
source trees, with Debian's numpy/scipy only):
    git clone https://github.com/google/differential-privacy      # folder python/dp_accounting
    git clone https://github.com/microsoft/prv_accountant
    /usr/bin/python3 tests/bench/accountant_peers.py \\
        --dp-accounting  .../differential-privacy/python/dp_accounting \\
        --prv-accountant .../prv_accountant \\
        --corbin build/analysis/python
or set DP_ACCOUNTING_SRC, PRV_ACCOUNTANT_SRC, CORBIN_PYTHONPATH.
  - dp_accounting's package __init__ imports its RDP accountant, which needs absl-py; this
    script does not import that __init__: it registers a bare `dp_accounting` package whose
    __path__ is the source folder and imports only dp_accounting.pld.* (needs numpy, scipy,
    attrs). If attrs is missing too, the dp_accounting runs report the ImportError.
  - prv_accountant needs numpy and scipy only.

Peer parameters (the peers' accuracy is set by a grid, not by a target; defaults give each
peer a grid of up to --bins cells, far more than corbin's --cells = 2048):
  dp_accounting  value_discretization_interval = 1e-4 (its default), unless the k-fold PMF that
                 its self_compose would allocate (its own Chernoff truncation bounds,
                 common.compute_self_convolve_bounds, tail_mass_truncation = 1e-15, its default)
                 has more than --bins cells: then the interval that fits, capped at 1/16 of the
                 single loss range (a run over budget at the cap is still run, and fails).
                 --dpa-interval X fixes it. Connect-the-dots: the recipe the library applies to
                 discrete mechanisms (grid = floor and ceil of each loss / interval, exact hockey-
                 stick deltas there, pld_pmf.create_pmf_pessimistic_connect_dots), per order.
                 A SparsePLDPmf.self_compose computes size**k as a Python integer before it goes
                 dense (3**(10**9) takes hours); the worker converts each order's PMF to dense
                 itself when the library would (size**k > 1000, decided with logarithms), through
                 PrivacyLossDistribution._pmf_remove/_pmf_add.
  prv_accountant eps_error = max(rel/2 * eps_hat, the eps_error that keeps its domain within
                 --bins cells), eps_hat = an RDP upper bound on eps, rel = --prv-rel (1e-3);
                 delta_error = delta/1000 (as its DP-SGD Accountant). --prv-eps-error X fixes it.

Output: one Markdown table on stdout and a CSV (--out, default ./accountant_peers.csv).
  lower/upper: what the tool returns. dp_accounting: the optimistic row gives a lower
  value, the pessimistic and connect-the-dots rows an upper value; their "rel. width" pairs
  that upper value with the optimistic lower value of the same (problem, k).
  rel. width = (upper - lower) / upper.
  check: against the exact eps when known (contains / LOWER ABOVE EXACT / UPPER BELOW EXACT),
  otherwise against corbin's certified interval (a peer lower above corbin's upper, or a peer
  upper below corbin's lower, is wrong).

Example (about 11 minutes on a 2-core machine; the dp_accounting runs at k >= 10^4 take ~40 s each):
    /usr/bin/python3 tests/bench/accountant_peers.py --dp-accounting ... --prv-accountant ...
Quick:  --k-a 1,10,100 --k-b 1,100
"""

import argparse
import csv
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
import types
from decimal import Decimal, getcontext
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TOOLS = ["corbin", "dpa-opt", "dpa-pess", "dpa-ctd", "prv"]
TOOL_NAMES = {
    "corbin": "corbin (certified)",
    "dpa-opt": "dp_accounting PLD, optimistic",
    "dpa-pess": "dp_accounting PLD, pessimistic",
    "dpa-ctd": "dp_accounting PLD, connect-the-dots",
    "prv": "prv_accountant",
}

# ----------------------------------------------------------------------------- problems


def binomial_law(n, p):
    return [math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(n + 1)]


def convolve(a, b):
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def problem_laws(name):
    if name in ("a", "a_swapped"):
        p = [Fraction(3, 16), Fraction(10, 16), Fraction(3, 16)]
        q = [Fraction(9, 16), Fraction(6, 16), Fraction(1, 16)]
        return (q, p) if name == "a_swapped" else (p, q)
    if name == "b":
        base = binomial_law(49, Fraction(1, 4))
        p = convolve(base, [Fraction(1, 4), Fraction(3, 4)])
        q = convolve(base, [Fraction(3, 4), Fraction(1, 4)])
        assert sum(p) == 1 and sum(q) == 1
        return p, q
    raise ValueError(f"unknown problem {name!r}")


# ----------------------------------------------------------------------------- exact eps(delta)


def _compositions(k, m):
    """All (n_1..n_m) >= 0 with sum k."""
    if m == 1:
        yield (k,)
        return
    for first in range(k, -1, -1):
        for rest in _compositions(k - first, m - 1):
            yield (first,) + rest


def exact_classes(p, q, k, budget):
    """The k-fold pair grouped by likelihood ratio: {ratio: [P-mass, Q-mass]} scaled by D^k
    (integers), plus D^k; None when there are more than `budget` multinomial classes."""
    # Outcomes with the same ratio are one outcome as far as delta(eps) goes: merge them.
    merged = {}
    for x, y in zip(p, q):
        if x == 0 and y == 0:
            continue
        key = "inf" if y == 0 else x / y
        a = merged.setdefault(key, [Fraction(0), Fraction(0)])
        a[0] += x
        a[1] += y
    outcomes = list(merged.values())
    m = len(outcomes)
    if math.comb(k + m - 1, m - 1) > budget:
        return None
    den = 1
    for x, y in outcomes:
        den = math.lcm(den, x.denominator, y.denominator)
    pi = [int(x * den) for x, _ in outcomes]
    qi = [int(y * den) for _, y in outcomes]
    fact = [math.factorial(i) for i in range(k + 1)]
    classes = {}
    for ns in _compositions(k, m):
        coef = fact[k]
        a = b = 1
        for n, x, y in zip(ns, pi, qi):
            if n:
                coef //= fact[n]
                a *= x ** n
                b *= y ** n
        a *= coef
        b *= coef
        if a == 0 and b == 0:
            continue
        key = "inf" if b == 0 else ("zero" if a == 0 else Fraction(a, b))
        c = classes.setdefault(key, [0, 0])
        c[0] += a
        c[1] += b
    return classes, den ** k


def _exact_eps_one_order(classes, total, delta):
    """inf{eps : sum_o [P(o) - e^eps Q(o)]_+ <= delta} for the pair whose classes are
    {ratio P/Q: (P-mass, Q-mass)} (all scaled by `total`). Returns (Decimal or inf)."""
    target = delta * total  # Fraction
    cum_a = classes.get("inf", (0, 0))[0]
    cum_b = 0
    if cum_a > target:
        return Decimal("Infinity")
    finite = sorted((r, ab) for r, ab in classes.items() if r not in ("inf", "zero"))
    finite.reverse()  # ratios descending
    x = None
    for r, (a, b) in finite:
        # On [r, previous ratio): delta(x) * total = cum_a - x * cum_b.
        if cum_a - r * cum_b >= target:
            x = r if cum_b == 0 else (cum_a - target) / cum_b
            break
        cum_a += a
        cum_b += b
    if x is None:  # below the smallest ratio
        x = (cum_a - target) / cum_b
    x = Fraction(x)
    if x <= 0:
        return Decimal("-Infinity")
    return Decimal(x.numerator).ln() - Decimal(x.denominator).ln()


def exact_eps(p, q, k, delta, budget):
    """Exact eps(delta) = max over the two orders, as a Decimal (50 digits); None if too big."""
    getcontext().prec = 50
    got = exact_classes(p, q, k, budget)
    if got is None:
        return None
    classes, total = got
    swapped = {}
    for key, (a, b) in classes.items():
        nk = "zero" if key == "inf" else ("inf" if key == "zero" else 1 / key)
        swapped[nk] = [b, a]
    return max(_exact_eps_one_order(classes, total, delta),
               _exact_eps_one_order(swapped, total, delta))


# ----------------------------------------------------------------------------- sizing helpers
# Generic estimates used only to size the peers' grids (never reported as results).


def loss_stats(p, q):
    """Per order: (losses, probabilities under the upper law) in floats, sorted by loss."""
    out = []
    for up, lo in ((p, q), (q, p)):
        pts = sorted((math.log(x) - math.log(y), float(x)) for x, y in zip(up, lo) if x > 0 and y > 0)
        out.append(([l for l, _ in pts], [w for _, w in pts]))
    return out


def renyi(p, q, alpha):
    """D_alpha(P || Q) in float (log-sum-exp)."""
    terms = [alpha * (math.log(x)) + (1 - alpha) * math.log(y) for x, y in zip(p, q) if x > 0 and y > 0]
    mx = max(terms)
    return (mx + math.log(sum(math.exp(t - mx) for t in terms))) / (alpha - 1)


def eps_hat(p, q, k, delta):
    """RDP upper bound on eps(delta), max over both orders (sizing only)."""
    orders = [1 + i / 100 for i in range(1, 100)] + [2 + i / 4 for i in range(0, 400)]
    best = []
    for up, lo in ((p, q), (q, p)):
        best.append(min(k * renyi(up, lo, a) + math.log(1 / delta) / (a - 1) for a in orders))
    return max(best)


# ----------------------------------------------------------------------------- workers


def import_dp_accounting_pld(src):
    """dp_accounting.pld without dp_accounting/__init__.py (which imports absl via rdp)."""
    pkg_dir = os.path.join(src, "dp_accounting")
    if not os.path.isdir(os.path.join(pkg_dir, "pld")):
        raise ImportError(f"no dp_accounting/pld under {src!r} (pass .../differential-privacy/python/dp_accounting)")
    pkg = types.ModuleType("dp_accounting")
    pkg.__path__ = [pkg_dir]
    sys.modules["dp_accounting"] = pkg
    from dp_accounting.pld import pld_pmf, privacy_loss_distribution  # noqa: E402
    return pld_pmf, privacy_loss_distribution


def log_pmf(law):
    return {i: math.log(x.numerator) - math.log(x.denominator) for i, x in enumerate(law) if x > 0}


def hockey_stick(up, lo, eps):
    """sum_o [up(o) - e^eps lo(o)]_+ for an array of eps (floats)."""
    import numpy as np
    up = np.array([float(x) for x in up])
    lo = np.array([float(x) for x in lo])
    e = np.exp(np.asarray(eps, dtype=float))[:, None]
    return np.maximum(up[None, :] - e * lo[None, :], 0.0).sum(axis=1)


def dense_if_needed(pmf, k, pld_pmf):
    """What SparsePLDPmf.self_compose does, without computing size**k as an integer."""
    if isinstance(pmf, pld_pmf.SparsePLDPmf) and k > 1 and k * math.log(max(pmf.size, 1)) > math.log(1000):
        return pmf.to_dense_pmf()
    return pmf


def dpa_composed_cells(common, p, q, k, interval):
    """Cells of the k-fold PMF dp_accounting's self_compose allocates (max over the two orders)."""
    if k == 1:
        return 0
    worst = 0
    for losses, probs in loss_stats(p, q):
        idx = [math.ceil(l / interval) for l in losses]
        lo = min(idx)
        arr = [0.0] * (max(idx) - lo + 1)
        for i, w in zip(idx, probs):
            arr[i - lo] += w
        a, b = common.compute_self_convolve_bounds(arr, k, 1e-15)
        worst = max(worst, b - a + 1, len(arr))
    return worst


SIZING_NOTE = {}  # what the worker chose, for a run that fails before returning


def worker_dpa(cfg, p, q):
    pld_pmf, pld_mod = import_dp_accounting_pld(cfg["dp_accounting"])
    from dp_accounting.pld import common
    k, delta = cfg["k"], float(Fraction(cfg["delta"]))
    interval = cfg.get("dpa_interval")
    sized = ""
    if interval is None:
        # Its default, unless the composed PMF that self_compose would allocate (its own Chernoff
        # truncation bounds, common.compute_self_convolve_bounds, on the rounded single PMF) has
        # more than --bins cells: then the finest grid that fits.
        # The interval is capped at 1/16 of the single loss range: coarser grids say nothing.
        cap = max(l[-1] - l[0] for l, _ in loss_stats(p, q)) / 16
        interval = 1e-4
        for _ in range(8):
            cells = dpa_composed_cells(common, p, q, k, interval)
            if cells <= cfg["bins"] or interval >= cap:
                break
            interval = min(cap, interval * 1.05 * cells / cfg["bins"])
        sized = f", composed cells={cells:.3g}" + (" (over budget at the cap, loss range/16)" if cells > cfg["bins"] else "")
    SIZING_NOTE["text"] = f"; interval={interval:.3g}{sized}"
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    variant = cfg["tool"]
    if variant in ("dpa-opt", "dpa-pess"):
        pld = pld_mod.from_two_probability_mass_functions(
            log_pmf(q), log_pmf(p), pessimistic_estimate=(variant == "dpa-pess"),
            value_discretization_interval=interval, symmetric=False)
    else:  # connect-the-dots: the library's discrete-mechanism recipe, applied to each order
        pmfs = []
        for up, lo in ((p, q), (q, p)):
            scaled = sorted(math.log(x / y) / interval for x, y in zip(up, lo) if x > 0 and y > 0)
            grid = sorted({math.floor(s) for s in scaled} | {math.ceil(s) for s in scaled})
            deltas = hockey_stick(up, lo, [g * interval for g in grid])
            pmfs.append(pld_pmf.create_pmf_pessimistic_connect_dots(interval, grid, deltas))
        pld = pld_mod.PrivacyLossDistribution(pmfs[0], pmfs[1])
    if k > 1:
        pld = pld_mod.PrivacyLossDistribution(dense_if_needed(pld._pmf_remove, k, pld_pmf),
                                              dense_if_needed(pld._pmf_add, k, pld_pmf))
        pld = pld.self_compose(k)
    eps = float(pld.get_epsilon_for_delta(delta))
    t1 = time.perf_counter()
    lower = eps if variant == "dpa-opt" else None
    upper = None if variant == "dpa-opt" else eps
    return dict(lower=lower, upper=upper, time_s=t1 - t0, baseline_kib=rss0,
                params=f"interval={interval:.3g}{sized}")


def worker_prv(cfg, p, q):
    sys.path.insert(0, cfg["prv_accountant"])
    import numpy as np
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import PrivacyRandomVariable

    class DiscretePairPRV(PrivacyRandomVariable):
        """Privacy loss ln(up(o)/lo(o)), o ~ up, of a pair of laws with full common support."""

        def __init__(self, up, lo):
            pts = sorted((math.log(x / y), float(x), float(y)) for x, y in zip(up, lo) if x > 0 and y > 0)
            self.losses = np.array([t for t, _, _ in pts])
            self.cum = np.concatenate([[0.0], np.cumsum([w for _, w, _ in pts])])
            self.up = np.array([w for _, w, _ in pts])
            self.lo = np.array([v for _, _, v in pts])
            self.inf_mass = float(sum(x for x, y in zip(up, lo) if y == 0))

        def cdf(self, t):
            idx = np.searchsorted(self.losses, np.asarray(t, dtype=float), side="right")
            return self.cum[idx] / (1.0 - self.inf_mass)

        def mean(self):
            return float(np.dot(self.losses, self.up)) / (1.0 - self.inf_mass)

        def rdp(self, alpha):
            a = np.log(self.up) * alpha + np.log(self.lo) * (1 - alpha)
            mx = a.max()
            return float((mx + np.log(np.exp(a - mx).sum())) / (alpha - 1))

        @property
        def pm_inf(self):
            return self.inf_mass

    k, delta = cfg["k"], float(Fraction(cfg["delta"]))
    delta_error = delta / 1000
    eps_error = cfg.get("prv_eps_error")
    if eps_error is None:
        e_hat = eps_hat(p, q, k, delta)
        # PRVAccountant's mesh: eps_error / sqrt(k/2 ln(12/delta_error)); domain about [-L, L], L ~ e_hat + 3.
        spread = math.sqrt(k / 2 * math.log(12 / delta_error))
        eps_error = max(cfg["prv_rel"] / 2 * e_hat, 2 * (e_hat + 3) * spread / cfg["bins"])
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    res = []
    for up, lo in ((p, q), (q, p)):
        acc = PRVAccountant(prvs=[DiscretePairPRV(up, lo)], eps_error=eps_error, delta_error=delta_error,
                            max_self_compositions=[k])
        res.append(acc.compute_epsilon(delta=delta, num_self_compositions=[k]))
    t1 = time.perf_counter()
    out = dict(lower=max(r[0] for r in res), estimate=max(r[1] for r in res), upper=max(r[2] for r in res),
               time_s=t1 - t0, baseline_kib=rss0, params=f"eps_error={eps_error:.3g}")
    if math.isinf(out["upper"]):
        out["params"] += (f"; inf: its compute_epsilon divides by sum p*exp(-t) on its grid (long double),"
                          f" which underflows once eps > ~11356 (here eps_hat={eps_hat(p, q, k, delta):.3g})")
    return out


def worker_corbin(cfg, p, q):
    sys.path.insert(0, cfg["corbin"])
    import corbin
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    laws = [str(x) for x in p], [str(x) for x in q]
    # No --cells: the library's default grid for a pair of laws (Accountant::kLawsCells).
    acc = corbin.Accountant.from_laws(*laws) if cfg["cells"] is None else corbin.Accountant.from_laws(*laws, cells=cfg["cells"])
    if cfg["k"] > 1:
        acc = acc.compose(cfg["k"])
    lower, upper = acc.epsilon(cfg["delta"])
    t1 = time.perf_counter()
    return dict(lower=lower, upper=upper, time_s=t1 - t0, baseline_kib=rss0, params=f"cells={cfg['cells'] or 'default'}")


def worker_main(cfg_json):
    cfg = json.loads(cfg_json)
    p, q = problem_laws(cfg["problem"])
    fn = {"corbin": worker_corbin, "prv": worker_prv}.get(cfg["tool"], worker_dpa)
    try:
        out = fn(cfg, p, q)
        out["status"] = "ok"
    except MemoryError:
        out = dict(status="out of memory", error="MemoryError (address-space limit)" + SIZING_NOTE.get("text", ""))
    except Exception as e:  # noqa: BLE001 - a benchmark reports whatever a peer raises
        out = dict(status="error", error=f"{type(e).__name__}: {e}"[:300])
        if cfg["tool"] == "prv" and "Cannot compute epsilon" in str(e):
            out["error"] += (f" (its compute_epsilon evaluates exp(t)/exp(-t) on its grid in long double,"
                             f" out of range once eps > ~11356; eps_hat={eps_hat(p, q, cfg['k'], float(Fraction(cfg['delta']))):.3g})")
    print("RESULT " + json.dumps(out), flush=True)


# ----------------------------------------------------------------------------- driver


def run_worker(cfg, timeout, mem_limit_gb, scratch):
    """One subprocess; returns the worker's dict plus wall and peak RSS from os.wait4."""
    out_path = os.path.join(scratch, "worker.out")
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")

    def limit():
        if mem_limit_gb > 0:
            b = int(mem_limit_gb * 2 ** 30)
            resource.setrlimit(resource.RLIMIT_AS, (b, b))

    with open(out_path, "w") as f:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", json.dumps(cfg)],
                                stdout=f, stderr=subprocess.STDOUT, env=env, preexec_fn=limit,
                                start_new_session=True)
        status = ru = None
        while True:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > timeout:
                os.killpg(proc.pid, 9)  # the worker's own session: only what this script started
                _, status, ru = os.wait4(proc.pid, 0)
                proc.returncode = -9
                return dict(status="timeout", error=f"no result within {timeout} s",
                            peak_kib=ru.ru_maxrss, wall_s=time.perf_counter() - t0)
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    text = open(out_path).read()
    res = None
    for line in text.splitlines():
        if line.startswith("RESULT "):
            res = json.loads(line[len("RESULT "):])
    if res is None:
        tail = " | ".join(text.strip().splitlines()[-3:])[:300]
        sig = -proc.returncode if proc.returncode < 0 else None
        res = dict(status="crashed" if sig is None else f"killed by signal {sig}",
                   error=f"exit {proc.returncode}: {tail}")
    res["peak_kib"] = ru.ru_maxrss
    res["wall_s"] = wall
    return res


def fmt(x, digits=7):
    if x is None:
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return f"{x:.{digits}g}"


def _gap(value, exact):
    """' by <relative gap>', and whether it is within 2 ulp of the exact value (float rounding)."""
    gap = float((Decimal(value) - exact) / exact) if exact != 0 else float(Decimal(value) - exact)
    ulp = math.ulp(float(exact))
    within = abs(Decimal(value) - exact) <= 2 * Decimal(ulp)
    return f" by {abs(gap):.2g} rel." + (" (within 2 ulp: float rounding)" if within else "")


def check_row(tool, lower, upper, exact, corbin_iv):
    """Text for the check column and a dict of booleans for the CSV."""
    flags = {}
    if exact is not None:
        if lower is not None:
            flags["lower_le_exact"] = Decimal(lower) <= exact
        if upper is not None:
            flags["upper_ge_exact"] = Decimal(upper) >= exact
        bad = []
        if flags.get("lower_le_exact") is False:
            bad.append("LOWER ABOVE EXACT" + (" (optimistic estimate is not a lower bound)" if tool == "dpa-opt" else "")
                       + _gap(lower, exact))
        if flags.get("upper_ge_exact") is False:
            bad.append("UPPER BELOW EXACT" + _gap(upper, exact))
        if bad:
            return "; ".join(bad), flags
        if lower is not None and upper is not None:
            return "contains exact", flags
        return ("lower ≤ exact" if lower is not None else "upper ≥ exact"), flags
    if corbin_iv is None or tool == "corbin":
        return "", flags
    c_lo, c_up = corbin_iv
    bad = []
    if lower is not None and lower > c_up:
        bad.append("lower > corbin's certified upper" + (" (optimistic estimate is not a lower bound)" if tool == "dpa-opt" else ""))
    if upper is not None and upper < c_lo:
        bad.append("upper < corbin's certified lower")
    flags["consistent_with_corbin"] = not bad
    return ("; ".join(bad) if bad else "consistent with corbin"), flags


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--corbin", default=os.environ.get("CORBIN_PYTHONPATH", os.path.join(REPO, "build", "analysis", "python")),
                    help="folder holding the corbin module (env CORBIN_PYTHONPATH; default build/analysis/python)")
    ap.add_argument("--dp-accounting", default=os.environ.get("DP_ACCOUNTING_SRC"),
                    help="google/differential-privacy's python/dp_accounting folder (env DP_ACCOUNTING_SRC)")
    ap.add_argument("--prv-accountant", default=os.environ.get("PRV_ACCOUNTANT_SRC"),
                    help="microsoft/prv_accountant's checkout (env PRV_ACCOUNTANT_SRC)")
    ap.add_argument("--problems", default="a,a_swapped,b", help="comma list of a, a_swapped, b (default all three)")
    ap.add_argument("--k-a", default="1,2,3,10,100,10000,1000000,1000000000", help="k list for a")
    ap.add_argument("--k-a-swapped", default="1,2,3,10,100", help="k list for a_swapped (the same eps as a)")
    ap.add_argument("--k-b", default="1,100,10000,1000000", help="k list for b")
    ap.add_argument("--tools", default=",".join(TOOLS), help="comma list of " + ", ".join(TOOLS))
    ap.add_argument("--delta", default="1e-5")
    ap.add_argument("--cells", type=int, default=None, help="corbin's cells (default: from_laws' own, 8192)")
    ap.add_argument("--bins", type=float, default=2 ** 25, help="grid budget for the peers (default 2^25)")
    ap.add_argument("--dpa-interval", type=float, default=None, help="fix dp_accounting's discretisation interval")
    ap.add_argument("--prv-eps-error", type=float, default=None, help="fix prv_accountant's eps_error")
    ap.add_argument("--prv-rel", type=float, default=1e-3, help="prv eps_error = rel/2 * eps_hat at least (default 1e-3)")
    ap.add_argument("--exact-budget", type=int, default=200000,
                    help="compute the exact eps when the k-fold law has at most this many multinomial classes")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per run (default 300)")
    ap.add_argument("--mem-limit-gb", type=float, default=8.0, help="address-space limit per run, 0 = none (default 8)")
    ap.add_argument("--out", default="accountant_peers.csv", help="CSV path (default ./accountant_peers.csv)")
    args = ap.parse_args()
    if args.worker:
        worker_main(args.worker)
        return

    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    for t in tools:
        if t not in TOOLS:
            ap.error(f"unknown tool {t!r}")
    missing = {"dp_accounting": args.dp_accounting, "prv_accountant": args.prv_accountant}
    for name, path in missing.items():
        needs = any(t.startswith("dpa") for t in tools) if name == "dp_accounting" else "prv" in tools
        if needs and not (path and os.path.isdir(path)):
            ap.error(f"{name}: pass its source folder (see --help) or drop it from --tools")
    for prob in args.problems.split(","):
        if prob.strip() and prob.strip() not in ("a", "a_swapped", "b"):
            ap.error(f"unknown problem {prob!r}")
    delta = Fraction(args.delta)
    scratch_dir = tempfile.TemporaryDirectory(prefix="accountant_peers_")
    scratch = scratch_dir.name

    rows = []
    for prob in [s.strip() for s in args.problems.split(",") if s.strip()]:
        p, q = problem_laws(prob)
        klist = {"a": args.k_a, "a_swapped": args.k_a_swapped, "b": args.k_b}[prob]
        ks = [int(float(x)) for x in klist.split(",") if x.strip()]
        for k in ks:
            t0 = time.perf_counter()
            exact = exact_eps(p, q, k, delta, args.exact_budget)
            exact_s = time.perf_counter() - t0
            runs = {}
            for tool in tools:
                cfg = dict(problem=prob, k=k, tool=tool, delta=args.delta, cells=args.cells, bins=args.bins,
                           corbin=args.corbin, dp_accounting=args.dp_accounting, prv_accountant=args.prv_accountant,
                           dpa_interval=args.dpa_interval, prv_eps_error=args.prv_eps_error, prv_rel=args.prv_rel)
                r = run_worker(cfg, args.timeout, args.mem_limit_gb, scratch)
                runs[tool] = r
                print(f"  [{prob} k={k}] {tool}: {r.get('status')} lower={fmt(r.get('lower'))} "
                      f"upper={fmt(r.get('upper'))} t={fmt(r.get('time_s'), 3)}s wall={r['wall_s']:.1f}s "
                      f"peak={r['peak_kib'] / 1024:.0f}MiB {r.get('params', '')} {r.get('error', '')}",
                      file=sys.stderr, flush=True)
            corbin_iv = None
            c = runs.get("corbin")
            if c and c.get("status") == "ok":
                corbin_iv = (c["lower"], c["upper"])
            opt = runs.get("dpa-opt")
            opt_lower = opt.get("lower") if opt and opt.get("status") == "ok" else None
            for tool in tools:
                r = runs[tool]
                lower, upper = r.get("lower"), r.get("upper")
                pair_lower = opt_lower if tool in ("dpa-pess", "dpa-ctd") else lower
                width = None
                if r.get("status") == "ok" and pair_lower is not None and upper is not None \
                        and math.isfinite(upper) and upper != 0:
                    width = (upper - pair_lower) / abs(upper)
                check, flags = ("", {})
                if r.get("status") == "ok":
                    check, flags = check_row(tool, lower, upper, exact, corbin_iv)
                rows.append(dict(
                    problem=prob, k=k, tool=tool, tool_name=TOOL_NAMES[tool], status=r.get("status"),
                    lower=lower, estimate=r.get("estimate"), upper=upper, rel_width=width,
                    width_uses_dpa_opt_lower=tool in ("dpa-pess", "dpa-ctd"),
                    exact_eps=None if exact is None else float(exact), exact_eps_50digits=None if exact is None else str(exact),
                    exact_seconds=exact_s if exact is not None else None,
                    check=check, lower_le_exact=flags.get("lower_le_exact"), upper_ge_exact=flags.get("upper_ge_exact"),
                    consistent_with_corbin=flags.get("consistent_with_corbin"),
                    time_s=r.get("time_s"), wall_s=r.get("wall_s"), peak_mib=r["peak_kib"] / 1024,
                    baseline_mib=(r["baseline_kib"] / 1024) if r.get("baseline_kib") else None,
                    params=r.get("params", ""), error=r.get("error", "")))

    scratch_dir.cleanup()
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["problem"])
        w.writeheader()
        for r in rows:
            w.writerow(r)

    print(f"delta = {args.delta}; eps(delta) = max over both orders; corbin cells = {args.cells or 'default (8192)'}; "
          f"peers' grid budget = {int(args.bins)} cells; timeout {args.timeout:g} s; "
          f"address-space limit {args.mem_limit_gb:g} GiB per run\n")
    print("| problem | k | tool | lower | upper | rel. width | exact ε | check | time s | peak / after-imports MiB | params / status |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        ok = r["status"] == "ok"
        width = fmt(r["rel_width"], 3) + ("†" if r["width_uses_dpa_opt_lower"] and r["rel_width"] is not None else "")
        status = r["params"] if ok else f"**{r['status']}**: {r['error']}"
        print(f"| {r['problem']} | {r['k']:g} | {r['tool_name']} | {fmt(r['lower']) if ok else '—'} | "
              f"{fmt(r['upper']) if ok else '—'} | {width if ok else '—'} | "
              f"{fmt(r['exact_eps'], 10) if r['exact_eps'] is not None else '—'} | {r['check']} | "
              f"{fmt(r['time_s'], 3) if ok else fmt(r['wall_s'], 3)} | {r['peak_mib']:.0f}"
              f"{' / %.0f' % r['baseline_mib'] if r['baseline_mib'] else ''} | "
              f"{status.replace('|', '/')} |")
    print("\n† width of [dp_accounting optimistic lower, this upper]. time: the tool's calls only "
          "(for a run that failed or timed out: its wall time); peak MiB: the run's max RSS (os.wait4), "
          "imports included; after-imports: its RSS high-water mark before the tool's first call. "
          f"CSV: {args.out}")


if __name__ == "__main__":
    main()
