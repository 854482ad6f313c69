"""E1–E5: the experiments, under the sequential rule fixed before the runs (experiments.hpp):
Welch's t on the first 3, 6, 10 of these seeds, one-sided both ways at RULE_ALPHA / 3 per look.

analysis/fl_experiments.py takes the rule and each claim's design from here, so that the report's
decisions are this independent code's."""
import csv
import io
import math
import os

from .common import check_verdict
from .limits import PROOFS_CHECK_DIR
from .report import Malformed, short
from .schema import boolean, integer, list_of, nat, number, obj, one_of, spec_or, text
from .untrusted import read_untrusted


def side_rule(value, path):
    """A compared configuration (experiments.cpp values_json): one value and flag per seed."""
    if len(value["stopped"]) != len(value["values"]):
        raise Malformed(f"{path}/stopped", f"one flag per value ({len(value['values'])}), not {len(value['stopped'])}")
    if "run" in value and len(value["seeds"]) != len(value["values"]):
        raise Malformed(f"{path}/seeds", f"one seed per value ({len(value['values'])}), not {len(value['seeds'])}")
    if "minus_run" in value and "run" not in value:
        raise Malformed(f"{path}/run", "missing (a difference names both runs)")


SIDE = obj({"label": text, "seeds": list_of(integer, nonempty=False), "values": list_of(number, nonempty=False),
            "stopped": list_of(boolean, nonempty=False)}, {"run": text, "minus_run": text}, side_rule)


def number_or(*words):
    return spec_or(number, "a finite number", *words)


LOOK = obj({"n": nat, "difference": number, "se": number, "df": number_or("inf"), "t": number_or("inf", "-inf"),
            "p_above": number, "p_below": number, "low": number, "high": number,
            "order": one_of("above", "below", "undecided")})
COMPARISON = obj({"kind": one_of("sequential_welch"), "a": SIDE, "b": SIDE,
                  "looks": list_of(LOOK, nonempty=False, lengths=(0, 1, 2, 3)),
                  "order": one_of("above", "below", "undecided", "pending", "missing")})
RULE = obj({"test": text, "sequential_seeds": list_of(integer), "looks": list_of(nat), "alpha": number,
            "level_per_look": text, "parts": text})
PART = obj({"statement": text, "want": one_of("above", "not above", "not below"),
            "verdict": one_of("holds", "fails", "undecided"), "comparisons": list_of(COMPARISON)})
# How many parts each of E1–E5 has (check_e<k>.cpp; experiment_design says what they compare).
# A certificate has these parts, or none at all when the results CSV was missing.
EXPERIMENT_PARTS = {"E1": 2, "E2": 2, "E3": 2, "E4": 3, "E5": 3}


def experiment_schema(claim):
    return obj({"results_csv": text, "data_set": text, "metric": text, "rule": RULE,
                "settings": obj({}, {"clients": text, "lambda": text, "rounds": text}),
                "parts": list_of(PART, nonempty=False, lengths=(0, EXPERIMENT_PARTS[claim]))})


DATA = {claim: experiment_schema(claim) for claim in EXPERIMENT_PARTS}


SEQUENTIAL_SEEDS = (0, 42, 100, 1234, 5678, 1, 2, 3, 4, 5)
LOOKS = (3, 6, 10)
RULE_ALPHA = 0.05


def log_beta_ratio(a, b, x):
    """log of x^a (1 − x)^b / (a B(a, b))."""
    return a * math.log(x) + b * math.log1p(-x) - math.log(a) - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))


def incomplete_beta(a, b, x):
    """The regularized incomplete beta I_x(a, b), by its continued fraction (modified Lentz), on
    the side where it converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - incomplete_beta(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 10000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-16:
            break
    return math.exp(log_beta_ratio(a, b, x)) * f


def student_t_upper(t, df):
    """P(T >= t) for Student's t with df > 0 degrees of freedom (not necessarily whole)."""
    tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def student_t_quantile_upper(p, df):
    """The t with P(T >= t) = p (0 < p < 1/2), by bisection."""
    low, high = 0.0, 1.0
    while student_t_upper(high, df) > p:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if student_t_upper(mid, df) > p else (low, mid)
    return (low + high) / 2


def is_constant(side):
    """A threshold to compare against (one value, no run), not a configuration's seeds."""
    return "run" not in side and len(side["values"]) == 1


def first_seeds(side, n):
    """The values of the first n sequential seeds (a constant: its one value), or None."""
    if is_constant(side):
        return list(side["values"])
    by_seed = dict(zip(side["seeds"], side["values"]))
    if any(seed not in by_seed for seed in SEQUENTIAL_SEEDS[:n]):
        return None
    return [by_seed[seed] for seed in SEQUENTIAL_SEEDS[:n]]


def welch_look(a, a_constant, b, b_constant):
    """One look: (n, difference, se, df, t, p_above, p_below, low, high, order)."""
    level = RULE_ALPHA / len(LOOKS)

    def moments(x, constant):
        mean = sum(x) / len(x)
        if constant:
            return mean, 0.0
        return mean, sum((v - mean) ** 2 for v in x) / (len(x) - 1) / len(x)

    (ma, va), (mb, vb) = moments(a, a_constant), moments(b, b_constant)
    n = max(0 if a_constant else len(a), 0 if b_constant else len(b))
    difference, se = ma - mb, math.sqrt(va + vb)
    if se == 0:
        t = math.inf if difference > 0 else -math.inf if difference < 0 else 0.0
        p_above, p_below = (0.0 if difference > 0 else 1.0), (0.0 if difference < 0 else 1.0)
        df, low, high = math.inf, difference, difference
    else:
        spread = (0 if a_constant else va * va / (len(a) - 1)) + (0 if b_constant else vb * vb / (len(b) - 1))
        df = (va + vb) ** 2 / spread if spread > 0 else math.nan
        # Welch's range, [smaller spread sample's size - 1, the sizes - 2]: its nearest end stands in
        # where the squares underflow.
        fewest = min(len(b) if a_constant else len(a), len(a) if b_constant else len(b)) - 1
        most = (0 if a_constant else len(a) - 1) + (0 if b_constant else len(b) - 1)
        if not df >= fewest:
            df = float(fewest)
        df = min(df, float(most))
        t = difference / se
        p_above, p_below = student_t_upper(t, df), student_t_upper(-t, df)
        q = student_t_quantile_upper(level, df)
        low, high = difference - q * se, difference + q * se
    order = "above" if p_above <= level else "below" if p_below <= level else "undecided"
    return {"n": n, "difference": difference, "se": se, "df": df, "t": t, "p_above": p_above, "p_below": p_below,
            "low": low, "high": high, "order": order}


def sequential_order(a_side, b_side):
    """experiments.cpp sequential: the looks made and the rule's order."""
    looks = []
    for n in LOOKS:
        a, b = first_seeds(a_side, n), first_seeds(b_side, n)
        if a is None or b is None:
            return looks, ("pending" if looks else "missing")
        looks.append(welch_look(a, is_constant(a_side), b, is_constant(b_side)))
        if looks[-1]["order"] != "undecided":
            break
    return looks, looks[-1]["order"]


def same_look(claimed, recomputed):
    """A look as written against the recomputed one: n and order exactly, the numbers to 1e-9."""
    if claimed["n"] != recomputed["n"] or claimed["order"] != recomputed["order"]:
        return False
    for key in ("difference", "se", "df", "t", "p_above", "p_below", "low", "high"):
        c, r = claimed[key], recomputed[key]
        if isinstance(c, str) or math.isinf(r):
            if c != ("inf" if r > 0 else "-inf") if isinstance(c, str) else True:
                return False
        elif not math.isclose(c, r, rel_tol=1e-9, abs_tol=1e-12):
            return False
    return True


GIVES = {"above": ("above",), "not above": ("below", "undecided"), "not below": ("above", "undecided")}
OPPOSES = {"above": "below", "not above": "above", "not below": "below"}


def part_verdict(want, orders):
    """A part fails when a comparison decides the opposite of what it wants, holds when every one
    gives it, and is undecided otherwise (experiments.hpp)."""
    if any(order == OPPOSES[want] for order in orders):
        return "fails"
    return "holds" if all(order in GIVES[want] for order in orders) else "undecided"


def claim_verdict(verdicts):
    """A claim fails if a part fails, holds if every part holds, else undecided."""
    return "fails" if "fails" in verdicts else "holds" if all(v == "holds" for v in verdicts) else "undecided"


def read_results_csv(path):
    """experiments.cpp load_experiment_runs: run -> [(seed, accuracy %, stopped)] sorted by seed,
    and the first row's settings. Raises Malformed naming the line."""
    runs, settings = {}, None
    with io.StringIO(read_untrusted(path), newline="") as f:
        reader = csv.DictReader(f)
        for column in ("run", "seed", "test_accuracy_at_best_round", "stopped", "clients", "lambda", "rounds_run"):
            if column not in (reader.fieldnames or []):
                raise Malformed("header", f"a column {column}")
        for row in reader:
            where = f"line {reader.line_num}"
            if None in row or None in row.values():
                raise Malformed(where, f"{len(reader.fieldnames)} fields expected, as in the header")
            try:
                fraction = float(row["test_accuracy_at_best_round"])
                seed = int(row["seed"])
            except (TypeError, ValueError):
                raise Malformed(where, "a seed and an accuracy that are numbers") from None
            if not 0 <= fraction <= 1:
                raise Malformed(where, "an accuracy in [0, 1]")
            value = 100 * fraction
            runs.setdefault(row["run"], []).append((seed, value, bool(row["stopped"])))
            if settings is None:
                settings = {"clients": row["clients"], "lambda": row["lambda"], "rounds": row["rounds_run"]}
    return {name: sorted(rows) for name, rows in runs.items()}, settings or {}


def expected_side(runs, side):
    """(seeds, values, stopped) the check would write for this side (experiments.cpp get and
    paired_difference), or None for a constant."""
    if "run" not in side:
        return None
    a = runs.get(side["run"], [])
    if "minus_run" not in side:
        return [s for s, _, _ in a], [v for _, v, _ in a], [t for _, _, t in a]
    b = {s: (v, t) for s, v, t in runs.get(side["minus_run"], [])}
    both = [(s, v - b[s][0], t or b[s][1]) for s, v, t in a if s in b]
    return [s for s, _, _ in both], [v for _, v, _ in both], [t for _, _, t in both]


def run_side(run, minus_run=None):
    return ("run", run, minus_run)


def constant_side(values):
    return ("constant", tuple(values))


def experiment_design(claim, parts):
    """What each part of the claim compares (check_e<k>.cpp): [(want, [(a, b), ...]), ...], a side
    being run_side(run[, minus_run]) or constant_side(values). E5's second part compares the gaps
    (CorBin-FL − LDP-FL, seed by seed) of its first part that are not empty, each with the next."""
    if claim == "E1":
        return [("above", [(run_side(f"exp1-{mech}"), run_side(f"exp1-{base}"))
                           for base in ("ldp", "laplace", "gaussian")]) for mech in ("corbin", "augcorbin")]
    if claim == "E2":
        return [("above", [(run_side("exp7-corbin-eps1"), run_side("exp2-d3"))]),
                ("not above", [(run_side("exp2-d7"), run_side("exp7-corbin-eps1"))])]
    if claim == "E3":
        return [("not below", [(run_side(name), run_side("exp7-corbin-eps1"))]) for name in ("exp3-p1_4", "exp3-p1_2")]
    if claim == "E4":
        return [("above", [(run_side(f"exp4-n{n}-corbin"), run_side(f"exp4-n{n}-ldp"))]) for n in (50, 200, 500)]
    # E5
    def name(mech, eps):
        return f"exp1-{mech}" if eps == "5" else f"exp7-{mech}-eps{eps}"
    epsilons = ("0.1", "0.5", "1", "3", "5")
    better = [(run_side(name("corbin", e)), run_side(name("ldp", e))) for e in epsilons]
    gaps = []
    for item in parts[0]["comparisons"] if parts else []:
        a, b = item["a"], item["b"]
        if set(a["seeds"]) & set(b["seeds"]) and "run" in a and "run" in b:
            gaps.append(run_side(a["run"], b["run"]))
    grows = list(zip(gaps, gaps[1:])) if len(gaps) >= 2 else [(constant_side([]), constant_side([]))]
    loss = [(constant_side([1.5]), run_side("exp1-vanilla", name("corbin", "0.5")))]
    return [("above", better), ("above", grows), ("above", loss)]


def side_identity(side):
    if "run" in side:
        return run_side(side["run"], side.get("minus_run"))
    return constant_side(side["values"]) if not side["seeds"] else ("constant with seeds", tuple(side["seeds"]))


def recheck_experiment(cert, report, out_dir, csv_cache):
    """E1–E5. Recomputed from the certificate alone: what each part compares and wants (the
    check's fixed design, experiment_design), every comparison's order from its values, each
    part's verdict and the claim's (experiments.hpp's rule), every difference side from its two
    runs where both appear elsewhere in the certificate, and that a run reads the same wherever
    it appears. From the results CSV (where the audit read it, or DIR/fl-full/results.csv): every
    side's seeds, values and stopped flags, and the settings. With no parts the CSV must be
    missing and the verdict undecided."""
    data, claim = cert["data"], cert["id"]
    # Where the certificate says (absolute, or relative to this checker's project), or the report's own.
    here = os.path.join(PROOFS_CHECK_DIR, os.pardir)
    candidates = [data["results_csv"], os.path.join(here, data["results_csv"]), os.path.join(out_dir, "fl-full", "results.csv")]
    found = next((p for p in candidates if os.path.isfile(p)), None)
    runs = None
    report.equal("data/rule/sequential_seeds", data["rule"]["sequential_seeds"], list(SEQUENTIAL_SEEDS))
    report.equal("data/rule/looks", data["rule"]["looks"], list(LOOKS))
    report.equal("data/rule/alpha", data["rule"]["alpha"], RULE_ALPHA)
    if found is not None:
        if found not in csv_cache:
            try:
                csv_cache[found] = read_results_csv(found)
            except Malformed as e:
                raise Malformed(e.path, e.what, file=found) from None
            except (OSError, UnicodeDecodeError, csv.Error) as e:
                raise Malformed("", f"unreadable ({e})", file=found) from None
        runs, settings = csv_cache[found]
        report.equal("data/settings", data["settings"], settings)
    else:
        report.not_recomputable("data/parts/*/comparisons/*/{a,b}/{seeds,values,stopped}, data/settings",
                                "the results CSV " + data["results_csv"] + " is not here")
    parts = data["parts"]
    if not parts:
        report.expect(found is None, "data/parts", f"empty, but the results CSV {found} exists")
        check_verdict(report, cert, "undecided")
        return
    design = experiment_design(claim, parts)
    for i, (part, (want, pairs)) in enumerate(zip(parts, design)):
        report.equal(f"data/parts/{i}/want", part["want"], want)
        got = [(side_identity(item["a"]), side_identity(item["b"])) for item in part["comparisons"]]
        report.equal(f"data/parts/{i}/comparisons", got, pairs, "the runs compared")
    seen = {}    # run name -> (seeds, values, stopped), plain runs only
    sides = []   # (path, side)
    for i, part in enumerate(parts):
        for j, item in enumerate(part["comparisons"]):
            for key in ("a", "b"):
                sides.append((f"data/parts/{i}/comparisons/{j}/{key}", item[key]))
    for path, side in sides:
        if "run" in side and "minus_run" not in side:
            record = (side["seeds"], side["values"], side["stopped"])
            first = seen.setdefault(side["run"], record)
            report.expect(first == record, path, f"run {side['run']} reads differently elsewhere in the certificate")
    for path, side in sides:
        if "minus_run" in side and side["run"] in seen and side["minus_run"] in seen:
            table = {side["run"]: list(zip(*seen[side["run"]])), side["minus_run"]: list(zip(*seen[side["minus_run"]]))}
            report.equal(path, (side["seeds"], side["values"], side["stopped"]), tuple(expected_side(table, side)),
                         "the difference of its runs as written elsewhere")
        if runs is not None and "run" in side:
            report.equal(path, (side["seeds"], side["values"], side["stopped"]), tuple(expected_side(runs, side)),
                         f"seeds, values, stopped of {side['run']}" + (f" − {side['minus_run']}"
                                                                       if "minus_run" in side else ""))
    verdicts = []
    for i, part in enumerate(parts):
        want, orders = part["want"], []
        for j, item in enumerate(part["comparisons"]):
            looks, order = sequential_order(item["a"], item["b"])
            report.equal(f"data/parts/{i}/comparisons/{j}/order", item["order"], order)
            report.expect(len(item["looks"]) == len(looks) and all(map(same_look, item["looks"], looks)),
                          f"data/parts/{i}/comparisons/{j}/looks",
                          f"{short(item['looks'])} != recomputed {short(looks)}")
            orders.append(order)
        verdict = part_verdict(want, orders)
        report.equal(f"data/parts/{i}/verdict", part["verdict"], verdict)
        verdicts.append(verdict)
    check_verdict(report, cert, claim_verdict(verdicts))
