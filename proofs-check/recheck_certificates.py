#!/usr/bin/python3
"""Independent recheck of the audit's certificates (DIR/certificates/<ID>.json).

Nothing here calls the C++ library. Each certificate that proofs-check/check_<id>.cpp writes
is first held against a schema (the fields its check always writes, with their types), then
every value that can be recomputed from the certificate's own content is recomputed from the
paper's definitions, and every verdict is re-derived from the recomputed facts with the rule
its check applies. Rational data stay exact (fractions.Fraction); where a logarithm or a
square root enters (T3, T4) the arithmetic is decimal at kWorkDigits significant digits and
compared with the certificate's enclosures. The three readings of Algorithm 2 (corrected,
as-printed, reference-code) are implemented from the paper and REFERENCES.md twice: an O(1)
closed form over the threshold cells, and an enumeration of every shared vector Z for small d;
the two are compared wherever both run.

A certificate names its grid ("paper" or "quick"), which this script knows (GRIDS, as
common.cpp defines them): counts over the grid are recounted point by point. What it cannot
recompute is not pretended: every run lists each such group of values as "not recomputable from
the certificate", with what would be needed, and the summary line counts them (today only T3's
certified PLD compositions at the paper's model sizes, which this script does not reimplement).

Usage: /usr/bin/python3 proofs-check/recheck_certificates.py [--verbose] [--only ID,...] DIR
       /usr/bin/python3 proofs-check/recheck_certificates.py --self-test

  --only ID,...  recheck only these claims (the other certificates may be absent)
  --verbose      also say how many items each certificate had rechecked
  --self-test    cross-check this script's closed forms against brute force, then exit

Exit status: 0 every recomputed item agrees; 1 some item disagrees (a line
`MISMATCH <cert> <path>: <what>` each, then a summary line); 2 malformed input: a certificate
or the results CSV is missing, unreadable or not JSON, or lacks a field or has one of the wrong
type or a value outside its domain (a line `MALFORMED <file> <path>: <what>` each); 4 an
internal error of this script (one line). Nothing ends in a traceback.

Every file read from DIR is untrusted. Before it is parsed it must be at most kMaxInputBytes
(64 MiB) long and, for JSON, nested at most kMaxJsonDepth (64) levels deep (a linear scan that
skips strings; no recursion); a JSON object may not repeat a key (json keeps the last value, a
reader taking the first would see another). Each is a MALFORMED line naming the file, and the
limit and what was found or the key's path. Every parameter a formula takes (α > 1, e^ε > 1,
r > 0, δ in (0, 1), γ in (0, 1] with nγ >= 2, m >= 1, probabilities in [0, 1], inputs in
[c − r, c + r], d and client counts within this script's limits) is range-checked against the
formula's domain before it is used, and a value outside is MALFORMED with its path.
"""
import csv
import io
import itertools
import json
import math
import os
import re
import sys
from decimal import Decimal, localcontext
from fractions import Fraction as F

CLAIM_IDS = ("P1", "A2", "T1a", "T1b", "T1c", "T1u", "T2a", "T2b", "T2c", "T3", "T3m", "T4", "T4u", "T4m", "S1", "D0",
             "D1", "C1", "R1", "X1", "G1", "X8",
             "L1", "B1", "E1", "E2", "E3", "E4", "E5")
VARIANTS = ("corrected", "as-printed", "reference-code")
JOINT_KEYS = ("++", "+-", "-+", "--")

# Largest d the library accepts (corbinq.hpp kMaxBits) and largest binomial it sums exactly
# (dropout.hpp kExactBinomialTrials): bounds on what a certificate may ask this script to compute.
kMaxBits = 1 << 20
kExactBinomialTrials = 4000

# Every check evaluates Algorithm 2 at center c = 0 and radius r = 1 (check_*.cpp: `c(0), r(1)`).
CENTER, RADIUS = F(0), F(1)

# The enumeration of all 2^d shared vectors runs as a cross-check of the closed form up to here.
kMaxEnumeratedBits = 10
# Search sizes beyond which an exhaustive recomputation is not attempted (the checks never go
# near them: L1 stops at d = 5, T1c's witness at d = 3).
kMaxLeakageCells = 1 << 12
kMaxOptimisedCells = 1 << 12

# The audit's two grids (common.cpp Grid::paper and Grid::quick_grid), which a certificate names:
# the ε grid (e^ε rounded up to six decimals, exp_eps_of), d, n, and inputs w ∈ [c − r, c + r] at
# steps of r / input_steps.
GRIDS = {"paper": {"eps": (0.1, 0.3, 0.5, 1, 3, 5, 7), "bits": (0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 64),
                   "clients": (50, 100, 200, 500), "enumerate_up_to": 8, "optimise_up_to": 3, "input_steps": 8},
         "quick": {"eps": (0.5, 1, 5), "bits": (0, 1, 5), "clients": (50,), "enumerate_up_to": 5,
                   "optimise_up_to": 2, "input_steps": 4}}


def exp_eps_of(eps):
    """common.cpp exp_eps_near: ⌈e^eps · 10^6⌉ / 10^6, in doubles as there."""
    return F(math.ceil(math.exp(eps) * 1e6), 10 ** 6)


def grid_inputs(grid, c, r):
    """common inputs.hpp input_grid: c + r·k/steps for k = −steps, …, steps."""
    steps = GRIDS[grid]["input_steps"]
    return [c + r * F(k, steps) for k in range(-steps, steps + 1)]
# Decimal arithmetic for the transcendental values: kWorkDigits significant digits. The
# certificates print each end of an enclosure with kCertDigits significant digits (rounded), so
# a recomputed value may sit outside the printed ends by one unit in the last printed digit;
# kEnclosureSlack allows ten such units, relative, and the work precision leaves ~30 digits of
# headroom below that.
kWorkDigits = 60
kCertDigits = 30
kEnclosureSlack = Decimal(10) ** -(kCertDigits - 2)
# A `_approx` twin is a double rounded once from the exact value or the enclosure's midpoint
# (error <= 1 ulp = 2^-52 relative); Python's float(Fraction) is correctly rounded (1/2 ulp).
kApproxRelTol = 2.0 ** -51

# Untrusted input (certificates, the results CSV): read at most kMaxInputBytes, parse JSON only
# when nested at most kMaxJsonDepth deep. The largest certificate is ~400 KB on the paper grid
# (T1c; B1 ~62 KB on the quick grid) and the results CSV ~11 KB, so 64 MiB leaves a margin of more
# than 100 while bounding what one file can cost (memory for the parsed tree, the linear depth
# scan, the decimal and exact arithmetic driven by what it lists). The checks nest at most 8
# levels (root object, data, a list of rows or witnesses, a row, a list of atoms, an atom ...):
# 64 leaves a margin of 8 and keeps every recursive walk here far from Python's recursion limit.
kMaxInputBytes = 64 << 20
kMaxJsonDepth = 64
# Clients in an exactly computed population (T3's and S1's replace-one laws, T3's witnesses):
# exact_ucdp.hpp kMaxExactClients, the library's own limit for these laws.
kMaxExactClients = 5000
# Trials of T4u's exact survival sums (two survival_at_least, in big integers: 0.7 s at the
# check's n = 4400, ~7 s at this limit, growing about as n^2.5).
kMaxSurvivalTrials = 10_000
# Largest ε the library accepts (budget.hpp Budget::kMaxEps).
kMaxEps = 10 ** 8

if hasattr(sys, "set_int_max_str_digits"):
    # T3's and T4's exact probabilities have thousands of digits; a bound still applies.
    sys.set_int_max_str_digits(200_000)


# ---------------------------------------------------------------------------------------------
# Outcomes

class Malformed(Exception):
    """The input is not what a check writes: a field missing or of the wrong type. `file` names
    the offending file when it is not the certificate being read (the results CSV)."""

    def __init__(self, path, what, file=None):
        super().__init__(f"{path}: {what}")
        self.path, self.what, self.file = path, what, file


class InternalError(Exception):
    """This script disagrees with itself (e.g. closed form != enumeration)."""


def show(value):
    """A value as text: exact values as p/q, containers recursively, JSON literals as in JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return str(value)


def short(value, limit=60):
    """A value as text, shortened when long: a long exact value as its decimal approximation
    (exact probabilities have thousands of digits), other text cut in the middle."""
    text = show(value)
    if len(text) > limit:
        if RATIONAL_RE.fullmatch(text):
            try:
                return f"{float(F(text)):.17g} (≈; exact, {len(text)} chars)"
            except OverflowError:
                pass
        text = f"{text[:limit // 2]}…{text[-12:]} ({len(text)} chars)"
    return text


class CertReport:
    """Collects one certificate's comparisons; paths are JSON paths such as data/rows/3/bound."""

    def __init__(self, name):
        self.name = name
        self.items = 0
        self.mismatches = []
        self.unrecomputable = []

    def expect(self, ok, path, what):
        self.items += 1
        if not ok:
            self.mismatches.append(f"MISMATCH {self.name} {path}: {what}")
        return ok

    def equal(self, path, claimed, recomputed, text=None):
        """The certificate's value against the recomputed one, exactly."""
        return self.expect(claimed == recomputed, path,
                           f"{short(text if text is not None else claimed)} != recomputed {short(recomputed)}")

    def not_recomputable(self, path, why):
        self.unrecomputable.append(f"{self.name} {path}: not recomputable from the certificate ({why})")


# ---------------------------------------------------------------------------------------------
# Schema: what each check writes. A spec is a function (value, path) -> None raising Malformed.

RATIONAL_RE = re.compile(r"-?[0-9]+(/[0-9]+)?")
INTEGER_RE = re.compile(r"-?[0-9]+")
DECIMAL_RE = re.compile(r"-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?")


def _type_name(value):
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def nat(value, path):
    if type(value) is not int or value < 0:
        raise Malformed(path, f"a non-negative integer, not {_type_name(value)} {short(value)}")


def nat_at_most(limit, why):
    """A non-negative integer that drives a loop or a power: bounded, so no input can hang the recheck."""
    def spec(value, path):
        nat(value, path)
        if value > limit:
            raise Malformed(path, f"at most {limit} ({why}), not {value}")
    return spec


def nat_between(low, high, name, why):
    """A non-negative integer `name` in [low, high] (high may be math.inf): `why` says which formula
    or limit asks for it."""
    bounds = f"{name} >= {low}" if high == math.inf else f"{low} <= {name} <= {high}"

    def spec(value, path):
        nat(value, path)
        if not low <= value <= high:
            raise Malformed(path, f"{short(value)} is outside its domain ({bounds}: {why})")
    return spec


def integer(value, path):
    if type(value) is not int:
        raise Malformed(path, f"an integer, not {_type_name(value)} {short(value)}")


def integer_where(test, rule):
    def spec(value, path):
        integer(value, path)
        if not test(value):
            raise Malformed(path, f"{short(value)} is outside its domain ({rule})")
    return spec


def boolean(value, path):
    if type(value) is not bool:
        raise Malformed(path, f"true or false, not {_type_name(value)} {short(value)}")


def text(value, path):
    if type(value) is not str:
        raise Malformed(path, f"a string, not {_type_name(value)} {short(value)}")


def number(value, path):
    if type(value) not in (int, float) or not math.isfinite(value):
        raise Malformed(path, f"a finite number, not {_type_name(value)} {short(value)}")


def rational(value, path):
    """An exact value as the checks write it: "p" or "p/q" with q > 0."""
    if type(value) is not str or not RATIONAL_RE.fullmatch(value):
        raise Malformed(path, f"an exact rational \"p/q\", not {_type_name(value)} {short(value)}")
    if "/" in value and int(value.split("/")[1]) == 0:
        raise Malformed(path, f"an exact rational, not {short(value)} (zero denominator)")


def rational_where(test, rule):
    """An exact rational inside its domain (a value no check can write is malformed input)."""
    def spec(value, path):
        rational(value, path)
        if not test(F(value)):
            raise Malformed(path, f"{short(value)} is outside its domain ({rule})")
    return spec


def int_string(value, path):
    if type(value) is not str or not INTEGER_RE.fullmatch(value):
        raise Malformed(path, f"an integer in decimal, not {_type_name(value)} {short(value)}")


def interval(value, path):
    """A certified enclosure: [lower, upper], each a decimal string, lower <= upper."""
    if type(value) is not list or len(value) != 2 or any(type(v) is not str or not DECIMAL_RE.fullmatch(v)
                                                         for v in value):
        raise Malformed(path, f"an enclosure [\"lower\", \"upper\"] of decimals, not {short(value)}")
    if any(abs(Decimal(v).adjusted()) > 1000 for v in value):
        raise Malformed(path, f"an enclosure of moderate magnitude (|exponent| <= 1000), not {short(value)}")
    if Decimal(value[0]) > Decimal(value[1]):
        raise Malformed(path, f"an enclosure with lower <= upper, not {short(value)}")


def one_of(*choices):
    def spec(value, path):
        if type(value) not in (str, int) or type(value) is bool or value not in choices:
            raise Malformed(path, f"one of {', '.join(map(str, choices))}, not {short(value)}")
    return spec


def spec_or(inner, what, *words):
    """A value `inner` accepts (`what` names it), or one of the words."""
    def spec(value, path):
        if type(value) is str and value in words:
            return
        try:
            inner(value, path)
        except Malformed:
            raise Malformed(path, f"{what} or {' / '.join(words)}, not {short(value)}") from None
    return spec


def rational_or(*words):
    return spec_or(rational, "an exact rational", *words)


def verdict_text(value, path):
    """The verdict vocabulary of claims.hpp (Verdict, ClaimResult::verdict_text)."""
    if type(value) is not str or not (value in ("holds", "holds with slack", "fails", "undecided")
                                      or (value.startswith("holds only under ") and len(value) > 17)):
        raise Malformed(path, f"a verdict (holds, holds with slack, holds only under …, fails, undecided), "
                              f"not {short(value)}")


def list_of(item, nonempty=True, lengths=None):
    def spec(value, path):
        if type(value) is not list:
            raise Malformed(path, f"a list, not {_type_name(value)} {short(value)}")
        if nonempty and not value:
            raise Malformed(path, "a non-empty list (its check always writes rows here)")
        if lengths is not None and len(value) not in lengths:
            raise Malformed(path, f"a list of {' or '.join(map(str, lengths))} entries, not {len(value)}")
        for i, v in enumerate(value):
            item(v, f"{path}/{i}")
    return spec


def obj(required, optional=None, rule=None):
    """An object with these fields (extra fields are allowed) and an optional cross-field rule."""
    optional = optional or {}

    def spec(value, path):
        if type(value) is not dict:
            raise Malformed(path, f"an object, not {_type_name(value)} {short(value)}")
        for key, item in required.items():
            if key not in value:
                raise Malformed(f"{path}/{key}".lstrip("/"), "missing")
            item(value[key], f"{path}/{key}".lstrip("/"))
        for key, item in optional.items():
            if key in value:
                item(value[key], f"{path}/{key}".lstrip("/"))
        if rule is not None:
            rule(value, path)
    return spec


def empty_or(item):
    def spec(value, path):
        if value != {}:
            item(value, path)
    return spec


def put(*names, spec=rational):
    """Fields written by claims.hpp's put(j, key, Rational): "p/q" and a decimal twin."""
    return {k: v for name in names for k, v in ((name, spec), (name + "_approx", number))}


def put_interval(*names):
    """Fields written by put(j, key, Interval): an enclosure and its midpoint as a double."""
    return {k: v for name in names for k, v in ((name, interval), (name + "_approx", number))}


BITS = nat_at_most(kMaxBits, "corbinq.hpp kMaxBits")
EXP_EPS = rational_where(lambda x: x > 1, "e^ε > 1")
ALPHA = rational_where(lambda a: a > 1, "α > 1")
WEIGHT = rational_where(lambda w: abs(w - CENTER) <= RADIUS, "an input in [c − r, c + r] = [−1, 1]")
PROBABILITY = rational_where(lambda p: 0 <= p <= 1, "a probability")
RADIUS_POSITIVE = rational_where(lambda r: r > 0, "r > 0")
DELTA = rational_where(lambda d: 0 < d < 1, "δ in (0, 1)")
GAMMA = rational_where(lambda g: 0 < g <= 1, "γ in (0, 1]")
# m >= 1: Eq. (th:3:1) and cpSGD take ln(m/δ), ln(20m/δ) and √(2m); m is the model's dimension.
MODEL_SIZE = nat_between(1, math.inf, "m", "the model's dimension in ln(m/δ), ln(20m/δ) and √(2m)")
# n >= 2 for Thm 3 (nγ >= 2 with γ <= 1), at most kMaxExactClients where the law is computed exactly.
EXACT_CLIENTS = nat_between(2, kMaxExactClients, "n", "Thm 3 needs nγ >= 2 with γ <= 1; the exact law's limit is "
                                                      "exact_ucdp.hpp kMaxExactClients")


def eps_decimal(value, path):
    """An ε written as a decimal string: 0 < ε <= kMaxEps (budget.hpp Budget::kMaxEps)."""
    if type(value) is not str or not DECIMAL_RE.fullmatch(value):
        raise Malformed(path, f"a decimal ε, not {_type_name(value)} {short(value)}")
    if not 0 < Decimal(value) <= kMaxEps:
        raise Malformed(path, f"{short(value)} is outside its domain (0 < ε <= {kMaxEps}, budget.hpp kMaxEps)")


def sub(path, key):
    return f"{path}/{key}".lstrip("/")


def all_rules(*rules):
    def rule(value, path):
        for item in rules:
            item(value, path)
    return rule


def check_input(item, path, setting):
    """Alg. 1's and 2's domain: an input (an exact rational, already checked as one) in
    [c − r, c + r] of the object `setting` that states c and r (r > 0 checked by its spec)."""
    c, r = F(setting["center"]), F(setting["radius"])
    if abs(F(item) - c) > r:
        raise Malformed(path, f"{short(item)} is outside its domain (an input in [c − r, c + r] = [{c - r}, {c + r}])")


def inputs_in_range(*keys):
    """A rule: each of these fields is an input in [c − r, c + r] of the object's c and r."""
    def rule(value, path):
        for key in keys:
            check_input(value[key], sub(path, key), value)
    return rule


def joint_item_rule(value, path):
    """Alg. 2's domain: α > 1, r > 0, both inputs in [c − r, c + r]."""
    alpha, c, r = F(value["alpha"]), F(value["center"]), F(value["radius"])
    if alpha <= 1 or r <= 0:
        raise Malformed(f"{path}/alpha", f"α = {alpha}, r = {r} are outside the domain (α > 1, r > 0)")
    for key in ("w1", "w2"):
        if abs(F(value[key]) - c) > r:
            raise Malformed(f"{path}/{key}", f"{value[key]} is outside [c − r, c + r]")


JOINT_ITEM = obj({"kind": one_of("corbinq_joint"), "alpha": rational, "center": rational, "radius": rational,
                  "w1": rational, "w2": rational, "bits": BITS, "variant": one_of(*VARIANTS),
                  "joint": obj({key: PROBABILITY for key in JOINT_KEYS})}, rule=joint_item_rule)
BINOMIAL_ITEM = obj({"kind": one_of("binomial_outside"),
                     "trials": nat_at_most(kExactBinomialTrials, "dropout.hpp kExactBinomialTrials"), "p": PROBABILITY,
                     "first_inside": int_string, "last_inside": int_string, "probability": PROBABILITY})


def approx_when_exact(key):
    """R1's ratio: "unbounded", or a rational with its decimal twin."""
    def rule(value, path):
        if value[key] != "unbounded":
            number(value.get(key + "_approx"), f"{path}/{key}_approx")
    return rule


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


T1B_ROW = {**put("exp_eps", spec=EXP_EPS), "bits": BITS, **put("sup_gap", "bound"), **put("w1", "w2", spec=WEIGHT)}
T2C_ROW = {**put("exp_eps", spec=EXP_EPS), **put("worst_case_ratio", "ratio_at_w1_w2_c_plus_r")}
# The counterexample's exact replace-one law is computed for its n clients (ldpq_replace_exp_eps).
T3_SETTING = {"n": EXACT_CLIENTS, **put("gamma", "delta", "radius", "alpha"), "m": nat}


def thm3_domain_rule(value, path):
    """Thm 3's domain (ucdp.hpp check_ucdp_setting) for those of its parameters the object has:
    γ in (0, 1] with nγ >= 2, δ in (0, 1), r > 0, α > 1 (e^ε > 1), m >= 1; Eq. (th:3:1) and cpSGD
    take logarithms and square roots of these and divide by nγ − 1."""
    n = value["n"]
    tests = {"gamma": (lambda g: 0 < g <= 1 and n * g >= 2, f"γ in (0, 1] and nγ >= 2, here n = {short(n)}"),
             "delta": (lambda d: 0 < d < 1, "δ in (0, 1)"), "radius": (lambda r: r > 0, "r > 0"),
             "alpha": (lambda a: a > 1, "α > 1"), "exp_eps": (lambda x: x > 1, "e^ε > 1")}
    for key, (test, rule) in tests.items():
        if key in value and not test(F(value[key])):
            raise Malformed(sub(path, key), f"{short(value[key])} is outside Thm 3's domain ({rule})")
    if "m" in value and value["m"] < 1:
        raise Malformed(sub(path, "m"), f"{short(value['m'])} is outside Thm 3's domain (m >= 1)")


def at_most_field(key, bound_key, offset=0, why=""):
    """value[key] <= value[bound_key] − offset: a count within the population that bounds it."""
    def rule(value, path):
        if value[key] > value[bound_key] - offset:
            raise Malformed(sub(path, key), f"{short(value[key])} is outside its domain (at most {bound_key}"
                                            f"{f' − {offset}' if offset else ''} = {value[bound_key] - offset}{why})")
    return rule


t3_setting_rule = all_rules(thm3_domain_rule, at_most_field("others_at_c_plus_r", "n", 1, ": the other clients"))
# The curve against n: the exact law of other_ldpq other LDPQ clients, others_at_c_plus_r of them at c + r.
t3_curve_rule = all_rules(at_most_field("other_ldpq", "n", 1, ": the other clients"),
                          at_most_field("others_at_c_plus_r", "other_ldpq"))


def t3_size_rule(value, path):
    """The curve and the model sizes use γ = 1/2: n >= 4 (nγ >= 2), m >= 1."""
    if value["n"] < 4 or value.get("m", 1) < 1:
        raise Malformed(path, "n >= 4 and m >= 1 (Thm 3 at γ = 1/2)")


def certified_bound(value, path):
    """A certified bound on ε as the accountant writes it: a non-negative double or "infinite"."""
    if value == "infinite":
        return
    number(value, path)
    if value < 0:
        raise Malformed(path, f"a bound on ε, not {short(value)}")


CERTIFIED_BOUND = certified_bound


def t4_setting_rule(value, path):
    """Thm 4's domain (dropout.hpp check_dropout_setting): n even >= 2, p in (0, 1), 0 < δ1 < δ < 1;
    α > 1, r > 0 and m >= 1 are checked by their fields' specs. The γ Eq. (th:3:1) was evaluated at,
    when stated, is in Thm 3's domain: γ in (0, 1], nγ >= 2 (recheck_t4_precondition evaluates it)."""
    n, p, delta, delta1 = value["n"], F(value["p"]), F(value["delta"]), F(value["delta1"])
    if not (n >= 2 and n % 2 == 0 and 0 < p < 1 and 0 < delta1 < delta < 1):
        raise Malformed(path, "a setting outside Thm 4's domain (n even >= 2, p in (0, 1), 0 < δ1 < δ < 1)")
    if "gamma_used" in value:
        used = F(value["gamma_used"])
        if not (0 < used <= 1 and n * used >= 2):
            raise Malformed(sub(path, "gamma_used"), f"{short(value['gamma_used'])} is outside Thm 3's domain "
                                                     f"(γ in (0, 1] and nγ >= 2, here n = {n})")


# Every parameter of Thm 4's settings but n, p, δ and δ1 (t4_setting_rule).
T4_PARAMETERS = {"m": MODEL_SIZE, **put("alpha", spec=ALPHA), **put("radius", spec=RADIUS_POSITIVE)}


# Theorem 4's witnesses (check_t4u.cpp, check_t4m.cpp): every input of Thm4.v's refutations.
# T4u's exact survival sums run over n trials (recheck_t4u_witness): at most kMaxSurvivalTrials.
T4U_WITNESS = obj({"n": nat_at_most(kMaxSurvivalTrials, "kMaxSurvivalTrials, exact binomial sums"),
                   **T4_PARAMETERS, **put("p", "delta", "delta1", "center", "every_input"),
                   "bits": text, "event": text, "event_is_count": boolean, **put_interval("gamma"),
                   "gamma_in_range": boolean, "precondition": boolean,
                   **put("p_event", "p_event_neighbour", spec=PROBABILITY), **put("difference")},
                  {**put("gamma_used"), **put_interval("printed_eps_u", "margin"),
                   "every_admissible_delta1": obj({**put("low", "high", spec=rational_where(lambda x: x > 0, "> 0")),
                                                   "refutes": boolean},
                                                  {**put("gamma_at_high"), **put_interval("eps_u_bound", "margin")})},
                  rule=all_rules(t4_setting_rule, inputs_in_range("every_input")))
T4M_WITNESS = obj({"n": nat, **T4_PARAMETERS, **put("p", "delta", "delta1", "center", "every_input"),
                   **put_interval("gamma", "theta", "printed_bound"), "preconditions_met": boolean},
                  {**put("gamma_used", "mse_lower_bound"), "bound_negative": boolean, "theta_positive": boolean,
                   "mse_identity": text, "tangent_rule": text,
                   **put("tangent_point", "mean_lone_survivors", "mean_lone_times_survivors"),
                   **put("lone_probability", "both_probability", spec=PROBABILITY)},
                  rule=all_rules(t4_setting_rule, inputs_in_range("every_input")))


def r1_row_rule(value, path):
    """R1's row: ε in (0, 700] (e^ε stays a finite double) and an approx beside an exact ratio."""
    if not 0 < value["eps"] <= 700:
        raise Malformed(f"{path}/eps", f"{value['eps']} is outside (0, 700]")
    approx_when_exact("ratio")(value, path)

# Each witness kind's fields (witness.cpp, check_t3.cpp, check_t3m.cpp, check_g1.cpp, check_b1.cpp),
# every parameter within the domain of the formula its recheck feeds it to (witness_* below).
WITNESS_SETTING = {"exp_eps": EXP_EPS, "center": rational, "radius": RADIUS_POSITIVE, "bits": BITS}


def competitor_levels_rule(value, path):
    lo, hi = (F(v) for v in value["competitor_levels"])
    if not lo < hi:
        raise Malformed(sub(path, "competitor_levels"), f"{lo}, {hi} are outside their domain (lo < hi: p(w) = "
                                                        f"(w − lo)/(hi − lo))")


def pairs_in_range(value, path):
    for i, pair in enumerate(value["pairs"]):
        for j, item in enumerate(pair):
            check_input(item, sub(path, f"pairs/{i}/{j}"), value)


def z_rule(value, path):
    """Z is uniform on {0, …, 2^d − 1}: z < 2^d iff z has at most d bits."""
    if value["z"].bit_length() > value["bits"]:
        raise Malformed(sub(path, "z"), f"{short(value['z'])} is outside its domain (a value of Z: 0 <= z < 2^d, "
                                        f"d = {value['bits']})")


def t3_population_rule(value, path):
    """The population of T3's witnesses: every input in [c − r, c + r], and at most
    kMaxExactClients − 1 others in all (their law is convolved exactly, one client at a time)."""
    total = sum(group["count"] for group in value["others"])
    if total > kMaxExactClients - 1:
        raise Malformed(sub(path, "others"), f"{total} other clients in all, outside the domain (at most "
                                             f"kMaxExactClients − 1 = {kMaxExactClients - 1}, exact_ucdp.hpp)")
    for i, group in enumerate(value["others"]):
        check_input(group["w"], sub(path, f"others/{i}/w"), value)


T3_POPULATION = {"n": EXACT_CLIENTS, "gamma": GAMMA, "delta": DELTA, "radius": RADIUS_POSITIVE, "alpha": ALPHA,
                 "m": MODEL_SIZE, "center": rational,
                 "others": list_of(obj({"count": nat_between(0, kMaxExactClients, "count", "exact_ucdp.hpp "
                                                                                      "kMaxExactClients"),
                                        "role": one_of("ldpq"), "w": rational}), nonempty=False),
                 "client_1": rational}
T3_POPULATION_RULE = all_rules(thm3_domain_rule, t3_population_rule, inputs_in_range("client_1"))


def baseline_rule(value, path):
    """B1's calibrations: PBM with m = 1 or 2 and its θ, RQM with m = 2 or 3 levels, its D and (m = 3)
    the probability q in [0, 1) of keeping c."""
    mech, m = value["mechanism"], value.get("m")
    if mech == "pbm" and m not in (1, 2):
        raise Malformed(sub(path, "m"), f"{short(m)} is outside its domain (PBM runs with m = 1 or 2)")
    if mech == "rqm" and m not in (2, 3):
        raise Malformed(sub(path, "m"), f"{short(m)} is outside its domain (RQM has m = 2 or 3 levels)")
    stated = {"pbm": ("theta",), "rqm": ("delta_ratio", "q") if m == 3 else ("delta_ratio",)}.get(mech, ())
    for key in stated:
        if key not in value:
            raise Malformed(sub(path, key), f"missing ({mech} with m = {m} states it)")
    if mech == "rqm" and m == 3 and not 0 <= F(value["q"]) < 1:
        raise Malformed(sub(path, "q"), f"{short(value['q'])} is outside its domain (q in [0, 1), a probability "
                                        f"with 1 − q > 0 in D = 2/((1 − q)(e^ε − 1)))")
    for i, item in enumerate(value["compared"]):
        check_input(item["w"], sub(path, f"compared/{i}/w"), value)


def b1_atom(value, path):
    """An atom of a law: [value, probability]."""
    list_of(rational, lengths=(2,))(value, path)
    PROBABILITY(value[1], f"{path}/1")


WITNESS_SCHEMAS = {
    "free_levels_pair": obj({**WITNESS_SETTING,
                             "bits": nat_between(1, kMaxBits, "d", "the competitor picks by Z's last bit; "
                                                                   "corbinq.hpp kMaxBits"),
                             "claim_part": one_of("bound", "optimality", "limit"), "w1": rational, "w2": rational,
                             "competitor_levels": list_of(rational, lengths=(2,)), "corbinq_mse": rational,
                             "competitor_mse": rational, "thm1_bound": rational},
                            rule=all_rules(inputs_in_range("w1", "w2"), competitor_levels_rule)),
    "aggregate_mean": obj({**WITNESS_SETTING, "variant": one_of(*VARIANTS),
                           "pairs": list_of(list_of(rational, lengths=(2,))), "expected_average": rational,
                           "average_of_inputs": rational}, rule=pairs_in_range),
    "printed_q2": obj({**WITNESS_SETTING, "leader": rational, "follower_a": rational, "follower_b": rational,
                       "plus_at_a": PROBABILITY, "plus_at_b": PROBABILITY, "mean_at_b": rational},
                      rule=inputs_in_range("leader", "follower_a", "follower_b")),
    "reference_top_cell": obj({"exp_eps_at_least": EXP_EPS, "center": rational, "radius": RADIUS_POSITIVE, "bits": BITS,
                               "plus_at_c_plus_r": PROBABILITY, "ldpq_q_at_c_plus_r": PROBABILITY,
                               "minus_at_c_minus_r": PROBABILITY},
                              {"eps": eps_decimal, "minus_at_c_plus_r": PROBABILITY}),
    "given_z": obj({**WITNESS_SETTING, "z": nat, "w_a": rational, "w_b": rational, "plus_given_z_at_a": PROBABILITY,
                    "plus_given_z_at_b": PROBABILITY}, rule=all_rules(z_rule, inputs_in_range("w_a", "w_b"))),
    "gaussian_ratio": obj({"eps": rational_where(lambda e: e > 0, "ε > 0"),
                           "sigma": rational_where(lambda s: s > 0, "σ > 0"), "center": rational,
                           "radius": RADIUS_POSITIVE, "y": rational, "log_density_ratio": rational}),
    "aug_mse_rule": obj({"n": nat_between(2, math.inf, "n", "Thm 3 needs nγ >= 2 with γ <= 1"), "gamma": GAMMA,
                         "alpha": ALPHA, "radius": RADIUS_POSITIVE, "m": MODEL_SIZE,
                         "minus_ln_delta": integer_where(lambda v: v > 0, "−ln δ > 0, δ in (0, 1)"),
                         "ldpq_clients": nat, "pairs": nat, "exact_mse": rational, "printed_bound": rational,
                         "precondition_lhs": rational, "precondition_rhs": rational},
                        {"center": rational}, rule=thm3_domain_rule),
    "t3_replace_one": obj({**T3_POPULATION, "client_1_replaced_by": rational, "printed_eps_u": interval,
                           "exact_exp_eps": rational_where(lambda x: x >= 1, "e^ε >= 1")},
                          rule=all_rules(T3_POPULATION_RULE, inputs_in_range("client_1_replaced_by"))),
    "t3_remove_one": obj({**T3_POPULATION, "disjoint_supports": boolean}, rule=T3_POPULATION_RULE),
}

WITNESS_KINDS = ("free_levels_pair", "aggregate_mean", "printed_q2", "reference_top_cell", "given_z", "gaussian_ratio",
                 "aug_mse_rule", "t3_replace_one", "t3_remove_one", "baseline_law")
WITNESS = obj({"kind": one_of(*WITNESS_KINDS), "reading": text, "refutes": boolean})
# B1: a baseline's law and LDPQ's, as atoms (value, probability) in the mechanism's output order.
B1_ATOMS = list_of(b1_atom)
BASELINE_LAW = obj({"mechanism": one_of("pbm", "rqm", "signsgd"), **put("exp_eps", spec=EXP_EPS),
                    "center": rational, "radius": RADIUS_POSITIVE, **put("alpha", spec=ALPHA), "same_as_ldpq": boolean,
                    "compared": list_of(obj({"w": rational, "baseline": B1_ATOMS, "ldpq": B1_ATOMS}))},
                   {"m": one_of(1, 2, 3), "q": rational, **put("theta"), **put("delta_ratio")}, rule=baseline_rule)
WITNESS_SCHEMAS["baseline_law"] = BASELINE_LAW

DATA_SCHEMA = {
    "P1": obj({"levels": list_of(obj({**put("exp_eps", spec=EXP_EPS), **put("alpha", spec=ALPHA),
                                      **put("ratio_at_c_plus_r_alpha", "ratio_just_below")})),
               **put("smallest_excess_mse_of_other_levels"),
               **put("lowered_by", spec=rational_where(lambda x: x > 0, "> 0")),
               "level_offsets": list_of(rational_where(lambda x: x >= 0, ">= 0")),
               **put("center"), **put("radius", spec=RADIUS_POSITIVE)}),
    "A2": obj({"pldp_counterexample": empty_or(obj({
                   **put("exp_eps", spec=EXP_EPS), "bits": BITS, **put("ratio"),
                   **put("w_high", "w_low", "w_partner", spec=WEIGHT),
                   "client": one_of(1, 2), "output": one_of(1, -1), "attained": boolean,
                   "recheck": list_of(JOINT_ITEM, lengths=(2,))},
                   {"at_inputs": obj({**put("w_high", "w_low", "w_partner", spec=WEIGHT),
                                      **put("p_high", "p_low", spec=PROBABILITY), **put("ratio")})})),
               **put("ratio_at_exp_eps_3_d_5"), "points": nat, "printed_biased_points": nat,
               "printed_pldp_broken_cases": nat, "corrected_violations": nat}),
    "T1a": obj({"points": nat, "enumerated_points": nat, "mismatches": nat, "recheck": list_of(JOINT_ITEM)}),
    "T1b": obj({"rows": list_of(obj(T1B_ROW)), **put("smallest_bound_over_sup")},
               {"counterexample": obj({**T1B_ROW, "recheck": list_of(JOINT_ITEM, lengths=(1,))})}),
    "T1c": obj({"points": nat, "corbinq_not_optimal": nat},
               {"samples": list_of(obj({**put("exp_eps", spec=EXP_EPS), "bits": BITS, **put("w1", "w2", spec=WEIGHT),
                                        **put("corbinq_pp", "optimum_pp")}), nonempty=False),
                "witness": obj({**put("exp_eps", spec=EXP_EPS), "bits": BITS, **put("w1", "w2", spec=WEIGHT),
                                **put("corbinq_pp", "optimum_pp")})}),
    "T2a": obj({"cases": nat, "biased_cases": nat, "printed_variant_biased_cases": nat},
               {"witness": obj(put("mean", "sum_of_weights"))}),
    "T2b": obj({"rows": list_of(obj({**put("exp_eps", spec=EXP_EPS), **put("alpha", spec=ALPHA),
                                     **put("sup_pair_mse", "claimed_pair_bound"),
                                     **put("witness_w", spec=WEIGHT)})),
                "grid_never_exceeds_witness": boolean,
                "appendix_c_steps": obj({"points": nat, "mse_equals_var_plus_2cov": nat,
                                         "mse_equals_var_plus_cov_as_in_proof": nat, "var_at_most_r2alpha2": nat,
                                         "cov_formula_holds": nat, "cov_at_most_minus_r2_alpha_minus_1_squared": nat,
                                         **put("max_cov_when_w_plus_w2_at_most_2c")}),
                **put("smallest_bound_over_sup")},
               {"as_printed": obj({**put("exp_eps", spec=EXP_EPS), **put("center", "radius", "w1", "w2", "bound"),
                                   "n": nat,
                                   "rows": list_of(obj({"bits": BITS, **put("aggregate_mse"), "recheck": JOINT_ITEM}))})}),
    "T2c": obj({"rows": list_of(obj(T2C_ROW))}, {"per_input_counterexample": obj(T2C_ROW)}),
    "T3": obj({"counterexample": obj({
                   **T3_SETTING, "printed_precondition": boolean, "cpsgd_precondition_consistent_units": boolean,
                   **put_interval("printed_eps_u", "cpsgd_eps_u_proof_units", "cpsgd_eps_u_consistent_units",
                                  "exact_eps_replace_one"),
                   **put("exact_exp_eps_replace_one", spec=rational_where(lambda x: x >= 1, "e^ε >= 1")),
                   "others_at_c_plus_r": nat,
                   **put("remove_one_disjoint_mass", spec=PROBABILITY)}, rule=t3_setting_rule),
               "eps_u_against_n": list_of(obj({
                   "n": EXACT_CLIENTS, **put_interval("printed", "cpsgd_proof_units", "cpsgd_consistent_units",
                                                      "exact_replace_one"), "printed_precondition": boolean,
                   **put("exact_exp_eps_replace_one", spec=rational_where(lambda x: x >= 1, "e^ε >= 1")),
                   "others_at_c_plus_r": nat, "other_ldpq": nat},
                                       rule=all_rules(t3_size_rule, t3_curve_rule))),
               "paper_model_sizes": list_of(obj({"m": nat, "n": nat, **put_interval("printed_eps_u"),
                                                 "printed_precondition": boolean,
                                                 "eps_lower": CERTIFIED_BOUND, "eps_upper": CERTIFIED_BOUND},
                                                rule=t3_size_rule)),
               "paper_scale": list_of(obj({
                   "m": nat, "n": nat, "rounds": nat, "role": one_of("ldpq", "paired (leader)"),
                   "smallest_n_meeting_precondition": boolean, **put("gamma", "delta", "exp_eps", "radius"),
                   "printed_precondition": boolean, **put_interval("printed_eps_u"),
                   "eps_lower": CERTIFIED_BOUND, "eps_upper": CERTIFIED_BOUND,
                   "formula_at_instance": one_of("fails", "holds at this instance", "undecided",
                                                 "not claimed (the theorem covers one round)")},
                   {"relative_width": number}, rule=thm3_domain_rule), nonempty=False)}),
    "T4": obj({"counterexample": obj({
        "n": nat_at_most(kExactBinomialTrials, "dropout.hpp kExactBinomialTrials"), **T4_PARAMETERS,
        **put("p", "delta", "delta1", "gamma_used"),
        **put_interval("gamma", "gamma_prime", "theta"), "preconditions_met": boolean,
        **put("claimed_each"), **put("singles_outside", "survivors_outside", spec=PROBABILITY),
        "recheck": list_of(BINOMIAL_ITEM, lengths=(1,))}, rule=t4_setting_rule),
        "conclusion_witness": T4U_WITNESS}),
    "D0": obj({"points": nat, "corrected_differences": nat, "reference_code_differences": nat,
               "recheck": list_of(JOINT_ITEM)}),
    "C1": obj({"rows": list_of(obj({"m": nat, "d": nat, "n": nat, "bits_z_exchanged": int_string,
                                    "bits_z_from_key": int_string, "claimed_dmk_plus_nk": int_string})),
               **put("smallest_claimed_over_counted"),
               "count_rule": obj({"key_bits": nat, "election_bits": nat, "z_tag_bits": nat,
                                  "z_bits_per_coordinate": one_of("d"), "upload_bits_per_coordinate": one_of(1),
                                  "byte_rounding": text, "claimed": text})}),
    "R1": obj({"bits": BITS, "rows": list_of(obj({"eps": number, **put("exp_eps", spec=EXP_EPS),
                                                 "ratio": rational_or("unbounded"), **put("largest_marginal_bias")},
                                                rule=r1_row_rule))}),
    "L1": obj({"rows": list_of(obj({**put("exp_eps", spec=EXP_EPS), "bits": BITS,
                                    "pair_eavesdropper": rational_or("unbounded"),
                                    "z_holder": rational_or("unbounded")},
                                   {"recheck": list_of(JOINT_ITEM, lengths=(2,)), "output": one_of(*JOINT_KEYS)})),
               "claimed_by_paper": boolean, "witnesses": list_of(WITNESS)}),
    "T1u": obj({"witnesses": list_of(WITNESS), "levels_rows": list_of(obj({**put("exp_eps", spec=EXP_EPS), "bits": BITS,
                                                                             **put("sup_gap")}))}),
    "T3m": obj({"witnesses": list_of(WITNESS)}),
    "T4u": obj({"witness": T4U_WITNESS}),
    "T4m": obj({"printed": T4M_WITNESS, "theta_positive": T4M_WITNESS}),
    "S1": obj({"scdp_at_sensitivity_2r": list_of(obj({
                   "n": EXACT_CLIENTS, "others_at_c_plus_r": nat, "others_at_c_minus_r": nat,
                   **put("gamma", spec=GAMMA), "m": one_of(1), **put("alpha", spec=ALPHA), **put("delta", spec=DELTA),
                   **put("center"), **put("radius", spec=RADIUS_POSITIVE), **put_interval("exact_eps_replace_one"),
                   **put("exact_exp_eps_replace_one", spec=rational_where(lambda x: x >= 1, "e^ε >= 1"))},
                   rule=at_most_field("others_at_c_plus_r", "n", 1, ": the other clients"))),
               "epsilon_s_stated": boolean}),
    "D1": obj({"points": nat, "marginal_differs_from_ldpq": nat, "witnesses": list_of(WITNESS)}),
    "X1": obj({"witnesses": list_of(WITNESS)}),
    "G1": obj({"witnesses": list_of(WITNESS)}),
    "X8": obj({"points": nat, "gap_shrinks_as_eps_decreases": nat}),
    "B1": obj({"rqm_q": rational, "cases": nat, "witnesses": list_of(WITNESS)}),
    **{claim: experiment_schema(claim) for claim in EXPERIMENT_PARTS},
}


def decision_text(value, path):
    """The report's vocabulary (readings.hpp Decision::text)."""
    fixed = ("holds (proved)", "holds (checked on a grid; proof open)", "holds (at the seeds' spread)", "fails",
             "proof invalid", "undecided")
    if type(value) is not str or not (value in fixed or (value.startswith("holds only under ") and len(value) > 17)
                                      or (value.startswith("erratum (") and value.endswith(")"))):
        raise Malformed(path, f"a verdict ({', '.join(fixed)}, holds only under …, erratum (…)), not {short(value)}")


ROLES = ("as printed", "as evidently intended", "in the stated regime, made exact", "restricted reading",
         "a step of the proof", "beyond the paper's claim", "empirical")
COQ_PIN = obj({"file": text, "lemma": text, "pinned": text, "statement": text, "checked": boolean})
READING = obj({"key": text, "role": one_of(*ROLES), "text": text, "verdict": decision_text, "evidence": text},
              {"note": text, "coq": COQ_PIN, "computed": verdict_text})


def certificate_schema(claim):
    return obj({"id": one_of(claim), "verdict": decision_text, "check_verdict": verdict_text, "finding": text,
                "grid": one_of("paper", "quick"), "coq_checked": boolean, "readings": list_of(READING),
                "data": DATA_SCHEMA[claim]})


# ---------------------------------------------------------------------------------------------
# Exact and decimal helpers

def rat(value):
    return F(value)


def floor_frac(x):
    a = math.floor(x)
    return a, x - a


def dec(x):
    """A Fraction as a Decimal at the current context's precision (rounded once)."""
    return Decimal(x.numerator) / Decimal(x.denominator)


def enclosure(value):
    return Decimal(value[0]), Decimal(value[1])


def inside(x, value):
    """x (Decimal) within the printed enclosure, allowing kEnclosureSlack for its rounding."""
    lo, hi = enclosure(value)
    return lo - abs(lo) * kEnclosureSlack <= x <= hi + abs(hi) * kEnclosureSlack


def approx_agrees(approx, exact):
    """A decimal twin against the exact Fraction (or the enclosure's midpoint, a Decimal)."""
    if isinstance(exact, F):
        if exact == 0:
            return approx == 0
        try:
            return math.isclose(approx, float(exact), rel_tol=kApproxRelTol)
        except OverflowError:  # beyond any double: no finite twin can agree
            return False
    return math.isclose(approx, float(exact), rel_tol=kApproxRelTol, abs_tol=1e-300)


# ---------------------------------------------------------------------------------------------
# Algorithms 1 and 2 of the paper

def alpha_of(exp_eps):
    """Alg. 1, line 1: α = (e^ε + 1)/(e^ε − 1)."""
    return (exp_eps + 1) / (exp_eps - 1)


def ldpq_q(alpha, c, r, w):
    """Alg. 1, line 2: q = 1/2 + (w − c)/(2rα), the probability of the output c + rα."""
    return F(1, 2) + (w - c) / (2 * r * alpha)


def threshold_range(alpha, n):
    """Alg. 2, line 3: the leader's position 2^d q(w) over w in [c − r, c + r] is
    [n(1 − 1/α)/2, n(1 + 1/α)/2]; the follower's 2^d (1 − q(w')) covers the same range."""
    return n * (1 - 1 / alpha) / 2, n * (1 + 1 / alpha) / 2


def tie_probability(cell, n, variant):
    """P(own sign | Z = T): the fractional part (Alg. 2, lines 9 and 17); in the reference code
    (REFERENCES.md) idx' = 2^d − 2 at the top cell 2^d − 1, so (P − idx'/2^d)·2^d >= 1."""
    a, f = cell
    return F(1) if variant == "reference-code" and a == n - 1 else f


def joint_from_cells(u_cell, v_cell, n, variant):
    """The exact joint law of Alg. 2 from the threshold cells u = 2^d q1 = a1 + f1 and
    v = 2^d (1 − q2) = a2 + f2 (f = 1 stands for the limit from the left of a + 1); O(1) in d.

    Z is uniform on {0, …, 2^d − 1} (lexicographic order of d bits is integer order). Given
    Z = z the clients are independent, and each conditional law is piecewise constant in z:
      P(Q1 = + | z) = 1 on [0, a1), the tie probability at a1, 0 beyond (lines 4-11);
      P(Q2 = − | z) = 1 on [0, a2), the tie probability at a2, 0 beyond (lines 12-19, line 14
        comparing with T2), or, as printed (line 14 compares with T1), 1 on [0, a2), f2 on
        [a2, a1] (the ELSE branch, T2 ⪯ Z ⪯ T1) and 0 beyond.
    So P(Q1 = +, Q2 = −) is the overlap sum of the two, and the other cells follow from the
    sums of each."""
    a1, _ = u_cell
    a2, f2 = v_cell
    plus1 = [(0, a1, F(1)), (a1, a1 + 1, tie_probability(u_cell, n, variant))]
    if variant == "as-printed":
        minus2 = [(0, a2, F(1)), (a2, a1 + 1, f2)]
    else:
        minus2 = [(0, a2, F(1)), (a2, a2 + 1, tie_probability(v_cell, n, variant))]

    def total(pieces):
        return sum((max(0, min(e, n) - max(b, 0)) * v for b, e, v in pieces), F(0))

    s1, s2 = total(plus1), total(minus2)
    s12 = sum((max(0, min(e1, e2, n) - max(b1, b2, 0)) * v1 * v2
               for b1, e1, v1 in plus1 for b2, e2, v2 in minus2), F(0))
    return {"++": (s1 - s12) / n, "+-": s12 / n, "-+": (n - s1 - s2 + s12) / n, "--": (s2 - s12) / n}


def joint_law(alpha, c, r, w1, w2, d, variant):
    """Alg. 2's exact joint law (closed form) for the leader's w1 and the follower's w2."""
    n = 2 ** d
    return joint_from_cells(floor_frac(n * ldpq_q(alpha, c, r, w1)), floor_frac(n * (1 - ldpq_q(alpha, c, r, w2))),
                            n, variant)


def enumerate_joint(alpha, c, r, w1, w2, d, variant):
    """The same law by running Alg. 2 for every shared vector Z = z in {0, …, 2^d − 1}."""
    n = 2 ** d
    u = n * ldpq_q(alpha, c, r, w1)          # leader's threshold position
    v = n * (1 - ldpq_q(alpha, c, r, w2))    # follower's
    a1, f1 = floor_frac(u)
    a2, f2 = floor_frac(v)

    def tie(a, f):
        return F(1) if variant == "reference-code" and a == n - 1 else f

    law = dict.fromkeys(JOINT_KEYS, F(0))
    for z in range(n):
        p1 = F(1) if z < a1 else tie(a1, f1) if z == a1 else F(0)      # P(Q1 = + | z)
        if variant == "as-printed":
            # Line 14 as printed: ELSIF T1 ≺ Z -> "+"; otherwise "−" with probability f2.
            m2 = F(1) if z < a2 else f2 if z <= a1 else F(0)
        else:
            m2 = F(1) if z < a2 else tie(a2, f2) if z == a2 else F(0)  # P(Q2 = − | z)
        law["++"] += p1 * (1 - m2) / n
        law["+-"] += p1 * m2 / n
        law["-+"] += (1 - p1) * (1 - m2) / n
        law["--"] += (1 - p1) * m2 / n
    return law


def checked_joint_law(alpha, c, r, w1, w2, d, variant):
    """The closed form, compared with the enumeration when d <= kMaxEnumeratedBits."""
    law = joint_law(alpha, c, r, w1, w2, d, variant)
    if d <= kMaxEnumeratedBits and law != enumerate_joint(alpha, c, r, w1, w2, d, variant):
        raise InternalError(f"closed form != enumeration at alpha={alpha} w1={w1} w2={w2} d={d} {variant}")
    return law


def marginals(law):
    """(P(Q1 = c + rα), P(Q2 = c + rα))."""
    return law["++"] + law["+-"], law["++"] + law["-+"]


def pair_mse(law, level, x, y):
    """E[(Q1 + Q2 − w1 − w2)²] with outputs c ± L, x = w1 − c, y = w2 − c."""
    s = x + y
    return law["++"] * (2 * level - s) ** 2 + (law["+-"] + law["-+"]) * s ** 2 + law["--"] * (2 * level + s) ** 2


def optimal_law(q1, q2):
    """The d → ∞ coupling of two LDPQ marginals (countermonotone): P(++) = max(0, q1 + q2 − 1)."""
    pp, mm = max(F(0), q1 + q2 - 1), max(F(0), 1 - q1 - q2)
    return {"++": pp, "--": mm, "+-": q1 - pp, "-+": q2 - pp}


def independent_law(q1, q2):
    """Two independent LDPQs (LDP-FL)."""
    return {"++": q1 * q2, "+-": q1 * (1 - q2), "-+": (1 - q1) * q2, "--": (1 - q1) * (1 - q2)}


# ---------------------------------------------------------------------------------------------
# PLDP of one CorBinQ client (Eq. (LDP), condition C5), every reading of Algorithm 2

UNBOUNDED = "unbounded"


def ratio_max(a, b):
    if a is None:
        return b
    if UNBOUNDED in (a, b):
        return UNBOUNDED
    return max(a, b)


def own_sign_envelopes(client, variant, n, lo, hi):
    """(sup, inf) of g = 2^d · P(own sign) over the client's position in [lo, hi], one pair per
    partner case that can be extremal; the own sign is + for the leader, − for the follower.

    Corrected (and the leader as printed): g = Σ_z P(own sign | z) = a + f is the position
    itself, increasing and continuous: sup hi, inf lo. Reference code: the same except g = 2^d
    on the top cell. The follower as printed, with the leader in cell A:
    g_A(v) = a + f · max(0, A − a + 1), increasing on each cell with limit A + 1 at its right end
    when a <= A, equal to a when a > A. So inf g_A = min(g_A(lo), L + 1) and sup g_A = H for
    A < H; for A = H, sup = H + 1 (a limit) when L < H. The inf grows with A, so A = L and
    A = H are the only candidates (L, H the cells of lo, hi)."""
    low_cell, high_cell = math.floor(lo), math.floor(hi)
    if variant == "reference-code":
        top = n - 1
        return [(F(n) if high_cell == top else hi, F(n) if low_cell == top else lo)]
    if client == 1 or variant == "corrected" or low_cell == high_cell:
        return [(hi, lo)]
    frac_lo = lo - low_cell
    return [(F(high_cell), lo),
            (F(high_cell + 1), min(low_cell + frac_lo * (high_cell - low_cell + 1), F(low_cell + 1)))]


def pldp_table(alpha, d, variant):
    """sup over the partner's and the client's own inputs of P(o | w)/P(o | w') for each
    (client, output); outputs +1 (c + rα) and −1 (c − rα). UNBOUNDED when some output has
    probability 0 (or tending to 0) for one input and > 0 for another; an output that never
    occurs puts no constraint."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    table = {}
    for client in (1, 2):
        own = 1 if client == 1 else -1
        for g_sup, g_inf in own_sign_envelopes(client, variant, n, lo, hi):
            for output in (1, -1):
                top, bottom = (g_sup, g_inf) if output == own else (n - g_inf, n - g_sup)
                if top == 0:
                    continue
                ratio = UNBOUNDED if bottom == 0 else top / bottom
                table[(client, output)] = ratio_max(table.get((client, output)), ratio)
    return table


def pldp_sup(alpha, d, variant):
    result = None
    for ratio in pldp_table(alpha, d, variant).values():
        result = ratio_max(result, ratio)
    return result


def client_plus(client, own_cell, partner_cell, n, variant):
    """P(the client outputs c + rα) with its own and its partner's threshold cells."""
    if client == 1:
        return marginals(joint_from_cells(own_cell, partner_cell, n, variant))[0]
    return marginals(joint_from_cells(partner_cell, own_cell, n, variant))[1]


def cells_at(position, lo):
    """The cell at a threshold position, and the limit from its left when the position is an
    integer above lo (the check reports such a limit by the input at the position)."""
    a, f = floor_frac(position)
    out = [((a, f), True)]
    if f == 0 and position > lo:
        out.append(((a - 1, F(1)), False))
    return out


def all_cell_ends(lo, hi):
    """Every end of every threshold cell meeting [lo, hi]; right ends as limits (f = 1)."""
    low_cell, high_cell = math.floor(lo), math.floor(hi)
    ends = []
    for a in range(low_cell, high_cell + 1):
        ends.append((a, max(F(0), lo - a)))
        ends.append((a, hi - a) if a == high_cell else (a, F(1)))
    return ends


def pldp_brute_force(alpha, d, variant):
    """pldp_sup by evaluating the closed-form law at every cell end of both clients (the law is
    affine in each client's fractional part inside a cell); for the self-test."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    ends = all_cell_ends(lo, hi)
    result = None
    for client in (1, 2):
        for partner in ends:
            plus = [client_plus(client, own, partner, n, variant) for own in ends]
            for probs in (plus, [1 - p for p in plus]):
                if max(probs) == 0:
                    continue
                result = ratio_max(result, UNBOUNDED if min(probs) == 0 else max(probs) / min(probs))
    return result


# ---------------------------------------------------------------------------------------------
# Leakage beyond the paper's claim (L1), corrected reading

def pair_eavesdropper(alpha, d):
    """sup over the follower's position v and the pair's outputs o of
    max_u P(o | u, v) / min_u P(o | u, v), u the leader's position (the target's input).

    Given Z = z, P(Q1 = + | z) = clamp(u − z, 0, 1) and P(Q2 = − | z) = clamp(v − z, 0, 1): the
    joint law is continuous and piecewise linear in u and in v with breaks at the integers. So
    max_u and min_u are attained at lo, hi or an integer between; on each piece in v the max is
    convex and the min concave, their ratio quasi-convex, so the sup over v is at the same
    points (and a zero min shows at them). Returns UNBOUNDED or the ratio, or None when the
    search would exceed kMaxLeakageCells."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    if hi - lo > kMaxLeakageCells:
        return None
    points = [hi] + [F(k) for k in range(math.floor(lo) + 1, math.ceil(hi)) if lo < k < hi] + [lo]
    result = None
    for v in points:
        laws = [joint_from_cells(floor_frac(u), floor_frac(v), n, "corrected") for u in points]
        for key in JOINT_KEYS:
            probs = [law[key] for law in laws]
            if max(probs) == 0:
                continue
            result = ratio_max(result, UNBOUNDED if min(probs) == 0 else max(probs) / min(probs))
            if result == UNBOUNDED:
                return result
    return result


def z_holder(alpha, d):
    """A holder of Z sees Q1 given Z = z: P(+ | z, u) = clamp(u − z, 0, 1), increasing in u, so
    its extremes over the leader's inputs are at lo and hi. sup over z and both outputs."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    if n > kMaxLeakageCells:
        return None
    result = None
    for z in range(n):
        p_lo, p_hi = min(max(lo - z, F(0)), F(1)), min(max(hi - z, F(0)), F(1))
        for top, bottom in ((p_hi, p_lo), (1 - p_lo, 1 - p_hi)):
            if top == 0:
                continue
            result = ratio_max(result, UNBOUNDED if bottom == 0 else top / bottom)
    return result


# ---------------------------------------------------------------------------------------------
# T1b: the gap to the d → ∞ optimum

def sup_gap(alpha, d, r=RADIUS):
    """sup over w1, w2 in [c − r, c + r] of MSE(CorBinQ) − MSE(optimal coupling), corrected.

    With outputs c ± L (L = rα) and fixed LDPQ marginals, E[(Q1 + Q2 − w1 − w2)²] =
    2L² + 2E[XY] − s², E[XY] = L²(4P(++) + 1 − 2q1 − 2q2): the gap is 8L²(P(++) − P*(++)),
    P*(++) = max(0, q1 + q2 − 1) = max(0, u − v)/2^d. From joint_from_cells, P(++)·2^d =
    max(0, u − v) when u and v lie in different cells and f1(1 − f2) in the same cell, so the
    gap is 8L² min(f1, f2)(1 − max(f1, f2))/2^d in a shared cell, 0 otherwise. Both positions
    range over [lo, hi]; the sup puts both at the same t, the point of the cell's feasible
    range nearest 1/2: 8L² max_t t(1 − t)/2^d over the cells of lo and hi and one interior cell."""
    n = 2 ** d
    lo, hi = threshold_range(alpha, n)
    low_cell, high_cell = math.floor(lo), math.floor(hi)
    cells = {low_cell, high_cell} | ({low_cell + 1} if high_cell - low_cell >= 2 else set())
    best = F(0)
    for a in cells:
        start, end = max(lo - a, F(0)), min(hi - a, F(1))
        t = min(max(F(1, 2), start), end)
        best = max(best, t * (1 - t))
    level = r * alpha
    return 8 * level * level * best / n


def paper_gap_bound(alpha, d, r=RADIUS):
    """Thm 1: r²α²/2^(d−6)."""
    return r * r * alpha * alpha * F(64, 2 ** d)


def sup_optimal_pair_mse(alpha, r=RADIUS):
    """sup over inputs of the d → ∞ pair MSE M = 2L|s| − s², s = (w1 − c) + (w2 − c) in
    [−2r, 2r]: L² at |s| = L when L <= 2r (α <= 2), else 4rL − 4r² = 4r²(α − 1) at |s| = 2r."""
    level = r * alpha
    return level * level if level <= 2 * r else 4 * r * level - 4 * r * r


def bound_verdict(values_and_bounds):
    """claims.hpp BoundTally: fails if some value exceeds its bound, holds if none does and some
    equals it, holds with slack otherwise."""
    pairs = list(values_and_bounds)
    if any(v > b for v, b in pairs):
        return "fails"
    return "holds" if any(v == b for v, b in pairs) else "holds with slack"


# ---------------------------------------------------------------------------------------------
# T1c: the best pair sharing d bits

def min_pp_over_d_bit_pairs(q1, q2, n):
    """min of P(++) = Σ_z p1(z) p2(z)/2^d over conditional laws with Σ p_i = 2^d q_i, p_i in
    [0, 1] (a pair that even sees both inputs). The bilinear minimum sits at a vertex of each
    polytope; every vertex p1 has the same entries (⌊s1⌋ ones, one fraction, zeros), and the
    best p2 fills the cells where p1 is smallest."""
    s1, s2 = n * q1, n * q2
    ones, fraction = floor_frac(s1)
    p1 = [F(0)] * (n - ones - (1 if fraction else 0)) + ([fraction] if fraction else []) + [F(1)] * ones
    total = F(0)
    for p in p1:
        take = min(s2, F(1))
        if take <= 0:
            break
        total += take * p
        s2 -= take
    return total / n


# ---------------------------------------------------------------------------------------------
# T3, T4: decimal arithmetic

def decide_at_least(lhs, rhs, what):
    """lhs >= rhs for Decimals computed at kWorkDigits; too close to tell raises InternalError."""
    if abs(lhs - rhs) <= (abs(lhs) + abs(rhs)) * Decimal(10) ** -(kWorkDigits - 10):
        raise InternalError(f"{what}: {lhs} and {rhs} are too close to compare at {kWorkDigits} digits")
    return lhs >= rhs


def theorem3_printed(n, gamma, delta, radius, alpha, m):
    """Eq. (th:3:1) and its precondition as printed, natural logarithms, the second term read as
    8(ln(1.25/δ) + ln(20m/δ) ln(10/δ))/(3(nγ − 1)). Returns (ε_u, precondition holds)."""
    big_n = dec(n * gamma - 1)
    a, d_ = dec(alpha), dec(delta)
    l125, l10, l20m = (Decimal("1.25") / d_).ln(), (10 / d_).ln(), (20 * m / d_).ln()
    e_p = 1 + 1 / (a * a)
    b_p = e_p / 3 + 1 / a
    eps_u = dec(radius) * a * ((8 * m * l125 / (big_n * e_p)).sqrt() + 8 * (l125 + l20m * l10) / (3 * big_n)
                              + 4 * b_p * Decimal(2 * m).sqrt() * (Decimal("1.75") + Decimal("3.75") / (a * a))
                              * l10.sqrt() / (big_n * (1 - d_ / 10) * e_p))
    lhs = big_n * (Decimal(1) / 4 - 1 / (4 * a * a))
    rhs = max(23 * (m / d_).ln(), 2 * dec(radius) * a)
    return eps_u, decide_at_least(lhs, rhs, "Thm 3's printed precondition")


def cpsgd_theorem1(big_n, p, s, d1, d2, dinf, dim, delta):
    """cpSGD Thm 1 (REFERENCES.md) for f(D) + s(Z − Np), Z ~ Binomial(N, p) per coordinate.
    Returns (ε, precondition N p(1 − p) >= max(23 ln(10 dim/δ), 2Δ∞/s))."""
    q = 1 - p
    sq = p * p + q * q
    b_p = Decimal(2) / 3 * sq + 1 - 2 * p
    c_p = Decimal(2).sqrt() * (3 * p ** 3 + 3 * q ** 3 + 2 * p * p + 2 * q * q)
    d_p = Decimal(4) / 3 * sq
    npq = big_n * p * q
    l125, l10, l20d = (Decimal("1.25") / delta).ln(), (10 / delta).ln(), (20 * dim / delta).ln()
    eps = (d2 * (2 * l125).sqrt() / (s * npq.sqrt()) + (d2 * c_p * l10.sqrt() + d1 * b_p) / (s * npq * (1 - delta / 10))
           + (Decimal(2) / 3 * dinf * l125 + dinf * d_p * l20d * l10) / (s * npq))
    precondition = decide_at_least(npq, max(23 * (10 * dim / delta).ln(), 2 * dinf / s), "cpSGD's precondition")
    return eps, precondition


def theorem3_cpsgd(n, gamma, delta, radius, alpha, m, consistent_units):
    """The proof's substitutions into cpSGD (REFERENCES.md): N = nγ − 1, p = 1/2 − 1/(2α), s = 2,
    Δ1 = 2mrα, Δ2 = 2√m rα, Δ∞ = 2rα, dim = m. With consistent units the noise step is the
    released sum's own unit, s = 2rα (a ratio of probabilities cannot depend on r)."""
    a, ra = dec(alpha), dec(radius * alpha)
    s = 2 * ra if consistent_units else Decimal(2)
    return cpsgd_theorem1(dec(n * gamma - 1), Decimal(1) / 2 - 1 / (2 * a), s, 2 * m * ra, 2 * Decimal(m).sqrt() * ra,
                          2 * ra, m, dec(delta))


def floor_sqrt_sum(a, b, sign):
    """⌊a + sign·√b⌋ exactly for rationals a, b >= 0 (sign ±1), by comparing squares."""
    k = math.floor(a + sign * math.isqrt(math.floor(b)))  # within a few units of the answer

    def at_most(k):  # k <= a + sign √b
        t = k - a
        return (t <= 0 or t * t <= b) if sign > 0 else (t <= 0 and t * t >= b)
    while not at_most(k):
        k -= 1
    while at_most(k + 1):
        k += 1
    return k


def ceil_sqrt_sum(a, b, sign):
    """⌈a + sign·√b⌉ exactly."""
    return -floor_sqrt_sum(-a, b, -sign)


def binomial_outside(trials, p, first, last):
    """P(X outside [first, last]) for X ~ Binomial(trials, p), p = a/b, exactly (integers)."""
    a, b = p.numerator, p.denominator
    inside = sum(math.comb(trials, k) * a ** k * (b - a) ** (trials - k)
                 for k in range(max(first, 0), min(last, trials) + 1))
    return 1 - F(inside, b ** trials)


# ---------------------------------------------------------------------------------------------
# Items any certificate may hold: exact joint laws, binomial tails, decimal twins

def recheck_items(report, node, path):
    """Every {"kind": "corbinq_joint"} and {"kind": "binomial_outside"} anywhere in the data."""
    if isinstance(node, dict):
        kind = node.get("kind")
        if kind in ("corbinq_joint", "binomial_outside"):  # wherever it sits, an item is well-formed
            (JOINT_ITEM if kind == "corbinq_joint" else BINOMIAL_ITEM)(node, path)
        if kind == "corbinq_joint":
            law = checked_joint_law(rat(node["alpha"]), rat(node["center"]), rat(node["radius"]), rat(node["w1"]),
                                    rat(node["w2"]), node["bits"], node["variant"])
            for key in JOINT_KEYS:
                report.equal(f"{path}/joint/{key}", rat(node["joint"][key]), law[key], node["joint"][key])
        elif kind == "binomial_outside":
            value = binomial_outside(node["trials"], rat(node["p"]), int(node["first_inside"]),
                                     int(node["last_inside"]))
            report.equal(f"{path}/probability", rat(node["probability"]), value, node["probability"])
        for key, value in node.items():
            recheck_items(report, value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            recheck_items(report, value, f"{path}/{i}")


def is_enclosure(value):
    try:
        interval(value, "")
        return True
    except Malformed:
        return False


def recheck_twins(report, node, path):
    """Every `K_approx` beside an exact `K` (a rational, or an enclosure) is that value as a double."""
    if isinstance(node, dict):
        for key, value in node.items():
            base = key[:-len("_approx")] if key.endswith("_approx") else None
            if base and base in node and type(value) in (int, float):
                exact = node[base]
                if isinstance(exact, str) and RATIONAL_RE.fullmatch(exact):
                    report.expect(approx_agrees(value, rat(exact)), f"{path}/{key}",
                                  f"{value!r} is not the double of {short(exact)}")
                elif is_enclosure(exact):
                    with localcontext() as ctx:
                        ctx.prec = kWorkDigits
                        lo, hi = enclosure(exact)
                        ok = inside(Decimal(value), exact) or approx_agrees(value, (lo + hi) / 2)
                    report.expect(ok, f"{path}/{key}", f"{value!r} is outside the enclosure {short(exact)}")
                else:
                    report.expect(False, f"{path}/{key}", f"a decimal twin of a non-number {short(exact)}")
            recheck_twins(report, value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            recheck_twins(report, value, f"{path}/{i}")


def check_verdict(report, cert, recomputed):
    """The check's own outcome for the reading it computes (the claim's verdict is rechecked by
    recheck_readings)."""
    report.expect(cert["check_verdict"] == recomputed, "check_verdict",
                  f"{cert['check_verdict']!r} != recomputed {recomputed!r}")


def check_exp_eps_and_alpha(report, row, path):
    """A row's α is (e^ε + 1)/(e^ε − 1) of its e^ε (common.cpp alpha_of)."""
    alpha = alpha_of(rat(row["exp_eps"]))
    if "alpha" in row:
        report.equal(f"{path}/alpha", rat(row["alpha"]), alpha, row["alpha"])
    return alpha


def check_joint_item_is(report, item, path, alpha, d, w1, w2, variant):
    """A recheck item is the law at the stated point (the joint values themselves are
    recomputed by recheck_items)."""
    report.expect((rat(item["alpha"]), rat(item["center"]), rat(item["radius"]), item["bits"], item["variant"])
                  == (alpha, CENTER, RADIUS, d, variant), path,
                  f"the item is not at α = {alpha}, c = 0, r = 1, d = {d}, {variant}")
    if w1 is not None:
        report.equal(f"{path}/w1", rat(item["w1"]), w1, item["w1"])
    if w2 is not None:
        report.equal(f"{path}/w2", rat(item["w2"]), w2, item["w2"])


# ---------------------------------------------------------------------------------------------
# Witnesses (proofs-check/witness.hpp and the checks): every input of a counterexample is in the
# item; each value and the item's "refutes" are recomputed here from those inputs.

def _in_range(report, path, c, r, *ws):
    return report.expect(all(c - r <= w <= c + r for w in ws), path, "an input outside [c − r, c + r]")


def witness_free_levels(report, w, path):
    """Thm 1 with 𝒬 as printed: CorBinQ against a pair with levels lo, hi in which the last bit of
    Z picks which client may go high (z even: client 1 high w.p. 2p(w1), client 2 low; z odd: the
    mirror), p(w) = (w − lo)/(hi − lo). Each client's marginal P(hi) is p(w): unbiased; it is
    ε-PLDP when p and 1 − p at the range's ends are within e^ε (p is monotone)."""
    x = rat(w["exp_eps"])
    alpha, c, r, d = alpha_of(x), rat(w["center"]), rat(w["radius"]), BITS(w["bits"], f"{path}/bits") or w["bits"]
    w1, w2 = rat(w["w1"]), rat(w["w2"])
    lo, hi = (rat(v) for v in w["competitor_levels"])
    _in_range(report, path, c, r, w1, w2)
    report.expect(c > 0 and r > 0 and d >= 1, path, "Theorem 1 needs c, r > 0; the parity rule needs d >= 1")

    def p(v):
        return (v - lo) / (hi - lo)
    ends = (p(c - r), p(c + r))
    report.expect(0 <= min(ends) and 2 * max(ends) <= 1, path, "2p(w) is not a probability on the range")
    report.expect(max(ends) <= x * min(ends) and 1 - min(ends) <= x * (1 - max(ends)), path,
                  "the competitor is not ε-PLDP: it is not in 𝒬")
    s = w1 + w2
    even = 2 * p(w1) * (hi + lo - s) ** 2 + (1 - 2 * p(w1)) * (2 * lo - s) ** 2
    odd = 2 * p(w2) * (lo + hi - s) ** 2 + (1 - 2 * p(w2)) * (2 * lo - s) ** 2
    competitor = (even + odd) / 2
    law = checked_joint_law(alpha, c, r, w1, w2, d, "corrected")
    corbinq = pair_mse(law, r * alpha, w1 - c, w2 - c)
    bound = paper_gap_bound(alpha, d, r)
    report.equal(f"{path}/corbinq_mse", rat(w["corbinq_mse"]), corbinq, w["corbinq_mse"])
    report.equal(f"{path}/competitor_mse", rat(w["competitor_mse"]), competitor, w["competitor_mse"])
    report.equal(f"{path}/thm1_bound", rat(w["thm1_bound"]), bound, w["thm1_bound"])
    return corbinq > competitor + bound if w["claim_part"] == "bound" else corbinq > competitor


def witness_aggregate_mean(report, w, path):
    """E of the server's average (1/n) Σ over the pairs' outputs c ± rα, from each pair's exact law."""
    x = rat(w["exp_eps"])
    alpha, c, r, d = alpha_of(x), rat(w["center"]), rat(w["radius"]), w["bits"]
    level, total, inputs = r * alpha, F(0), F(0)
    for i, (a, b) in enumerate(w["pairs"]):
        w1, w2 = rat(a), rat(b)
        _in_range(report, f"{path}/pairs/{i}", c, r, w1, w2)
        p1, p2 = marginals(checked_joint_law(alpha, c, r, w1, w2, d, w["variant"]))
        total += 2 * c + level * (2 * p1 - 1) + level * (2 * p2 - 1)
        inputs += w1 + w2
    n = 2 * len(w["pairs"])
    report.equal(f"{path}/expected_average", rat(w["expected_average"]), total / n, w["expected_average"])
    report.equal(f"{path}/average_of_inputs", rat(w["average_of_inputs"]), inputs / n, w["average_of_inputs"])
    return total != inputs


def witness_printed_q2(report, w, path):
    """Alg. 2 as printed: P(Q2 = c + rα) at two follower inputs, the leader fixed; C5 or C4 broken."""
    x = rat(w["exp_eps"])
    alpha, c, r, d = alpha_of(x), rat(w["center"]), rat(w["radius"]), w["bits"]
    leader, a, b = rat(w["leader"]), rat(w["follower_a"]), rat(w["follower_b"])
    _in_range(report, path, c, r, leader, a, b)
    pa = marginals(checked_joint_law(alpha, c, r, leader, a, d, "as-printed"))[1]
    pb = marginals(checked_joint_law(alpha, c, r, leader, b, d, "as-printed"))[1]
    mean_b = c + r * alpha * (2 * pb - 1)
    report.equal(f"{path}/plus_at_a", rat(w["plus_at_a"]), pa, w["plus_at_a"])
    report.equal(f"{path}/plus_at_b", rat(w["plus_at_b"]), pb, w["plus_at_b"])
    report.equal(f"{path}/mean_at_b", rat(w["mean_at_b"]), mean_b, w["mean_at_b"])
    return pa > x * pb or pb > x * pa or mean_b != b


def witness_reference_top(report, w, path):
    """The reference code once the leader at c + r reaches the top cell (e^ε >= 2^d − 1): its
    law at e^ε = exp_eps_at_least; with "eps", e^eps >= that bound is checked in decimals (the top
    cell, once reached, stays reached as e^ε grows: 2^d q(c + r) = 2^(d−1)(1 + 1/α) increases)."""
    x = rat(w["exp_eps_at_least"])
    alpha, c, r, d = alpha_of(x), rat(w["center"]), rat(w["radius"]), w["bits"]
    n = 2 ** d
    if "eps" in w:
        with localcontext() as ctx:
            ctx.prec = kWorkDigits
            # e^eps > e^ε's bound, compared as logarithms (e^eps may exceed a Decimal's exponent range)
            report.expect(Decimal(w["eps"]) > dec(x).ln(), f"{path}/eps", f"e^{w['eps']} is below {w['exp_eps_at_least']}")
        report.expect(n * ldpq_q(alpha, c, r, c + r) >= n - 1, f"{path}/exp_eps_at_least",
                      "below the top cell: the bound does not carry to e^eps")
    top = marginals(checked_joint_law(alpha, c, r, c + r, c, d, "reference-code"))[0]
    bottom = marginals(checked_joint_law(alpha, c, r, c - r, c, d, "reference-code"))[0]
    q = ldpq_q(alpha, c, r, c + r)
    report.equal(f"{path}/plus_at_c_plus_r", rat(w["plus_at_c_plus_r"]), top, w["plus_at_c_plus_r"])
    report.equal(f"{path}/ldpq_q_at_c_plus_r", rat(w["ldpq_q_at_c_plus_r"]), q, w["ldpq_q_at_c_plus_r"])
    report.equal(f"{path}/minus_at_c_minus_r", rat(w["minus_at_c_minus_r"]), 1 - bottom, w["minus_at_c_minus_r"])
    return top != q or (top == 1 and bottom != 1)


def witness_given_z(report, w, path):
    """A CorBinQ leader's law given Z = z (Alg. 2, lines 3–11): "+" for z < ⌊u⌋, w.p. u − ⌊u⌋ at z = ⌊u⌋."""
    x = rat(w["exp_eps"])
    alpha, c, r, d, z = alpha_of(x), rat(w["center"]), rat(w["radius"]), w["bits"], w["z"]
    report.expect(z < 2 ** d, f"{path}/z", "z is not a value of Z")

    def given(v):
        a, f = floor_frac(2 ** d * ldpq_q(alpha, c, r, v))
        return F(1) if z < a else f if z == a else F(0)
    wa, wb = rat(w["w_a"]), rat(w["w_b"])
    _in_range(report, path, c, r, wa, wb)
    pa, pb = given(wa), given(wb)
    report.equal(f"{path}/plus_given_z_at_a", rat(w["plus_given_z_at_a"]), pa, w["plus_given_z_at_a"])
    report.equal(f"{path}/plus_given_z_at_b", rat(w["plus_given_z_at_b"]), pb, w["plus_given_z_at_b"])
    return pa > x * pb or pb > x * pa or 1 - pa > x * (1 - pb) or 1 - pb > x * (1 - pa)


def witness_gaussian(report, w, path):
    """Gaussian noise σ on inputs c + r and c − r: log density ratio at y, ((y − c + r)² − (y − c − r)²)/(2σ²)."""
    c, r, sigma, y, e = rat(w["center"]), rat(w["radius"]), rat(w["sigma"]), rat(w["y"]), rat(w["eps"])
    report.expect(sigma > 0 and r > 0, path, "σ and r must be positive")
    log_ratio = ((y - (c - r)) ** 2 - (y - (c + r)) ** 2) / (2 * sigma * sigma)
    report.equal(f"{path}/log_density_ratio", rat(w["log_density_ratio"]), log_ratio, w["log_density_ratio"])
    return log_ratio > e


def witness_aug_mse(report, w, path):
    """Thm 3's MSE with ⌊γn⌋ clients on LDPQ (one more if the rest is odd), every input at c: each
    LDPQ client's MSE is (rα)², a pair's at (c, c) is 0 (M = 2rα|s| − s², s = 0)."""
    n, gamma, alpha, r = w["n"], rat(w["gamma"]), rat(w["alpha"]), rat(w["radius"])
    k0 = math.floor(gamma * n)
    k = k0 + (n - k0) % 2
    report.equal(f"{path}/ldpq_clients", w["ldpq_clients"], k)
    report.equal(f"{path}/pairs", w["pairs"], (n - k) // 2)
    mse = k * (r * alpha) ** 2 / F(n * n)
    bound = gamma * r * r * alpha * alpha / n + (1 - gamma) / (2 * n) * r * r * (alpha * alpha + 2 * alpha - 1)
    report.expect(w["m"] == 1, f"{path}/m", "the witness's log(m/δ) is exact only for m = 1")
    lhs = (n * gamma - 1) * (F(1, 4) - 1 / (4 * alpha * alpha))
    rhs = max(F(23 * w["minus_ln_delta"]), 2 * r * alpha)
    for key, value in (("exact_mse", mse), ("printed_bound", bound), ("precondition_lhs", lhs), ("precondition_rhs", rhs)):
        report.equal(f"{path}/{key}", rat(w[key]), value, w[key])
    return lhs >= rhs and mse > bound


def _ldpq_count_laws(w):
    """The laws of the number of outputs c + rα: the other clients (all LDPQ) convolved with client
    1 at its input, and at its replacement. Integers over the common denominator."""
    c, r, alpha = rat(w["center"]), rat(w["radius"]), rat(w["alpha"])
    law = [F(1)]
    for group in w["others"]:
        q = ldpq_q(alpha, c, r, rat(group["w"]))
        count = group["count"]
        binom = [math.comb(count, k) * q ** k * (1 - q) ** (count - k) for k in range(count + 1)]
        law = [sum(law[i] * binom[k - i] for i in range(max(0, k - count), min(k, len(law) - 1) + 1))
               for k in range(len(law) + count)]
    def with_client(v):
        q = ldpq_q(alpha, c, r, v)
        return [(q * law[k - 1] if k >= 1 else 0) + ((1 - q) * law[k] if k < len(law) else 0) for k in range(len(law) + 1)]
    return with_client(rat(w["client_1"])), with_client(rat(w["client_1_replaced_by"]))


def smallest_exp_eps(p, q, delta):
    """The smallest e^ε with Σ max(0, P − e^ε Q) <= δ, exactly (δ(x) is piecewise linear, decreasing)."""
    points = sorted(((a / b if b else None, a, b) for a, b in zip(p, q) if a > 0),
                    key=lambda t: (t[0] is not None, -(t[0] or 0)))
    mass_p, mass_q = F(0), F(0)
    for ratio, a, b in points:  # x at the next breakpoint: δ(x) = mass_p − x mass_q on this segment
        if ratio is None:
            mass_p += a
            if mass_p > delta:
                return None  # an output only one law has outweighs δ: no ε suffices
            continue
        if mass_p - ratio * mass_q > delta:  # δ(x) <= δ first above this breakpoint
            return max(F(1), (mass_p - delta) / mass_q)
        mass_p += a
        mass_q += b
    return max(F(1), (mass_p - delta) / mass_q) if mass_q else F(1)


def _binomial_poly(count, a, b):
    """(b − a + a z)^count: the integer numerators of Binomial(count, a/b) over b^count."""
    return [math.comb(count, k) * a ** k * (b - a) ** (count - k) for k in range(count + 1)]


def _poly_mul(x, y):
    out = [0] * (len(x) + len(y) - 1)
    for i, u in enumerate(x):
        if u:
            for j, v in enumerate(y):
                out[i + j] += u * v
    return out


def ldpq_replace_exp_eps(others, top, alpha, delta):
    """The exact e^ε at δ (worse direction) with client 1 on LDPQ at c + r against c − r, `top` of the
    `others` other LDPQ clients at c + r and the rest at c − r (other pairs at (c, c) add one sure
    "+" each, a shift). Integers over the common denominator b^(others + 1), q− = a/b."""
    q = F(1, 2) - 1 / (2 * alpha)
    a, b = q.numerator, q.denominator
    if top > others - top:  # the mirror image (every output reflected) has the same e^ε
        top = others - top
    rest = _poly_mul(_binomial_poly(others - top, a, b), _binomial_poly(top, b - a, b))
    p = [F(v, b ** (others + 1)) for v in _poly_mul(rest, [a, b - a])]       # client 1 at c + r: q+ = (b − a)/b
    r = [F(v, b ** (others + 1)) for v in _poly_mul(rest, [b - a, a])]       # at c − r: q− = a/b
    forward, backward = smallest_exp_eps(p, r, delta), smallest_exp_eps(r, p, delta)
    return None if forward is None or backward is None else max(forward, backward)


def population_ldpq(n, gamma):
    """The LDPQ clients of the reference code's population, client 1 included: ⌊γn⌋, one more if
    the rest is odd (exact_ucdp.hpp population_counts)."""
    ldpq = math.floor(gamma * n)
    return ldpq + 1 if (n - ldpq) % 2 else ldpq


def ldpq_replace_worst(others, alpha, delta, claimed_exp_eps):
    """Every configuration of the accountant's reduction for client 1 on LDPQ (Neighbours.v: j of the
    other LDPQ clients at c + r, j = 0..others; pairs at (c, c)), screened in double precision at
    the claimed worst e^ε: the j whose δ there is within 10^-9 of δ or above are recomputed
    exactly. Returns the j whose exact e^ε exceeds the claim (none when the claim is the worst)."""
    import numpy as np
    q = float(F(1, 2) - 1 / (2 * alpha))
    gamma = float(claimed_exp_eps)

    def pmf(count, p):
        k = np.arange(count + 1)
        logs = np.array([math.lgamma(count + 1) - math.lgamma(i + 1) - math.lgamma(count - i + 1) for i in k])
        return np.exp(logs + k * math.log(p) + (count - k) * math.log1p(-p))

    beyond = []
    for top in range(others // 2 + 1):  # the rest are mirror images
        rest = np.convolve(pmf(others - top, q), pmf(top, 1 - q))
        with_hi, with_lo = np.convolve(rest, [q, 1 - q]), np.convolve(rest, [1 - q, q])
        screened = max(np.maximum(with_hi - gamma * with_lo, 0).sum(), np.maximum(with_lo - gamma * with_hi, 0).sum())
        if screened >= float(delta) * (1 - 1e-9):
            exact = ldpq_replace_exp_eps(others, top, alpha, delta)
            if exact is None or exact > claimed_exp_eps:
                beyond.append(top)
    return beyond


def witness_t3_replace(report, w, path):
    """Replace one (client 1 moved): the exact ε at δ of the count of c + rα outputs (the released
    average is an injective function of it), against Eq. (th:3:1) at the witness's parameters."""
    delta, n, alpha, radius = rat(w["delta"]), w["n"], rat(w["alpha"]), rat(w["radius"])
    report.equal(f"{path}/n", n, 1 + sum(g["count"] for g in w["others"]))
    p, q = _ldpq_count_laws(w)
    exact = max(smallest_exp_eps(p, q, delta) or F(0), smallest_exp_eps(q, p, delta) or F(0))
    report.equal(f"{path}/exact_exp_eps", rat(w["exact_exp_eps"]), exact, w["exact_exp_eps"])
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        eps_u, pre = theorem3_printed(n, rat(w["gamma"]), delta, radius, alpha, w["m"])
        report.expect(inside(eps_u, w["printed_eps_u"]), f"{path}/printed_eps_u",
                      f"Eq. (th:3:1) gives {eps_u:.12g}, outside the enclosure")
        return pre and eps_u < dec(exact).ln()


def witness_t3_remove(report, w, path):
    """Remove one (Eq. (UCDP)): n·W̄_g = nc + rα(2k − n), n·W̄′_g = (n − 1)c + rα(2k′ − n + 1); they
    meet iff c = rα(2(k′ − k) + 1) for some 0 <= k <= n, 0 <= k′ <= n − 1: c/(rα) an odd integer."""
    n, c, radius, alpha = w["n"], rat(w["center"]), rat(w["radius"]), rat(w["alpha"])
    t = c / (radius * alpha)
    meet = t.denominator == 1 and t.numerator % 2 != 0 and abs(t.numerator) <= 2 * n - 1
    report.equal(f"{path}/disjoint_supports", w["disjoint_supports"], not meet)
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        _, pre = theorem3_printed(n, rat(w["gamma"]), rat(w["delta"]), radius, alpha, w["m"])
    return (not meet) and pre


def rational_sqrt(x):
    """√x when x is the square of a rational, else None (a Fraction is in lowest terms, and so is
    its square root's)."""
    if x < 0:
        return None
    n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return F(n, d) if n * n == x.numerator and d * d == x.denominator else None


def b1_ldpq_law(alpha, c, r, w):
    """Alg. 1: c − rα with 1 − q, c + rα with q."""
    q = ldpq_q(alpha, c, r, w)
    return [(c - r * alpha, 1 - q), (c + r * alpha, q)]


def b1_pbm_law(theta, m, c, r, w):
    """PBM_PLDP.py: p = 1/2 + (θ/r)(w − c), Z ~ Binomial(m, p), decoded c + (r/θ)(Z/m − 1/2)."""
    p = F(1, 2) + theta / r * (w - c)
    return [(c + r / theta * (F(k, m) - F(1, 2)), math.comb(m, k) * p ** k * (1 - p) ** (m - k)) for k in range(m + 1)]


def b1_rqm_law(delta, m, q, c, r, w):
    """RQM_FL.py: X = r(1 + D), x = w − c; m = 2 rounds between c ± X; m = 3 keeps c with probability
    q and then rounds between c and the outer level on x's side."""
    big, x = r * (1 + delta), w - c
    if m == 2:
        return [(c - big, (big - x) / (2 * big)), (c + big, (big + x) / (2 * big))]
    out_lo, out_hi = (1 - q) * (big - x) / (2 * big), (1 - q) * (big + x) / (2 * big)
    if x >= 0:
        return [(c - big, out_lo), (c, q * (big - x) / big), (c + big, out_hi + q * x / big)]
    return [(c - big, out_lo + q * (-x) / big), (c, q * (big + x) / big), (c + big, out_hi)]


def b1_signsgd_law(v):
    """signsgd.py: sign(v) with probability 1 (torch.sign: −1, 0, +1)."""
    return [(F(-1), F(int(v < 0))), (F(0), F(int(v == 0))), (F(1), F(int(v > 0)))]


def measure(law):
    """The law as a measure: equal values merged, zero atoms dropped."""
    total = {}
    for value, p in law:
        total[value] = total.get(value, 0) + p
    return {value: p for value, p in total.items() if p != 0}


def witness_baseline_law(report, w, path):
    """B1: a baseline calibrated as the authors' code does, against LDPQ at the same e^ε and range.
    The laws are recomputed at every input listed; "same as LDPQ" needs equal measures at each and
    inputs that decide every w: on each open piece between the breakpoints (RQM m = 3: c; SignSGD:
    0) the probabilities are polynomials in w of degree <= D (PBM: m; RQM and LDPQ: 1; SignSGD: 0),
    so D' + 1 points per piece (D' = max(D, 1), LDPQ's degree 1 included), the ends and the
    breakpoints decide it. Refutes the reading "distinct" iff the laws are the same."""
    BASELINE_LAW(w, path)
    mech, x, c, r = w["mechanism"], rat(w["exp_eps"]), rat(w["center"]), rat(w["radius"])
    m = w.get("m", 0)
    report.expect(r > 0, f"{path}/radius", "r must be positive")
    report.equal(f"{path}/reading", w["reading"], mech + (str(m) if mech != "signsgd" else ""))
    alpha = alpha_of(x)
    report.equal(f"{path}/alpha", rat(w["alpha"]), alpha, w["alpha"])
    if mech == "pbm":
        report.expect(m in (1, 2), f"{path}/m", f"PBM runs with m = 1 or 2, not {m}")
        s = x if m == 1 else rational_sqrt(x)
        if not report.expect(s is not None, f"{path}/exp_eps", f"e^(ε/2) is irrational at e^ε = {x}"):
            return w["refutes"]
        theta = (s - 1) / (2 * (s + 1))
        report.equal(f"{path}/theta", rat(w["theta"]), theta, w["theta"])
        law, degree, breaks = (lambda v: b1_pbm_law(theta, m, c, r, v)), m, []
    elif mech == "rqm":
        report.expect(m in (2, 3), f"{path}/m", f"RQM has m = 2 or 3 levels, not {m}")
        q = rat(w["q"]) if m == 3 else F(0)
        report.expect(0 <= q < 1, f"{path}/q", f"q = {q} is outside [0, 1)")
        delta = 2 / ((1 - q) * (x - 1))
        report.equal(f"{path}/delta_ratio", rat(w["delta_ratio"]), delta, w["delta_ratio"])
        law, degree, breaks = (lambda v: b1_rqm_law(delta, m, q, c, r, v)), 1, ([c] if m == 3 else [])
    else:
        law, degree, breaks = b1_signsgd_law, 0, [F(0)]
    lo, hi = c - r, c + r
    equal_at, points = [], set()
    for i, item in enumerate(w["compared"]):
        v = rat(item["w"])
        report.expect(lo <= v <= hi, f"{path}/compared/{i}/w", f"{v} is outside [c − r, c + r]")
        mine, ldpq = law(v), b1_ldpq_law(alpha, c, r, v)
        for key, recomputed in (("baseline", mine), ("ldpq", ldpq)):
            listed = [tuple(rat(a) for a in atom) for atom in item[key]]
            report.equal(f"{path}/compared/{i}/{key}", listed, recomputed, item[key])
        equal_at.append(measure(mine) == measure(ldpq))
        points.add(v)
    ends = sorted({lo, hi} | {b for b in breaks if lo < b < hi})
    need = max(degree, 1) + 1
    decides = all(e in points for e in ends) and all(
        len([v for v in points if a < v < b]) >= need for a, b in zip(ends, ends[1:]))
    same = all(equal_at) and decides
    if w["same_as_ldpq"]:
        report.expect(same, f"{path}/same_as_ldpq", "the laws differ at an input listed, or the inputs listed do "
                                                    "not decide every w")
    else:
        report.expect(not all(equal_at), f"{path}/same_as_ldpq", "the laws agree at every input listed")
    return same


WITNESS_RECHECKS = {"free_levels_pair": witness_free_levels, "aggregate_mean": witness_aggregate_mean,
                    "printed_q2": witness_printed_q2, "reference_top_cell": witness_reference_top,
                    "given_z": witness_given_z, "gaussian_ratio": witness_gaussian, "aug_mse_rule": witness_aug_mse,
                    "t3_replace_one": witness_t3_replace, "t3_remove_one": witness_t3_remove,
                    "baseline_law": witness_baseline_law}


def recheck_witnesses(report, cert):
    """Every witness's values and "refutes"; returns {reading: True if some witness refutes it}."""
    refuted = {}
    for i, w in enumerate(cert["data"].get("witnesses", [])):
        path = f"data/witnesses/{i}"
        WITNESS(w, path)
        WITNESS_SCHEMAS[w["kind"]](w, path)  # every parameter inside its formula's domain
        try:
            refutes = WITNESS_RECHECKS[w["kind"]](report, w, path)
        except (KeyError, TypeError, ValueError, ArithmeticError) as e:
            raise Malformed(path, f"a {w['kind']} witness lacks or mistypes a field ({type(e).__name__}: {e})") from None
        report.expect(w["refutes"] == refutes, f"{path}/refutes", f"{w['refutes']} != recomputed {refutes}")
        refuted[w["reading"]] = refuted.get(w["reading"], False) or refutes
    return refuted


# ---------------------------------------------------------------------------------------------
# Readings and the claim's verdict (readings.hpp), and the Coq pins they cite

COQ_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "coq")
PIN_RE = re.compile(r"Theorem\s+(holds|fails)__([A-Za-z0-9]+)__([a-z0-9_]+)\s*:\s*(.+?)\.\s+Proof\.\s*exact\s+"
                    r"([A-Za-z0-9_'.]+?)\s*\.\s*Qed\.", re.S)
_PINS = None


def coq_pins():
    """{(id, key): (holds, statement, lemma, file)} from Verdicts.v, each lemma found in its file."""
    global _PINS
    if _PINS is None:
        try:
            with open(os.path.join(COQ_DIR, "_CoqProject"), encoding="utf-8") as f:
                files = [line.strip() for line in f if line.strip().endswith(".v")]
            declared = {}
            for name in files:
                with open(os.path.join(COQ_DIR, name), encoding="utf-8") as f:
                    for m in re.finditer(r"(?:^|\n)\s*(?:Theorem|Lemma|Corollary)\s+([A-Za-z0-9_']+)", f.read()):
                        declared.setdefault(m.group(1), set()).add(name)
            with open(os.path.join(COQ_DIR, "Verdicts.v"), encoding="utf-8") as f:
                verdicts = f.read()
        except OSError as e:
            raise InternalError(f"cannot read the Coq proofs under {COQ_DIR}: {e}") from None
        _PINS = {}
        for m in PIN_RE.finditer(verdicts):
            lemma = m.group(5)
            module, _, bare = lemma.rpartition(".")
            where = [f for f in declared.get(bare, ()) if not module or f == module + ".v"]
            _PINS[(m.group(2), m.group(3))] = (m.group(1) == "holds", " ".join(m.group(4).split()), lemma,
                                                where[0] if where else None)
    return _PINS


def old_to_reading(computed, empirical):
    if computed in ("holds", "holds with slack"):
        return "holds (at the seeds' spread)" if empirical else "holds (checked on a grid; proof open)"
    return "fails" if computed == "fails" else "undecided"


def decide(readings):
    """readings.hpp decide(), written again."""
    holds = ("holds (proved)", "holds (checked on a grid; proof open)", "holds (at the seeds' spread)")
    rank = {"fails": 0, "undecided": 1, "holds (at the seeds' spread)": 2, "holds (checked on a grid; proof open)": 3}
    printed = [r for r in readings if r["role"] in ("as printed", "empirical")]
    if not printed:
        return readings[0]["verdict"] if readings else "undecided"
    weakest = min(printed, key=lambda r: rank.get(r["verdict"], 4))["verdict"]
    if weakest in holds:
        return weakest
    for r in readings:
        if r["role"] == "as evidently intended" and r["verdict"] == "holds (proved)":
            return f"erratum ({r['note']})"
    if weakest == "fails":
        for r in readings:
            if r["role"] == "in the stated regime, made exact" and r["verdict"] in holds:
                return f"holds only under {r['note']}"
    if weakest == "undecided":
        for r in readings:
            if r["role"] == "a step of the proof" and r["verdict"] == "fails":
                return "proof invalid"
    return weakest


def recheck_readings(report, cert, refuted):
    """Each reading's verdict from its evidence: a checked Coq pin (holds__/fails__ in Verdicts.v,
    its lemma in the file cited), else what the check computed, with its witnesses recomputed;
    then the claim's verdict from the readings."""
    pins = coq_pins()
    for i, r in enumerate(cert["readings"]):
        path = f"readings/{i}"
        pin = pins.get((cert["id"], r["key"]))
        computed = r.get("computed")
        if r["key"] in refuted:
            report.expect((computed == "fails") == refuted[r["key"]], f"{path}/computed",
                          f"{computed!r}, but the witnesses {'refute' if refuted[r['key']] else 'do not refute'} it")
        if "coq" in r:
            coq = r["coq"]
            if report.expect(pin is not None, f"{path}/coq", f"Verdicts.v pins no theorem for {cert['id']}/{r['key']}"):
                holds, statement, lemma, file = pin
                report.expect((coq["pinned"], " ".join(coq["statement"].split()), coq["lemma"], coq["file"]) ==
                              (f"{'holds' if holds else 'fails'}__{cert['id']}__{r['key']}", statement, lemma, file),
                              f"{path}/coq", f"the pin is {('holds' if holds else 'fails')}__{cert['id']}__{r['key']} : "
                                             f"{statement} by {lemma} in {file}")
            report.expect(coq["checked"] == cert["coq_checked"], f"{path}/coq/checked", "differs from coq_checked")
        else:
            report.expect(pin is None, f"{path}/coq",
                          "Verdicts.v pins a theorem the certificate does not cite")
        if pin is not None:  # the pinned theorem's verdict, checked in that run or not
            expected = "holds (proved)" if pin[0] else "fails"
        elif computed is not None:
            expected = old_to_reading(computed, r["role"] == "empirical")
        else:
            expected = "undecided"
        report.expect(r["verdict"] == expected, f"{path}/verdict", f"{r['verdict']!r} != recomputed {expected!r}")
    report.expect(cert["verdict"] == decide(cert["readings"]), "verdict",
                  f"{cert['verdict']!r} != recomputed {decide(cert['readings'])!r}")


# ---------------------------------------------------------------------------------------------
# The new claims' own rules (their witnesses and readings are rechecked above)

def recheck_witnessed(cert, report):
    """T1u, T3m, D1, X1, G1: the check fails its reading iff a witness for it refutes."""
    primary = [r for r in cert["readings"] if r.get("computed") == cert["check_verdict"]]
    report.expect(bool(primary) or cert["check_verdict"] == "undecided", "check_verdict",
                  "no reading carries the check's outcome")


def recheck_t1u(cert, report):
    """T1u: its witnesses (above) and, with levels c ± rα, the exact supremum of the gap per row."""
    for i, row in enumerate(cert["data"]["levels_rows"]):
        alpha = alpha_of(rat(row["exp_eps"]))
        report.equal(f"data/levels_rows/{i}/sup_gap", rat(row["sup_gap"]), sup_gap(alpha, row["bits"]), row["sup_gap"])
    recheck_witnessed(cert, report)


def t4_gamma_theta(n, p, delta, delta1):
    """Thm 4's γ, γ′ and θ as printed, at the current decimal precision."""
    v = dec(p * (1 - p))
    gap = dec(delta - delta1)
    width = (v * (1 - 2 * v) / (4 * gap * n)).sqrt()
    return v - width, v + width, v - (v / (gap * n)).sqrt()


def recheck_t4_precondition(w, path, report, gamma):
    """Theorem 3's precondition with δ1 and ε_u of Eq. (th:3:1) at the γ the check used (the lower
    end of its enclosure of the printed γ, rounded down: a smaller γ only makes ε_u larger).
    Returns (ε_u, precondition holds) recomputed."""
    if "gamma_used" not in w:
        report.expect(not w.get("preconditions_met", w.get("precondition")), f"{path}/gamma_used",
                      "a witness whose preconditions are met states the γ they were evaluated at")
        return None, False
    used = rat(w["gamma_used"])
    report.expect(dec(used) <= gamma and gamma - dec(used) < Decimal(10) ** -30, f"{path}/gamma_used",
                  f"{w['gamma_used']} is not the printed γ = {gamma:.{kCertDigits}g} rounded down")
    eps_u, pre = theorem3_printed(w["n"], used, rat(w["delta1"]), rat(w["radius"]), rat(w["alpha"]), w["m"])
    return eps_u, pre and 0 < gamma <= 1


def survival_at_least(trials, survive, k):
    """P(X >= k) for X ~ Binomial(trials, survive), exactly."""
    a, b = survive.numerator, survive.denominator
    return F(sum(math.comb(trials, j) * a ** j * (b - a) ** (trials - j) for j in range(k, trials + 1)), b ** trials)


def recheck_t4u_witness(w, path, report):
    """Thm4.v's T4u refutation: the exact probabilities that at least n/2 clients reported, with
    and without client 1 (survival 1 − p each). The event is that count exactly when the outputs'
    deviations c ± rα − c cannot add up to 1/2 (n r α < 1/2, every input at c); then
    P(S) − e^ε_u P′(S) − δ > 0 refutes the conclusion. Returns the verdict."""
    n, p, delta = w["n"], rat(w["p"]), rat(w["delta"])
    alpha, r = rat(w["alpha"]), rat(w["radius"])
    report.equal(f"{path}/every_input", rat(w["every_input"]), rat(w["center"]), w["every_input"])
    report.equal(f"{path}/event_is_count", w["event_is_count"], n * r * alpha < F(1, 2))
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        gamma, _, _ = t4_gamma_theta(n, p, delta, rat(w["delta1"]))
        report.expect(inside(gamma, w["gamma"]), f"{path}/gamma", f"does not enclose {gamma:.{kCertDigits}g}")
        report.equal(f"{path}/gamma_in_range", w["gamma_in_range"], 0 < gamma <= 1)
        eps_u, pre = recheck_t4_precondition(w, path, report, gamma)
        report.equal(f"{path}/precondition", w["precondition"], pre)
        if eps_u is not None:
            report.expect(inside(eps_u, w["printed_eps_u"]), f"{path}/printed_eps_u",
                          f"does not enclose recomputed {eps_u:.{kCertDigits}g}")
        with_client = survival_at_least(n, 1 - p, n // 2)
        without_client = survival_at_least(n - 1, 1 - p, n // 2)
        report.equal(f"{path}/p_event", rat(w["p_event"]), with_client, w["p_event"])
        report.equal(f"{path}/p_event_neighbour", rat(w["p_event_neighbour"]), without_client, w["p_event_neighbour"])
        report.equal(f"{path}/difference", rat(w["difference"]), with_client - without_client, w["difference"])
        if not (pre and w["event_is_count"]):
            return "undecided"
        margin = dec(with_client) - eps_u.exp() * dec(without_client) - dec(delta)
        report.expect(inside(margin, w["margin"]), f"{path}/margin", f"does not enclose {margin:.{kCertDigits}g}")
        if "every_admissible_delta1" in w:
            recheck_every_delta1(w, f"{path}/every_admissible_delta1", report, with_client, without_client)
        return "fails" if margin > 0 else "undecided"


def recheck_every_delta1(w, path, report, with_client, without_client):
    """T4u at every δ1 the theorem admits (check_t4u.cpp every_admissible_delta1): low is at most
    m e^{−(nv − 1)(1/4 − 1/(4α²))/23} (v = p(1 − p)), so no δ1 <= low meets Eq. (3); Eq. (3)'s
    left side at high is below 23 ln(m/δ), so no δ1 >= high does (it decreases in δ1); γ(high) is
    at least gamma_at_high > 0; ε_u(γ_at_high, low)·(1 − low/10)/(1 − high/10) is inside
    eps_u_bound (it bounds ε_u at every δ1 between); and P(S) − e^bound P′(S) − δ inside margin,
    refuting iff > 0. The witness's own δ1 lies between low and high."""
    e = w["every_admissible_delta1"]
    n, p, delta, m = w["n"], rat(w["p"]), rat(w["delta"]), w["m"]
    alpha, radius = rat(w["alpha"]), rat(w["radius"])
    low, high = rat(e["low"]), rat(e["high"])
    a, v = dec(alpha), dec(p * (1 - p))
    shape = Decimal(1) / 4 - 1 / (4 * a * a)
    report.expect(dec(low) <= m * (-(n * v - 1) * shape / 23).exp(), f"{path}/low",
                  "above m e^{−(nv − 1)(1/4 − 1/(4α²))/23}: an admissible δ1 could lie below it")
    gamma_high, _, _ = t4_gamma_theta(n, p, delta, high)
    report.expect((n * gamma_high - 1) * shape < 23 * (dec(F(m) / delta)).ln(), f"{path}/high",
                  "Eq. (3) can still hold there: an admissible δ1 could lie above it")
    report.expect(low < rat(w["delta1"]) < high, f"{path}", "the witness's δ1 is not between low and high")
    refutes = False
    if "gamma_at_high" in e:
        g = rat(e["gamma_at_high"])
        report.expect(0 < dec(g) <= gamma_high, f"{path}/gamma_at_high", f"not in (0, γ(high) = {gamma_high:.6g}]")
        bound, _ = theorem3_printed(n, g, low, radius, alpha, m)
        bound = bound * dec(1 - low / 10) / dec(1 - high / 10)
        report.expect(inside(bound, e["eps_u_bound"]), f"{path}/eps_u_bound", f"does not enclose {bound:.{kCertDigits}g}")
        margin = dec(with_client) - bound.exp() * dec(without_client) - dec(delta)
        report.expect(inside(margin, e["margin"]), f"{path}/margin", f"does not enclose {margin:.{kCertDigits}g}")
        refutes = margin > 0
    report.equal(f"{path}/refutes", e["refutes"], refutes)


def recheck_t4u(cert, report):
    """T4u (check_t4u.cpp): the witness of Thm4.v's T4u, recomputed (recheck_t4u_witness)."""
    check_verdict(report, cert, recheck_t4u_witness(cert["data"]["witness"], "data/witness", report))


def recheck_t4m_witness(w, path, report):
    """One of Thm4.v's T4m refutations: γ, θ and the printed bound in decimal, the preconditions,
    and, where given, the exact lower bound r²α²(3M E[S] − 2E[SN])/M³ on the MSE at M = n(1 − p)
    with every input at c (a full pair's error 0, a lone survivor's r²α²; per pair one survivor
    w.p. 2p(1 − p), two w.p. (1 − p)²). Returns (preconditions met, bound < 0, bound < lower, θ > 0)."""
    n, p, delta, delta1 = w["n"], rat(w["p"]), rat(w["delta"]), rat(w["delta1"])
    alpha, r = rat(w["alpha"]), rat(w["radius"])
    report.equal(f"{path}/every_input", rat(w["every_input"]), rat(w["center"]), w["every_input"])
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        gamma, gamma_prime, theta = t4_gamma_theta(n, p, delta, delta1)
        report.expect(inside(gamma, w["gamma"]), f"{path}/gamma", f"does not enclose {gamma:.{kCertDigits}g}")
        report.expect(inside(theta, w["theta"]), f"{path}/theta", f"does not enclose {theta:.{kCertDigits}g}")
        a, level2, root2 = dec(alpha), dec(r * r * alpha * alpha), Decimal(2).sqrt()
        bound = (gamma_prime * level2 / (n * theta) + 8 * level2 * dec(delta1)
                 + (1 - gamma) / (2 * n * theta) * dec(r * r) * ((root2 - 1) * a + 1) * ((root2 + 1) * a - 1))
        report.expect(inside(bound, w["printed_bound"]), f"{path}/printed_bound",
                      f"does not enclose recomputed {bound:.{kCertDigits}g}")
        _, pre = recheck_t4_precondition(w, path, report, gamma)
        report.equal(f"{path}/preconditions_met", w["preconditions_met"], pre)
        if "bound_negative" in w:
            report.equal(f"{path}/bound_negative", w["bound_negative"], bound < 0)
        if "theta_positive" in w:
            report.equal(f"{path}/theta_positive", w["theta_positive"], theta > 0)
        below = False
        if "mse_lower_bound" in w:
            pairs, q1, q2 = n // 2, 2 * p * (1 - p), (1 - p) ** 2
            mean_s, mean_sn = pairs * q1, pairs * q1 + pairs * (pairs - 1) * q1 * (2 * q2 + q1)
            m = n * (1 - p)
            lower = r * r * alpha * alpha * (3 * m * mean_s - 2 * mean_sn) / m ** 3
            report.equal(f"{path}/mse_lower_bound", rat(w["mse_lower_bound"]), lower, w["mse_lower_bound"])
            # The steps as the certificate states them: the tangent point, both pair probabilities
            # and both moments (E[S] = K q1, E[SN] = K q1 + K(K − 1) q1 (2 q2 + q1) over K pairs).
            for key, value in (("tangent_point", m), ("lone_probability", q1), ("both_probability", q2),
                               ("mean_lone_survivors", mean_s), ("mean_lone_times_survivors", mean_sn)):
                report.equal(f"{path}/{key}", rat(w[key]), value, w[key])
            below = bound < dec(lower)
        return pre, bound < 0, below, theta > 0


def recheck_t4m(cert, report):
    """T4m (check_t4m.cpp): as printed, a point meeting every precondition where the bound is
    negative (θ < 0); with θ > 0 too, a point where the exact lower bound on the MSE exceeds it.
    The check's own verdict is the printed reading's."""
    pre, negative, _, _ = recheck_t4m_witness(cert["data"]["printed"], "data/printed", report)
    pre2, _, below, theta_pos = recheck_t4m_witness(cert["data"]["theta_positive"], "data/theta_positive", report)
    report.expect(pre2 and theta_pos and below, "data/theta_positive",
                  "the θ > 0 witness does not meet every precondition or does not exceed the bound")
    check_verdict(report, cert, "fails" if pre and negative else "undecided")


def recheck_s1(cert, report):
    """S1: the paper states no ε_s (so the verdict is undecided); at each n the exact replace-one ε of
    the worst case over every other client's input, at the row's γ (= 1), α and δ: e^ε recomputed
    exactly at the configuration the row names (others at c + r and c − r), and every other
    configuration of the reduction screened (ldpq_replace_worst)."""
    report.equal("data/epsilon_s_stated", cert["data"]["epsilon_s_stated"], False)
    for i, row in enumerate(cert["data"]["scdp_at_sensitivity_2r"]):
        path = f"data/scdp_at_sensitivity_2r/{i}"
        n, top = row["n"], row["others_at_c_plus_r"]
        # The row's own setting: every client on LDPQ (γ = 1; the reduction below is LDPQ's), the
        # others at c ± r as counted. Where c and r sit does not matter (the law of the sum in
        # units of rα depends on α alone), α and δ do.
        delta, alpha = rat(row["delta"]), rat(row["alpha"])
        report.equal(f"{path}/gamma", rat(row["gamma"]), F(1), f"{row['gamma']} (the reduction is LDPQ's: γ = 1)")
        report.equal(f"{path}/others_at_c_minus_r", row["others_at_c_minus_r"], n - 1 - top)
        exact = ldpq_replace_exp_eps(n - 1, top, alpha, delta)
        report.equal(f"{path}/exact_exp_eps_replace_one", rat(row["exact_exp_eps_replace_one"]), exact)
        report.equal(f"{path}/worse_configurations", ldpq_replace_worst(n - 1, alpha, delta, exact), [])
        with localcontext() as ctx:
            ctx.prec = kWorkDigits
            report.expect(inside(dec(exact).ln(), row["exact_eps_replace_one"]), path,
                          "the exact replace-one ε is outside the enclosure")
    check_verdict(report, cert, "undecided")


def recheck_d1(cert, report):
    """D1 (a survivor's quantization is LDPQ's, check_d1.cpp): over the certificate's grid (c = r =
    1; every e^ε, d and input w, the partner at c − r, c, c + r), each client's marginal of
    Algorithm 2 as intended, as leader and as follower, against LDPQ's q(w): the points and those
    that differ, exactly. Verdict: holds iff none differs."""
    data, grid = cert["data"], GRIDS[cert["grid"]]
    c = r = F(1)
    points = differ = 0
    for eps in grid["eps"]:
        alpha = alpha_of(exp_eps_of(eps))
        for d in grid["bits"]:
            for w in grid_inputs(cert["grid"], c, r):
                q = ldpq_q(alpha, c, r, w)
                for partner in (c - r, c, c + r):
                    leader = marginals(joint_law(alpha, c, r, w, partner, d, "corrected"))[0]
                    follower = marginals(joint_law(alpha, c, r, partner, w, d, "corrected"))[1]
                    points += 1
                    differ += leader != q or follower != q
    report.equal("data/points", data["points"], points)
    report.equal("data/marginal_differs_from_ldpq", data["marginal_differs_from_ldpq"], differ)
    check_verdict(report, cert, "holds" if differ == 0 else "fails")


def recheck_x8(cert, report):
    """X8 (Experiment 8's gap, check_x8.cpp): at c = 0, r = 1/2, d = 5, for every pair of inputs at
    steps of r / (2·input_steps), LDP-FL's pair MSE minus CorBinQ's (as intended) along the e^ε grid
    in increasing order: the points and those where the gap grows as ε grows, exactly. Verdict:
    holds iff it never does."""
    data, grid = cert["data"], GRIDS[cert["grid"]]
    c, r, steps = F(0), F(1, 2), 2 * grid["input_steps"]
    inputs = [c + r * F(k, steps) for k in range(-steps, steps + 1)]
    alphas = [alpha_of(x) for x in sorted(exp_eps_of(eps) for eps in grid["eps"])]
    points = shrinks = 0
    for w1 in inputs:
        for w2 in inputs:
            previous = None
            for alpha in alphas:
                level = r * alpha
                q1, q2 = ldpq_q(alpha, c, r, w1), ldpq_q(alpha, c, r, w2)
                gap = (pair_mse(independent_law(q1, q2), level, w1 - c, w2 - c) -
                       pair_mse(joint_law(alpha, c, r, w1, w2, 5, "corrected"), level, w1 - c, w2 - c))
                points += 1
                shrinks += previous is not None and gap > previous
                previous = gap
    report.equal("data/points", data["points"], points)
    report.equal("data/gap_shrinks_as_eps_decreases", data["gap_shrinks_as_eps_decreases"], shrinks)
    check_verdict(report, cert, "holds" if shrinks == 0 else "fails")


# ---------------------------------------------------------------------------------------------
# One function per claim. Each receives the parsed certificate and a CertReport.

def recheck_p1(cert, report):
    """P1 (Prop. 1, check_p1.cpp). Per level row: α from e^ε; the PLDP ratio with γ1 = c + rα,
    (rα + r)/(rα − r), equals e^ε; with γ1 lowered by 1/1000 it exceeds e^ε. The smallest excess
    MSE of any other admissible pair γ1 = c + rα + a, γ2 = c − rα − b (a, b in {0, 1/8, 1/2, 1},
    not both 0) over the input grid: the excess (γ1 − w)(w − γ2) − ((rα)² − (w − c)²) =
    a(w − c + rα + b) + b(rα − w + c) is affine in w, so its minimum over any grid containing
    c ± r is at c ± r, and is recomputed exactly. Verdict: holds iff every ratio is as stated and
    every excess is > 0."""
    data = cert["data"]
    ok, excesses = True, []
    # What the certificate says it used: the offsets a, b, how far γ1 is lowered, c and r.
    steps = [rat(a) for a in data["level_offsets"]]
    lowered, center, radius = rat(data["lowered_by"]), rat(data["center"]), rat(data["radius"])
    report.expect(F(0) in steps, "data/level_offsets", "no 0: LDPQ's own levels are not among them")
    for i, row in enumerate(data["levels"]):
        path = f"data/levels/{i}"
        x = rat(row["exp_eps"])
        alpha = check_exp_eps_and_alpha(report, row, path)
        level = radius * alpha
        at_level = (level + radius) / (level - radius)
        report.equal(f"{path}/ratio_at_c_plus_r_alpha", rat(row["ratio_at_c_plus_r_alpha"]), at_level)
        if report.expect(level - lowered > radius, f"{path}/ratio_just_below",
                         f"undefined: rα − {data['lowered_by']} <= r (the check lowers γ1 by that)"):
            below = (level - lowered + radius) / (level - lowered - radius)
            report.equal(f"{path}/ratio_just_below", rat(row["ratio_just_below"]), below)
            ok = ok and below > x
        ok = ok and at_level == x
        for a in steps:
            for b in steps:
                if a == 0 and b == 0:
                    continue
                for w in (center - radius, center + radius):
                    excess = a * (w - center + level + b) + b * (level - w + center)
                    excesses.append(excess)
                    ok = ok and excess > 0
    report.equal("data/smallest_excess_mse_of_other_levels", rat(data["smallest_excess_mse_of_other_levels"]),
                 min(excesses))
    check_verdict(report, cert, "holds" if ok else "fails")


def recheck_a2(cert, report):
    """A2 (Alg. 2 as printed, check_a2.cpp). Recomputed: the PLDP supremum of the as-printed
    algorithm at e^ε = 3, d = 5 (24/7); for the counterexample, its ratio (the supremum at its
    e^ε and d), that it exceeds e^ε, that its (client, output) attains it, that its inputs give
    it (as values or, when not attained, limits from the left of a cell end), and that its recheck
    items are the laws at those inputs. Facts from the closed form: the intended algorithm's
    marginals are LDPQ's and its PLDP ratio is exactly e^ε at every d, so corrected_violations is
    0. Verdict: fails iff a printed point is biased or a printed case breaks ε-PLDP."""
    data = cert["data"]
    report.equal("data/ratio_at_exp_eps_3_d_5", rat(data["ratio_at_exp_eps_3_d_5"]), pldp_sup(F(2), 5, "as-printed"))
    report.equal("data/corrected_violations", data["corrected_violations"], 0)
    report.expect(data["printed_biased_points"] <= data["points"], "data/printed_biased_points",
                  f"{data['printed_biased_points']} biased of {data['points']} points")
    witness = data["pldp_counterexample"]
    if witness:
        path = "data/pldp_counterexample"
        x, d = rat(witness["exp_eps"]), witness["bits"]
        alpha = alpha_of(x)
        table = pldp_table(alpha, d, "as-printed")
        best = pldp_sup(alpha, d, "as-printed")
        ratio = rat(witness["ratio"])
        report.equal(f"{path}/ratio", ratio, best, witness["ratio"])
        report.expect(ratio > x, f"{path}/ratio", f"{witness['ratio']} does not exceed e^ε = {witness['exp_eps']}")
        client, output = witness["client"], witness["output"]
        report.expect(table.get((client, output)) == ratio, f"{path}/client",
                      f"client {client}, output {output:+d} reaches {table.get((client, output))}, "
                      f"not {witness['ratio']}")
        check_pldp_witness(report, path, witness, alpha, d, ratio)
        pair = witness.get("at_inputs")
        report.expect(witness["attained"] or pair is not None, f"{path}/at_inputs",
                      "missing: a supremum that is only a limit needs actual inputs past e^ε")
        if pair is not None:  # the two laws at actual inputs, and their plain ratio past e^ε
            own_partner = rat(pair["w_partner"])

            def output_prob(own):
                w1, w2 = (own, own_partner) if client == 1 else (own_partner, own)
                up = marginals(checked_joint_law(alpha, CENTER, RADIUS, w1, w2, d, "as-printed"))[client - 1]
                return up if output == 1 else 1 - up
            p_high, p_low = output_prob(rat(pair["w_high"])), output_prob(rat(pair["w_low"]))
            report.equal(f"{path}/at_inputs/p_high", rat(pair["p_high"]), p_high, pair["p_high"])
            report.equal(f"{path}/at_inputs/p_low", rat(pair["p_low"]), p_low, pair["p_low"])
            if report.expect(p_low > 0, f"{path}/at_inputs/p_low", "0: no ratio"):
                report.equal(f"{path}/at_inputs/ratio", rat(pair["ratio"]), p_high / p_low, pair["ratio"])
                report.expect(x < p_high / p_low <= ratio, f"{path}/at_inputs/ratio",
                              f"{pair['ratio']} is not in (e^ε, the supremum {witness['ratio']}]")
        partner, high, low = rat(witness["w_partner"]), rat(witness["w_high"]), rat(witness["w_low"])
        for i, own in enumerate((high, low)):
            w1, w2 = (own, partner) if client == 1 else (partner, own)
            check_joint_item_is(report, witness["recheck"][i], f"{path}/recheck/{i}", alpha, d, w1, w2, "as-printed")
        report.expect(data["printed_pldp_broken_cases"] >= 1, "data/printed_pldp_broken_cases",
                      "0, but the counterexample breaks ε-PLDP")
    # Over the certificate's grid (check_a2.cpp: c = 0, r = 1, d <= 16): every point's follower
    # marginal as printed against q(w2), and every (e^ε, d)'s printed PLDP supremum against e^ε.
    grid = GRIDS[cert["grid"]]
    inputs = grid_inputs(cert["grid"], F(0), F(1))
    points = biased = broken = 0
    for eps in grid["eps"]:
        x = exp_eps_of(eps)
        alpha = alpha_of(x)
        for d in (d for d in grid["bits"] if d <= 16):
            ratio = pldp_sup(alpha, d, "as-printed")
            broken += ratio == UNBOUNDED or ratio > x
            for w1 in inputs:
                for w2 in inputs:
                    points += 1
                    biased += marginals(joint_law(alpha, F(0), F(1), w1, w2, d, "as-printed"))[1] != \
                        ldpq_q(alpha, F(0), F(1), w2)
    report.equal("data/points", data["points"], points)
    report.equal("data/printed_biased_points", data["printed_biased_points"], biased)
    report.equal("data/printed_pldp_broken_cases", data["printed_pldp_broken_cases"], broken)
    fails = data["printed_biased_points"] > 0 or data["printed_pldp_broken_cases"] > 0
    check_verdict(report, cert, "fails" if fails else "holds")


def check_pldp_witness(report, path, witness, alpha, d, ratio):
    """P(output | w_high, partner)/P(output | w_low, partner) = ratio, each input at its threshold
    position or (only when the witness is not attained) as the limit from the left of it."""
    n = 2 ** d
    lo, _ = threshold_range(alpha, n)
    client, output, attained = witness["client"], witness["output"], witness["attained"]

    def position(w, role):  # role 1: leader, 2: follower (Alg. 2, line 3)
        q = ldpq_q(alpha, CENTER, RADIUS, w)
        return n * q if role == 1 else n * (1 - q)

    def options(w, role):
        return [cell for cell, exact in cells_at(position(w, role), lo) if exact or not attained]

    found = False
    for partner in options(rat(witness["w_partner"]), 3 - client):
        def prob(cell):
            plus = client_plus(client, cell, partner, n, "as-printed")
            return plus if output == 1 else 1 - plus
        for high in options(rat(witness["w_high"]), client):
            for low in options(rat(witness["w_low"]), client):
                den = prob(low)
                found = found or (den != 0 and prob(high) / den == ratio)
    report.expect(found, f"{path}/w_high",
                  "the witness's inputs do not give its ratio" + ("" if attained else " (nor as limits)"))


def recheck_t1a(cert, report):
    """T1a (Thm 1, C4–C5, check_t1a.cpp). Recomputed: each recheck item's exact law (closed form
    and enumeration) and that its marginals are LDPQ's q(w1), q(w2) when it is the corrected
    algorithm. Fact from the closed form: Σ_z P(Q1 = + | z) = a1 + f1 = 2^d q1 and likewise for Q2
    at every input and d, so mismatches is 0. Verdict: holds iff mismatches is 0."""
    data = cert["data"]
    for i, item in enumerate(data["recheck"]):
        if item["variant"] != "corrected":
            continue
        alpha, c, r = rat(item["alpha"]), rat(item["center"]), rat(item["radius"])
        law = {key: rat(item["joint"][key]) for key in JOINT_KEYS}
        report.equal(f"data/recheck/{i}/joint", marginals(law),
                     (ldpq_q(alpha, c, r, rat(item["w1"])), ldpq_q(alpha, c, r, rat(item["w2"]))),
                     "marginals")
    report.equal("data/mismatches", data["mismatches"], 0)
    # The grid's counts (check_t1a.cpp: e^ε × (d of the grid and 4096) × input pairs; the
    # enumerator at d <= enumerate_up_to for w1 <= w2).
    grid = GRIDS[cert["grid"]]
    inputs = grid_inputs(cert["grid"], F(0), F(1))
    ordered = sum(1 for w1 in inputs for w2 in inputs if w1 <= w2)
    report.equal("data/points", data["points"], len(grid["eps"]) * (len(grid["bits"]) + 1) * len(inputs) ** 2)
    report.equal("data/enumerated_points", data["enumerated_points"],
                 len(grid["eps"]) * sum(1 for d in grid["bits"] if d <= grid["enumerate_up_to"]) * ordered)
    check_verdict(report, cert, "holds" if data["mismatches"] == 0 else "fails")


def recheck_t1b(cert, report):
    """T1b (Thm 1's gap bound, check_t1b.cpp), every row at every d: the exact supremum of the
    gap over all inputs (closed form, see sup_gap), the paper's bound r²α²/2^(d−6), and the gap
    at the row's witness (w1, w2) from the exact law, which must equal the supremum (closed form
    at any d; the enumeration of Z agrees for d <= kMaxEnumeratedBits). Summary: the smallest
    bound/sup over rows with sup > 0; the counterexample is the first row above its bound.
    Verdict: the BoundTally rule over the rows."""
    data = cert["data"]
    pairs, slacks, first_failure = [], [], None
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        d = row["bits"]
        alpha = check_exp_eps_and_alpha(report, row, path)
        sup, bound = sup_gap(alpha, d), paper_gap_bound(alpha, d)
        report.equal(f"{path}/sup_gap", rat(row["sup_gap"]), sup, row["sup_gap"])
        report.equal(f"{path}/bound", rat(row["bound"]), bound, row["bound"])
        w1, w2 = rat(row["w1"]), rat(row["w2"])
        law = checked_joint_law(alpha, CENTER, RADIUS, w1, w2, d, "corrected")
        q1, q2 = ldpq_q(alpha, CENTER, RADIUS, w1), ldpq_q(alpha, CENTER, RADIUS, w2)
        level, x, y = RADIUS * alpha, w1 - CENTER, w2 - CENTER
        gap = pair_mse(law, level, x, y) - pair_mse(optimal_law(q1, q2), level, x, y)
        report.equal(f"{path}/sup_gap", rat(row["sup_gap"]), gap, f"{row['sup_gap']} (gap at the witness)")
        pairs.append((sup, bound))
        if sup > 0:
            slacks.append(bound / sup)
        if sup > bound and first_failure is None:
            first_failure = (i, row)
    report.equal("data/smallest_bound_over_sup", rat(data["smallest_bound_over_sup"]), min(slacks) if slacks else F(-1))
    counterexample = data.get("counterexample")
    report.expect((counterexample is None) == (first_failure is None), "data/counterexample",
                  "present without a failing row" if first_failure is None else "missing, but a row exceeds its bound")
    if counterexample is not None and first_failure is not None:
        i, row = first_failure
        for key in T1B_ROW:
            report.equal(f"data/counterexample/{key}", counterexample[key], row[key])
        check_joint_item_is(report, counterexample["recheck"][0], "data/counterexample/recheck/0",
                            alpha_of(rat(row["exp_eps"])), row["bits"], rat(row["w1"]), rat(row["w2"]), "corrected")
    check_verdict(report, cert, bound_verdict(pairs))


def recheck_t1c(cert, report):
    """T1c (check_t1c.cpp). Fact: CorBinQ attains min_pp_over_d_bit_pairs at every input and d.
    With s1 = 2^d q1 = u = a1 + f1 and s2 = 2^d q2 = 2^d − v: the greedy optimum is 0 when
    v >= a1 + 1, (a1 + 1 − v) f1 = f1(1 − f2) when v is in u's cell, and u − v when v < a1; this
    is CorBinQ's P(++)·2^d from joint_from_cells in each case (f1 = 0 likewise). So
    corbinq_not_optimal is 0 and the verdict holds. A witness, if present, is recomputed."""
    data = cert["data"]
    report.equal("data/corbinq_not_optimal", data["corbinq_not_optimal"], 0)
    witness = data.get("witness")
    report.expect((witness is None) == (data["corbinq_not_optimal"] == 0), "data/witness",
                  "present with no point worse" if witness is not None else "missing, but a point is worse")
    if witness is not None:
        alpha, d = alpha_of(rat(witness["exp_eps"])), witness["bits"]
        w1, w2 = rat(witness["w1"]), rat(witness["w2"])
        law = checked_joint_law(alpha, CENTER, RADIUS, w1, w2, d, "corrected")
        report.equal("data/witness/corbinq_pp", rat(witness["corbinq_pp"]), law["++"])
        if 2 ** d <= kMaxOptimisedCells:
            optimum = min_pp_over_d_bit_pairs(ldpq_q(alpha, CENTER, RADIUS, w1), ldpq_q(alpha, CENTER, RADIUS, w2),
                                              2 ** d)
            report.equal("data/witness/optimum_pp", rat(witness["optimum_pp"]), optimum)
        else:
            report.not_recomputable("data/witness/optimum_pp", f"d = {d} is beyond this script's vertex search")
    for i, sample in enumerate(data.get("samples", [])):
        path = f"data/samples/{i}"
        alpha, d = alpha_of(rat(sample["exp_eps"])), sample["bits"]
        w1, w2 = rat(sample["w1"]), rat(sample["w2"])
        report.equal(f"{path}/corbinq_pp", rat(sample["corbinq_pp"]),
                     checked_joint_law(alpha, CENTER, RADIUS, w1, w2, d, "corrected")["++"], sample["corbinq_pp"])
        if 2 ** d <= kMaxOptimisedCells:
            optimum = min_pp_over_d_bit_pairs(ldpq_q(alpha, CENTER, RADIUS, w1), ldpq_q(alpha, CENTER, RADIUS, w2), 2 ** d)
            report.equal(f"{path}/optimum_pp", rat(sample["optimum_pp"]), optimum, sample["optimum_pp"])
    # The grid's size (check_t1c.cpp: e^ε × d <= optimise_up_to × input pairs), and the samples are
    # every 7th of its points in order.
    grid = GRIDS[cert["grid"]]
    inputs = grid_inputs(cert["grid"], CENTER, RADIUS)
    order = [(exp_eps_of(eps), d, w1, w2) for eps in grid["eps"] for d in range(grid["optimise_up_to"] + 1)
             for w1 in inputs for w2 in inputs]
    report.equal("data/points", data["points"], len(order))
    chosen = [(rat(x["exp_eps"]), x["bits"], rat(x["w1"]), rat(x["w2"])) for x in data.get("samples", [])]
    report.equal("data/samples", chosen, order[::7], "the samples' inputs (every 7th point of the grid)")
    check_verdict(report, cert, "holds" if data["corbinq_not_optimal"] == 0 else "fails")


def recheck_t2a(cert, report):
    """T2a (Thm 2, unbiased aggregate, check_t2a.cpp). Fact: each corrected client's marginal is
    LDPQ's (T1a's closed form), whose mean is c + rα(2q − 1) = w, so the released sum's mean is
    the sum of the weights in every population: biased_cases is 0. Verdict: holds iff 0; a
    witness exists iff a case is biased."""
    data = cert["data"]
    report.equal("data/biased_cases", data["biased_cases"], 0)
    witness = data.get("witness")
    report.expect((witness is None) == (data["biased_cases"] == 0), "data/witness",
                  "present with no biased case" if witness is not None else "missing, but a case is biased")
    if witness is not None:
        report.expect(rat(witness["mean"]) != rat(witness["sum_of_weights"]), "data/witness/mean",
                      "equals the sum of the weights")
    report.expect(data["printed_variant_biased_cases"] <= data["cases"], "data/printed_variant_biased_cases",
                  "more than the cases")
    # The populations over the certificate's grid (check_t2a.cpp: c = 0, r = 1; for each e^ε, d and
    # n = 2..9, client i's weight is input (7i + 3n + d) mod |inputs|; client 0 and, for even n, the
    # last client on LDPQ, the others in consecutive pairs, the first of each leading). The sum's
    # mean is the sum of the outputs' means (linearity), each c + rα(2P(+) − 1) from its marginal:
    # LDPQ's is its weight; a pair's as printed comes from the printed joint law.
    grid = GRIDS[cert["grid"]]
    inputs = grid_inputs(cert["grid"], F(0), F(1))
    cases = printed_biased = 0
    for eps in grid["eps"]:
        alpha = alpha_of(exp_eps_of(eps))
        for d in grid["bits"]:
            for n in range(2, 10):
                def w(i):
                    return inputs[(i * 7 + n * 3 + d) % len(inputs)]
                total = sum(w(i) for i in range(n))
                mean = w(0) + (w(n - 1) if n % 2 == 0 else 0)
                for i in range(1, n - 1, 2):
                    p1, p2 = marginals(joint_law(alpha, F(0), F(1), w(i), w(i + 1), d, "as-printed"))
                    mean += alpha * (2 * p1 - 1) + alpha * (2 * p2 - 1)
                cases += 1
                printed_biased += mean != total
    report.equal("data/cases", data["cases"], cases)
    report.equal("data/printed_variant_biased_cases", data["printed_variant_biased_cases"], printed_biased)
    check_verdict(report, cert, "holds" if data["biased_cases"] == 0 else "fails")


# check_t2b.cpp walks Appendix C at e^ε = 3, i.e. α = 2 (and c = 0, r = 1).
T2B_APPENDIX_ALPHA = F(2)


def recheck_t2b(cert, report):
    """T2b (Thm 2's MSE bound, check_t2b.cpp). Per row: α, the exact worst case sup M (see
    sup_optimal_pair_mse), M at the witness w1 = w2 = witness_w (optimal coupling), the claimed
    r²(α² + 2α − 1) (the √2 cancel). Facts: sup M is the sup over the whole square, so
    grid_never_exceeds_witness is true. Appendix C at α = 2, r = 1: MSE = Var1 + Var2 + 2Cov is
    an identity, Var = (rα)² − (w − c)² <= (rα)², and with x + y <= 0 the coupling has P(++) = 0,
    so Cov = −L² − L(x + y) − xy (the printed formula) = −(L + x)(L + y) < 0, decreasing in x and
    y, at most −r²(α − 1)² (at w = w' = c − r, on every grid); symmetric for x + y > 0. So every
    count equals points except MSE = Var1 + Var2 + Cov, which holds nowhere (Cov < 0), and the
    max covariance is −(α − 1)² = −1. Verdict: the BoundTally rule, undecided if the grid
    exceeded the witness."""
    data = cert["data"]
    pairs, slacks = [], []
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        alpha = check_exp_eps_and_alpha(report, row, path)
        sup = sup_optimal_pair_mse(alpha)
        bound = RADIUS * RADIUS * (alpha * alpha + 2 * alpha - 1)
        report.equal(f"{path}/sup_pair_mse", rat(row["sup_pair_mse"]), sup)
        report.equal(f"{path}/claimed_pair_bound", rat(row["claimed_pair_bound"]), bound)
        w = rat(row["witness_w"])
        q = ldpq_q(alpha, CENTER, RADIUS, w)
        report.equal(f"{path}/sup_pair_mse", rat(row["sup_pair_mse"]),
                     pair_mse(optimal_law(q, q), RADIUS * alpha, w - CENTER, w - CENTER),
                     f"{row['sup_pair_mse']} (M at the witness)")
        pairs.append((sup, bound))
        slacks.append(bound / sup)
    report.equal("data/grid_never_exceeds_witness", data["grid_never_exceeds_witness"], True)
    report.equal("data/smallest_bound_over_sup", rat(data["smallest_bound_over_sup"]), min(slacks))
    steps, path = data["appendix_c_steps"], "data/appendix_c_steps"
    for key in ("mse_equals_var_plus_2cov", "var_at_most_r2alpha2", "cov_formula_holds",
                "cov_at_most_minus_r2_alpha_minus_1_squared"):
        report.equal(f"{path}/{key}", steps[key], steps["points"], f"{steps[key]} (points: {steps['points']})")
    report.equal(f"{path}/mse_equals_var_plus_cov_as_in_proof", steps["mse_equals_var_plus_cov_as_in_proof"], 0)
    alpha = T2B_APPENDIX_ALPHA
    report.equal(f"{path}/max_cov_when_w_plus_w2_at_most_2c", rat(steps["max_cov_when_w_plus_w2_at_most_2c"]),
                 -RADIUS * RADIUS * (alpha - 1) ** 2)
    report.equal(f"{path}/points", steps["points"], len(grid_inputs(cert["grid"], CENTER, RADIUS)) ** 2,
                 f"{steps['points']} (the input grid's pairs)")
    check_verdict(report, cert, bound_verdict(pairs) if data["grid_never_exceeds_witness"] else "undecided")
    # Line 14 as printed: the pair's exact law at each d (its own closed form, enumerated for
    # small d), the average's MSE (a pair's over 4), above the bound (r²/2n)(α² + 2α − 1) at some d.
    printed = data.get("as_printed")
    if printed is not None:
        alpha = alpha_of(rat(printed["exp_eps"]))
        c, r, w1, w2, n = (rat(printed[k]) for k in ("center", "radius", "w1", "w2", "n"))
        bound = r * r * (alpha * alpha + 2 * alpha - 1) / (2 * n)
        report.equal("data/as_printed/bound", rat(printed["bound"]), bound)
        report.equal("data/as_printed/n", n, 2)
        above = False
        for i, row in enumerate(printed["rows"]):
            path = f"data/as_printed/rows/{i}"
            law = checked_joint_law(alpha, c, r, w1, w2, row["bits"], "as-printed")
            aggregate = pair_mse(law, r * alpha, w1 - c, w2 - c) / 4
            report.equal(f"{path}/aggregate_mse", rat(row["aggregate_mse"]), aggregate)
            above = above or aggregate > bound
            item = row["recheck"]
            report.expect((rat(item["alpha"]), rat(item["center"]), rat(item["radius"]), rat(item["w1"]),
                           rat(item["w2"]), item["bits"], item["variant"]) ==
                          (alpha, c, r, w1, w2, row["bits"], "as-printed"), f"{path}/recheck", "is not at this row's point")
        report.expect(above, "data/as_printed/rows", "no d where the printed MSE is above the bound")


T2C_CONDITION = "a comparison of worst cases over inputs"


def recheck_t2c(cert, report):
    """T2c (the factor two, check_t2c.cpp). Per row: LDP-FL's worst case L² per client over
    CorBin-FL's sup M/2 per client (T2b), 2L²/sup M; and at w1 = w2 = c + r, the MSE of two
    independent LDPQs over that of the d → ∞ coupling (exact laws). The per-input counterexample
    is the first row whose ratio at the edge is < 2. Verdict: fails if a worst-case ratio is < 2;
    "holds only under a comparison of worst cases over inputs" if a per-input ratio is < 2;
    holds otherwise."""
    data = cert["data"]
    worst_ok, first = True, None
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        alpha = alpha_of(rat(row["exp_eps"]))
        level = RADIUS * alpha
        worst = 2 * level * level / sup_optimal_pair_mse(alpha)
        q = ldpq_q(alpha, CENTER, RADIUS, CENTER + RADIUS)
        at_edge = (pair_mse(independent_law(q, q), level, RADIUS, RADIUS)
                   / pair_mse(optimal_law(q, q), level, RADIUS, RADIUS))
        report.equal(f"{path}/worst_case_ratio", rat(row["worst_case_ratio"]), worst)
        report.equal(f"{path}/ratio_at_w1_w2_c_plus_r", rat(row["ratio_at_w1_w2_c_plus_r"]), at_edge)
        worst_ok = worst_ok and worst >= 2
        if at_edge < 2 and first is None:
            first = row
    counterexample = data.get("per_input_counterexample")
    report.expect((counterexample is None) == (first is None), "data/per_input_counterexample",
                  "present, but no row is below 2 at the edge" if first is None else "missing, but a row is below 2")
    if counterexample is not None and first is not None:
        report.equal("data/per_input_counterexample", counterexample, first, "the counterexample")
    check_verdict(report, cert, "fails" if not worst_ok else
                  f"holds only under {T2C_CONDITION}" if first is not None else "holds")


# check_t3.cpp's fixed settings for the curve against n and the model sizes (r, γ); α, δ and m
# of the curve are the counterexample's.
T3_CURVE_GAMMA, T3_CURVE_RADIUS = F(1, 2), F(1)


def recheck_t3(cert, report):
    """T3 (Thm 3, check_t3.cpp). Recomputed at kWorkDigits: for the counterexample, Eq. (th:3:1)
    and its printed precondition from (n, γ, δ, r, α, m); cpSGD Thm 1 with the proof's
    substitutions and with consistent units, and the latter's precondition; the exact ε as
    ln(exact_exp_eps_replace_one). The same formulas for every point of the curve against n and
    every model size (γ = 1/2, r = 1 as the check sets them). Verdict: fails iff the printed
    precondition holds and the printed ε_u is below the exact ε, or the remove-one laws have
    disjoint mass above δ (no finite ε); else undecided."""
    data = cert["data"]
    cx, path = data["counterexample"], "data/counterexample"
    n, m = cx["n"], cx["m"]
    gamma, delta, radius, alpha = rat(cx["gamma"]), rat(cx["delta"]), rat(cx["radius"]), rat(cx["alpha"])
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        printed, precondition = theorem3_printed(n, gamma, delta, radius, alpha, m)
        proof, _ = theorem3_cpsgd(n, gamma, delta, radius, alpha, m, False)
        units, units_precondition = theorem3_cpsgd(n, gamma, delta, radius, alpha, m, True)
        exact = dec(rat(cx["exact_exp_eps_replace_one"])).ln()
        for key, value in (("printed_eps_u", printed), ("cpsgd_eps_u_proof_units", proof),
                           ("cpsgd_eps_u_consistent_units", units), ("exact_eps_replace_one", exact)):
            report.expect(inside(value, cx[key]), f"{path}/{key}", f"{short(cx[key])} does not enclose recomputed "
                                                                   f"{value:.{kCertDigits}g}")
        report.equal(f"{path}/printed_precondition", cx["printed_precondition"], precondition)
        report.equal(f"{path}/cpsgd_precondition_consistent_units", cx["cpsgd_precondition_consistent_units"],
                     units_precondition)
        for i, point in enumerate(data["eps_u_against_n"]):
            args = (point["n"], T3_CURVE_GAMMA, delta, T3_CURVE_RADIUS, alpha, m)
            value, pre = theorem3_printed(*args)
            for key, recomputed in (("printed", value), ("cpsgd_proof_units", theorem3_cpsgd(*args, False)[0]),
                                    ("cpsgd_consistent_units", theorem3_cpsgd(*args, True)[0])):
                report.expect(inside(recomputed, point[key]), f"data/eps_u_against_n/{i}/{key}",
                              f"{short(point[key])} does not enclose recomputed {recomputed:.{kCertDigits}g}")
            report.equal(f"data/eps_u_against_n/{i}/printed_precondition", point["printed_precondition"], pre)
        for i, row in enumerate(data["paper_model_sizes"]):
            value, pre = theorem3_printed(row["n"], T3_CURVE_GAMMA, delta, T3_CURVE_RADIUS, alpha, row["m"])
            report.expect(inside(value, row["printed_eps_u"]), f"data/paper_model_sizes/{i}/printed_eps_u",
                          f"{short(row['printed_eps_u'])} does not enclose recomputed {value:.{kCertDigits}g}")
            report.equal(f"data/paper_model_sizes/{i}/printed_precondition", row["printed_precondition"], pre)
        understates = precondition and printed < exact
        recheck_t3_paper_scale(data.get("paper_scale", []), report)
        for i, row in enumerate(data["paper_model_sizes"]):
            lower, upper = (math.inf if row[k] == "infinite" else row[k] for k in ("eps_lower", "eps_upper"))
            report.expect(lower <= upper, f"data/paper_model_sizes/{i}/eps_lower", "above eps_upper")
    # The exact worst case: e^ε at the named configuration (the others at one end but the named
    # number), and no other configuration of the reduction above it.
    exact_exp = rat(cx["exact_exp_eps_replace_one"])
    report.equal(f"{path}/exact_exp_eps_replace_one", exact_exp,
                 ldpq_replace_exp_eps(n - 1, cx["others_at_c_plus_r"], alpha, delta))
    report.equal(f"{path}/worse_configurations", ldpq_replace_worst(n - 1, alpha, delta, exact_exp), [])
    for i, point in enumerate(data["eps_u_against_n"]):
        others, e = point["other_ldpq"], rat(point["exact_exp_eps_replace_one"])
        report.equal(f"data/eps_u_against_n/{i}/other_ldpq", others,
                     population_ldpq(point["n"], T3_CURVE_GAMMA) - 1)
        report.equal(f"data/eps_u_against_n/{i}/exact_exp_eps_replace_one", e,
                     ldpq_replace_exp_eps(others, point["others_at_c_plus_r"], alpha, delta))
        report.equal(f"data/eps_u_against_n/{i}/worse_configurations", ldpq_replace_worst(others, alpha, delta, e), [])
        with localcontext() as ctx:
            ctx.prec = kWorkDigits
            report.expect(inside(dec(e).ln(), point["exact_replace_one"]), f"data/eps_u_against_n/{i}/exact_replace_one",
                          "does not enclose ln of the exact e^ε")
    # δ(ε) decreases to the disjoint mass as ε → ∞: no finite ε reaches δ iff that mass exceeds δ.
    infinite = rat(cx["remove_one_disjoint_mass"]) > delta
    # Remove-one compares the sum of n LDPQ outputs c ± rα (check_t3.cpp: c = 0, γ = 1) with the sum
    # of n − 1: their supports are {nc + rα(2k − n)} and {(n − 1)c + rα(2k − n + 1)}, each atom of
    # positive mass (0 < q(w) < 1 for α > 1). Disjoint supports make the disjoint mass 1; supports
    # that meet would need the laws themselves.
    n, level = cx["n"], rat(cx["radius"]) * rat(cx["alpha"])
    whole = {level * (2 * k - n) for k in range(n + 1)}
    removed = {level * (2 * k - n + 1) for k in range(n)}
    if cx["gamma"] == "1" and not whole & removed:
        report.equal(f"{path}/remove_one_disjoint_mass", rat(cx["remove_one_disjoint_mass"]), F(1),
                     cx["remove_one_disjoint_mass"])
    else:
        report.not_recomputable(f"{path}/remove_one_disjoint_mass", "the supports of the remove-one sums meet: the "
                                "disjoint mass needs the laws")
    report.not_recomputable("data/paper_model_sizes/*/eps_lower, data/paper_model_sizes/*/eps_upper",
                            "a certified PLD composition over m (privacy/accountant.hpp), which this script does not "
                            "reimplement; eps_lower <= eps_upper and the printed ε_u against them are rechecked")
    check_verdict(report, cert, "fails" if understates or infinite else "undecided")


def recheck_t3_paper_scale(rows, report):
    """T3 at the paper's model sizes (t3_scale.cpp): the printed ε_u and precondition recomputed
    from (m, n, γ, δ, e^ε, r); the row flagged smallest meets the precondition and n − 1 does not;
    ε_lower <= ε_upper; each one-round row's word follows from the printed value against the
    bounds. The bounds themselves come from a certified composition of the exact per-coordinate
    law's privacy-loss distribution over m·T, not redone here."""
    for i, row in enumerate(rows):
        path = f"data/paper_scale/{i}"
        alpha = alpha_of(rat(row["exp_eps"]))
        args = (row["m"], rat(row["gamma"]), rat(row["delta"]), rat(row["radius"]), alpha)
        value, pre = theorem3_printed(row["n"], args[1], args[2], args[3], alpha, row["m"])
        report.expect(inside(value, row["printed_eps_u"]), f"{path}/printed_eps_u",
                      f"{short(row['printed_eps_u'])} does not enclose recomputed {value:.{kCertDigits}g}")
        report.equal(f"{path}/printed_precondition", row["printed_precondition"], pre)
        if row["smallest_n_meeting_precondition"]:
            # Below nγ = 2 Thm 3 does not apply, so its precondition is not met there.
            before = ((row["n"] - 1) * args[1] >= 2
                      and theorem3_printed(row["n"] - 1, args[1], args[2], args[3], alpha, row["m"])[1])
            report.expect(pre and not before, f"{path}/smallest_n_meeting_precondition",
                          f"the precondition {'fails' if not pre else 'also holds at n − 1'} at n = {row['n']}")
        lower, upper = (math.inf if row[k] == "infinite" else row[k] for k in ("eps_lower", "eps_upper"))
        report.expect(lower <= upper, f"{path}/eps_lower", "above eps_upper")
        if row["rounds"] == 1:
            lo, hi = enclosure(row["printed_eps_u"])
            word = "fails" if hi < lower else "holds at this instance" if lo > upper else "undecided"
            report.equal(f"{path}/formula_at_instance", row["formula_at_instance"], word)
        else:
            report.equal(f"{path}/formula_at_instance", row["formula_at_instance"],
                         "not claimed (the theorem covers one round)")
    if rows:
        report.not_recomputable("data/paper_scale/*/eps_lower, data/paper_scale/*/eps_upper",
                                "a certified PLD composition over m·T (privacy/accountant.hpp)")


def recheck_t4(cert, report):
    """T4 (Thm 4, check_t4.cpp). Recomputed: γ, γ' and θ as printed, at kWorkDigits; δ − δ1; the
    exact probabilities of S ~ Binomial(n/2, 2p(1 − p)) outside [γn, γ'n] and of N ~ Binomial(n,
    1 − p) outside [θn, θ'n], the interval ends rounded inwards exactly (θ' = p(1 − p) +
    √(p(1 − p)/((δ − δ1)n)) is the check's reading: the paper prints only θ); the recheck item is
    the first of these. Verdict: fails iff either probability exceeds δ − δ1, else undecided."""
    cx, path = cert["data"]["counterexample"], "data/counterexample"
    n, p, delta, delta1 = cx["n"], rat(cx["p"]), rat(cx["delta"]), rat(cx["delta1"])
    pq, slack = p * (1 - p), delta - delta1
    singles_width2 = pq * (1 - 2 * pq) / (4 * slack * n)   # (γ' − γ)²/4, Thm 4
    survivors_width2 = pq / (slack * n)                     # (θ' − θ)²/4
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        for key, value in (("gamma", dec(pq) - dec(singles_width2).sqrt()),
                           ("gamma_prime", dec(pq) + dec(singles_width2).sqrt()),
                           ("theta", dec(pq) - dec(survivors_width2).sqrt())):
            report.expect(inside(value, cx[key]), f"{path}/{key}",
                          f"{short(cx[key])} does not enclose recomputed {value:.{kCertDigits}g}")
    report.equal(f"{path}/claimed_each", rat(cx["claimed_each"]), slack)
    # γn = pq·n − √(pq(1 − 2pq)n/(4(δ − δ1))), θn = pq·n − √(pq·n/(δ − δ1)).
    first, last = (ceil_sqrt_sum(pq * n, singles_width2 * n * n, -1), floor_sqrt_sum(pq * n, singles_width2 * n * n, 1))
    singles = binomial_outside(n // 2, 2 * pq, first, last)
    survivors = binomial_outside(n, 1 - p, ceil_sqrt_sum(pq * n, survivors_width2 * n * n, -1),
                                 floor_sqrt_sum(pq * n, survivors_width2 * n * n, 1))
    report.equal(f"{path}/singles_outside", rat(cx["singles_outside"]), singles, cx["singles_outside"])
    report.equal(f"{path}/survivors_outside", rat(cx["survivors_outside"]), survivors, cx["survivors_outside"])
    item, item_path = cx["recheck"][0], f"{path}/recheck/0"
    report.equal(f"{item_path}/trials", item["trials"], n // 2)
    report.equal(f"{item_path}/p", rat(item["p"]), 2 * pq, item["p"])
    report.equal(f"{item_path}/first_inside", int(item["first_inside"]), first)
    report.equal(f"{item_path}/last_inside", int(item["last_inside"]), last)
    report.equal(f"{item_path}/probability", rat(item["probability"]), singles, item["probability"])
    with localcontext() as ctx:
        ctx.prec = kWorkDigits
        _, pre = recheck_t4_precondition(cx, path, report, dec(pq) - dec(singles_width2).sqrt())
    report.equal(f"{path}/preconditions_met", cx["preconditions_met"], pre)
    # The conclusion reading: T4u's witness, recomputed the same way.
    recheck_t4u_witness(cert["data"]["conclusion_witness"], "data/conclusion_witness", report)
    check_verdict(report, cert, "fails" if pre and (singles > slack or survivors > slack) else "undecided")


def recheck_d0(cert, report):
    """D0 (d = 0, check_d0.cpp). Recomputed: the recheck items' laws. Facts from the closed form
    at d = 0 (one cell, Z = 0): the corrected law is P(+-) = f1 f2 = q1(1 − q2) etc., the product
    of the LDPQ marginals at every input, so corrected_differences is 0; the reference code's
    tie probability at the top cell 0 is 1, so Q1 = + and Q2 = − whatever the inputs, and its law
    differs from the product (q1 q2 > 0) at every point: reference_code_differences = points.
    Verdict: holds iff corrected_differences is 0."""
    data = cert["data"]
    for i, item in enumerate(data["recheck"]):
        if item["bits"] == 0 and item["variant"] == "corrected":
            alpha, c, r = rat(item["alpha"]), rat(item["center"]), rat(item["radius"])
            product = independent_law(ldpq_q(alpha, c, r, rat(item["w1"])), ldpq_q(alpha, c, r, rat(item["w2"])))
            report.equal(f"data/recheck/{i}/joint", {k: rat(item["joint"][k]) for k in JOINT_KEYS}, product,
                         "the law at d = 0")
    report.equal("data/corrected_differences", data["corrected_differences"], 0)
    report.equal("data/reference_code_differences", data["reference_code_differences"], data["points"])
    # Over the certificate's grid (check_d0.cpp, c = 0, r = 1): every point's law at d = 0.
    points = corrected = 0
    for eps in GRIDS[cert["grid"]]["eps"]:
        alpha = alpha_of(exp_eps_of(eps))
        for w1 in grid_inputs(cert["grid"], F(0), F(1)):
            for w2 in grid_inputs(cert["grid"], F(0), F(1)):
                points += 1
                product = independent_law(ldpq_q(alpha, F(0), F(1), w1), ldpq_q(alpha, F(0), F(1), w2))
                law = checked_joint_law(alpha, F(0), F(1), w1, w2, 0, "corrected")
                corrected += law["++"] != product["++"] or law["--"] != product["--"]
    report.equal("data/points", data["points"], points)
    report.equal("data/corrected_differences", data["corrected_differences"], corrected)
    check_verdict(report, cert, "holds" if data["corrected_differences"] == 0 else "fails")


C1_KEY_BITS = 256  # k: X25519 (check_c1.cpp)


def recheck_c1(cert, report):
    """C1 (communication cost, check_c1.cpp). Per row, the closed form the check asserts equals
    the protocol's count: keys 2k, election 2·(8 + 128), Z ⌈dm/8⌉·8 + 128 (ChaCha20-Poly1305 tag),
    upload ⌈m/8⌉·8; with Z derived from the key, no Z bits; the claimed dmk + nk literally.
    Summary: the smallest claimed/counted. Verdict: holds with slack iff every count is at most
    the claim, else fails."""
    data, k = cert["data"], C1_KEY_BITS
    rule = data["count_rule"]
    report.equal("data/count_rule/key_bits", rule["key_bits"], k)
    report.equal("data/count_rule/election_bits", rule["election_bits"], 2 * (8 + 128))
    report.equal("data/count_rule/z_tag_bits", rule["z_tag_bits"], 128)
    within, ratios = True, []
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        m, d, n = row["m"], row["d"], row["n"]
        fixed = 2 * k + rule["election_bits"] + (m + 7) // 8 * 8
        exchanged = fixed + (d * m + 7) // 8 * 8 + rule["z_tag_bits"]
        claimed = d * m * k + n * k
        report.equal(f"{path}/bits_z_exchanged", int(row["bits_z_exchanged"]), exchanged)
        report.equal(f"{path}/bits_z_from_key", int(row["bits_z_from_key"]), fixed)
        report.equal(f"{path}/claimed_dmk_plus_nk", int(row["claimed_dmk_plus_nk"]), claimed)
        within = within and exchanged <= claimed
        ratios.append(F(claimed, exchanged))
    report.equal("data/smallest_claimed_over_counted", rat(data["smallest_claimed_over_counted"]), min(ratios))
    check_verdict(report, cert, "holds with slack" if within else "fails")


R1_CENTER = F(1)  # check_r1.cpp: c = 1 > 0, as Theorem 1 requires


def recheck_r1(cert, report):
    """R1 (the reference code, check_r1.cpp). Per row: e^ε = ⌈e^eps·10^6⌉/10^6 (common.cpp
    exp_eps_near, in doubles as there); the exact PLDP supremum of the reference-code reading at
    the certificate's d (see own_sign_envelopes: e^ε unless the top cell 2^d − 1 is reachable,
    then unbounded). Its largest marginal bias over the input grid: 0 when no input reaches the
    top cell; otherwise 1 − q(w) for the grid inputs w there (g = 2^d on the top cell), at least
    1 − q(c + r) (c + r is on every grid) and at most 2^−d. Verdict: fails iff some row is
    unbounded, above e^ε, or biased."""
    data = cert["data"]
    d, breaks = data["bits"], False
    n = 2 ** d
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        x = rat(row["exp_eps"])
        report.equal(f"{path}/exp_eps", x, exp_eps_of(row["eps"]), row["exp_eps"])
        alpha = alpha_of(x)
        ratio = pldp_sup(alpha, d, "reference-code")
        claimed = row["ratio"] if row["ratio"] == UNBOUNDED else rat(row["ratio"])
        report.equal(f"{path}/ratio", claimed, ratio, row["ratio"])
        bias = rat(row["largest_marginal_bias"])
        _, hi = threshold_range(alpha, n)
        if math.floor(hi) < n - 1:
            report.equal(f"{path}/largest_marginal_bias", bias, F(0), row["largest_marginal_bias"])
        else:
            least = 1 - ldpq_q(alpha, CENTER, RADIUS, CENTER + RADIUS)
            report.expect(least <= bias <= F(1, n), f"{path}/largest_marginal_bias",
                          f"{row['largest_marginal_bias']} is outside [1 − q(c + r), 2^−d] = [{least}, 1/{n}]")
        # Exactly, over the certificate's input grid: Q1's bias with both inputs at w, the largest
        # in absolute value (the first of equal ones, as check_r1.cpp scans).
        worst = F(0)
        for w in grid_inputs(cert["grid"], R1_CENTER, RADIUS):
            b = marginals(checked_joint_law(alpha, R1_CENTER, RADIUS, w, w, d, "reference-code"))[0] - \
                ldpq_q(alpha, R1_CENTER, RADIUS, w)
            if abs(b) > abs(worst):
                worst = b
        report.equal(f"{path}/largest_marginal_bias", bias, worst, row["largest_marginal_bias"])
        breaks = breaks or ratio == UNBOUNDED or ratio > x or bias != 0
    check_verdict(report, cert, "fails" if breaks else "holds")


def recheck_l1(cert, report):
    """L1 (leakage, not claimed by the paper; check_l1.cpp). Per row, recomputed exactly: the
    pair eavesdropper's and the Z holder's supremum likelihood ratio (pair_eavesdropper,
    z_holder). An unbounded pair row must carry its witness: the laws at (w_high, partner) and
    (w_low, partner), its output impossible at the second and possible at the first. Verdict:
    fails iff some row is unbounded for either observer."""
    data = cert["data"]
    report.equal("data/claimed_by_paper", data["claimed_by_paper"], False)
    any_unbounded = False
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        alpha, d = alpha_of(rat(row["exp_eps"])), row["bits"]
        for key, compute in (("pair_eavesdropper", pair_eavesdropper), ("z_holder", z_holder)):
            claimed = row[key] if row[key] == UNBOUNDED else rat(row[key])
            value = compute(alpha, d)
            if value is None:
                report.not_recomputable(f"{path}/{key}", f"d = {d} is beyond this script's exhaustive search")
            else:
                report.equal(f"{path}/{key}", claimed, value, row[key])
            any_unbounded = any_unbounded or claimed == UNBOUNDED
        if row["pair_eavesdropper"] == UNBOUNDED:
            if not report.expect("recheck" in row and "output" in row, f"{path}/recheck",
                                 "missing: an unbounded ratio needs its witness"):
                continue
            first, second = row["recheck"]
            for j, item in enumerate(row["recheck"]):
                check_joint_item_is(report, item, f"{path}/recheck/{j}", alpha, d, None, None, "corrected")
            report.expect(first["w2"] == second["w2"], f"{path}/recheck/1/w2", "the partner's input differs")
            output = row["output"]
            report.expect(rat(first["joint"][output]) > 0 and rat(second["joint"][output]) == 0, f"{path}/output",
                          f"P({output}) is not > 0 at w_high and 0 at w_low")
    check_verdict(report, cert, "fails" if any_unbounded else "holds")


# ---------------------------------------------------------------------------------------------
# E1–E5: the experiments, under the sequential rule fixed before the runs (experiments.hpp):
# Welch's t on the first 3, 6, 10 of these seeds, one-sided both ways at RULE_ALPHA / 3 per look.

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
        df = (va + vb) ** 2 / ((0 if a_constant else va * va / (len(a) - 1)) + (0 if b_constant else vb * vb / (len(b) - 1)))
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
                value = 100 * float(row["test_accuracy_at_best_round"])
                seed = int(row["seed"])
            except (TypeError, ValueError):
                raise Malformed(where, "a seed and an accuracy that are numbers") from None
            if not math.isfinite(value):
                raise Malformed(where, "a finite accuracy")
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
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
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


# ---------------------------------------------------------------------------------------------
# The grids: rows a check writes over a product of grids, and the e^ε grid shared by claims

def distinct(values):
    return list(dict.fromkeys(values))


def check_product(report, path, rows, axes):
    """rows are exactly the product of their distinct values along `axes`, the first axis
    outermost (the checks' nested loops), so that no row is missing, repeated or moved."""
    levels = [distinct(tuple(row[a] for a in axis) if isinstance(axis, tuple) else row[axis] for row in rows)
              for axis in axes]
    expected = [()]
    for level in levels:
        expected = [e + (v,) for e in expected for v in level]
    got = [tuple(tuple(row[a] for a in axis) if isinstance(axis, tuple) else row[axis] for axis in axes)
           for row in rows]
    report.expect(got == expected, path, f"the rows are not the full product of {', '.join(map(str, axes))} "
                                         f"({len(got)} rows, {len(expected)} in the product)")
    return levels


# check_c1.cpp's fixed models (the authors' MNIST model, ResNet-18) and shared bits.
C1_MODELS, C1_BITS = (421642, 11173962), (1, 5, 16)
# L1 looks at d <= 5 only (check_l1.cpp).
L1_MAX_BITS = 5


def recheck_grids(certs, reports):
    """Within a certificate: T1b's and L1's rows are e^ε × d and C1's m × d × n, each nested as
    its check loops (a deleted row shows). Across the audit: P1, T1b, T2b, T2c, R1 and L1 cover the
    same e^ε grid, L1 the d of T1b up to 5, C1 the same clients as T3's model sizes."""
    grids = {}
    if "T1b" in certs:
        rows = certs["T1b"]["data"]["rows"]
        exp_eps, bits = check_product(reports["T1b"], "data/rows", rows, ("exp_eps", "bits"))
        grids["T1b"], t1b_bits = exp_eps, bits
    if "L1" in certs:
        exp_eps, bits = check_product(reports["L1"], "data/rows", certs["L1"]["data"]["rows"], ("exp_eps", "bits"))
        grids["L1"] = exp_eps
        if "T1b" in certs:
            reports["L1"].equal("data/rows", bits, [d for d in t1b_bits if d <= L1_MAX_BITS], f"d grid {bits}")
    if "C1" in certs:
        rows = certs["C1"]["data"]["rows"]
        models, bits, clients = check_product(reports["C1"], "data/rows", rows, ("m", "d", "n"))
        reports["C1"].equal("data/rows", (tuple(models), tuple(bits)), (C1_MODELS, C1_BITS),
                            f"models {models} and d {bits}")
        if "T3" in certs:
            sizes = certs["T3"]["data"]["paper_model_sizes"]
            reports["C1"].equal("data/rows", clients, distinct(row["n"] for row in sizes),
                                f"clients {clients} (T3's model sizes use the grid's clients)")
    for claim, key in (("P1", "levels"), ("T2b", "rows"), ("T2c", "rows"), ("R1", "rows")):
        if claim in certs:
            grids[claim] = [row["exp_eps"] for row in certs[claim]["data"][key]]
    reference = next(iter(grids.items()), None)
    for claim, exp_eps in grids.items():
        reports[claim].expect([F(x) for x in exp_eps] == [F(x) for x in reference[1]], "data",
                              f"e^ε grid {short(exp_eps)} differs from {reference[0]}.json's {short(reference[1])}")


B1_READINGS = ("pbm1", "pbm2", "rqm2", "rqm3", "signsgd")


def recheck_b1(cert, report):
    """B1: every (e^ε, range) case has one witness per baseline, RQM m = 3 at the certificate's q;
    each reading's outcome is its witnesses' (recheck_readings) and some reading carries the check's."""
    data = cert["data"]
    cases = {}
    for i, w in enumerate(data["witnesses"]):
        cases.setdefault(tuple(str(w.get(k)) for k in ("exp_eps", "center", "radius")), []).append(w["reading"])
        if w["reading"] == "rqm3":
            report.equal(f"data/witnesses/{i}/q", w.get("q"), data["rqm_q"])
    report.equal("data/cases", data["cases"], len(cases))
    for key, readings in cases.items():
        report.expect(sorted(readings) == sorted(B1_READINGS), "data/witnesses",
                      f"the case e^ε = {key[0]}, c = {key[1]}, r = {key[2]} has witnesses for {readings}")
    recheck_witnessed(cert, report)


CLAIM_RECHECKS = {"P1": recheck_p1, "A2": recheck_a2, "T1a": recheck_t1a, "T1b": recheck_t1b, "T1c": recheck_t1c,
                  "T2a": recheck_t2a, "T2b": recheck_t2b, "T2c": recheck_t2c, "T3": recheck_t3, "T4": recheck_t4,
                  "D0": recheck_d0, "C1": recheck_c1, "R1": recheck_r1, "L1": recheck_l1,
                  "T1u": recheck_t1u, "T3m": recheck_witnessed,
                  "D1": recheck_d1, "X1": recheck_witnessed,
                  "G1": recheck_witnessed, "B1": recheck_b1, "T4u": recheck_t4u, "T4m": recheck_t4m, "S1": recheck_s1,
                  "X8": recheck_x8}


# ---------------------------------------------------------------------------------------------
# Self-test: the closed forms against brute force over a small domain

def self_test():
    """Closed-form joint law = enumeration (every reading, d <= 4, inputs at steps of r/4, several
    α); analytic PLDP supremum = the search over every cell end; sup_gap = the gap maximised over
    every pair of cell ends and midpoints; CorBinQ's P(++) = the d-bit optimum (T1c)."""
    failures = 0
    alphas = (F(2), F(3), F(21, 19), F(1859141, 859141), F(3735329, 3685329), F(7, 2))
    inputs = [CENTER + RADIUS * F(k, 4) for k in range(-4, 5)]
    for alpha in alphas:
        for d in range(0, 5):
            n = 2 ** d
            for variant in VARIANTS:
                for w1 in inputs:
                    for w2 in inputs:
                        if joint_law(alpha, CENTER, RADIUS, w1, w2, d, variant) != \
                                enumerate_joint(alpha, CENTER, RADIUS, w1, w2, d, variant):
                            failures += 1
                            print(f"self-test: joint law α={alpha} d={d} {variant} w=({w1}, {w2})")
                if pldp_sup(alpha, d, variant) != pldp_brute_force(alpha, d, variant):
                    failures += 1
                    print(f"self-test: PLDP α={alpha} d={d} {variant}: {pldp_sup(alpha, d, variant)} "
                          f"!= {pldp_brute_force(alpha, d, variant)}")
            lo, hi = threshold_range(alpha, n)
            points = sorted({lo, hi} | {F(k) for k in range(math.ceil(lo), math.floor(hi) + 1)})
            points = sorted(set(points) | {(a + b) / 2 for a, b in zip(points, points[1:])}
                            | {F(math.floor(p)) + F(1, 2) for p in points if lo <= math.floor(p) + F(1, 2) <= hi})
            best, level = F(0), RADIUS * alpha
            for u in points:
                for v in points:
                    law = joint_from_cells(floor_frac(u), floor_frac(v), n, "corrected")
                    q1, q2 = u / n, 1 - v / n
                    x, y = level * (2 * q1 - 1), level * (2 * q2 - 1)
                    best = max(best, pair_mse(law, level, x, y) - pair_mse(optimal_law(q1, q2), level, x, y))
                    if law["++"] != min_pp_over_d_bit_pairs(q1, q2, n):
                        failures += 1
                        print(f"self-test: T1c optimum α={alpha} d={d} u={u} v={v}")
            if best != sup_gap(alpha, d):
                failures += 1
                print(f"self-test: sup_gap α={alpha} d={d}: {sup_gap(alpha, d)} != search {best}")
    print(f"self-test: {failures} failures")
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------
# Driver

def _size_text(count):
    return f"{count} bytes" if count < 1 << 20 else f"{count} bytes ({count / (1 << 20):.1f} MiB)"


def read_untrusted(path):
    """A file from DIR as text: at most kMaxInputBytes (checked on the open file before reading,
    and again on what is read, so that a file growing or without a size cannot pass), UTF-8.
    Raises Malformed (too large) or OSError / UnicodeDecodeError (unreadable)."""
    limit = f"the limit of {kMaxInputBytes >> 20} MiB ({kMaxInputBytes} bytes)"
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > kMaxInputBytes:
            raise Malformed("", f"larger than {limit}: {_size_text(size)}")
        data = f.read(kMaxInputBytes + 1)
    if len(data) > kMaxInputBytes:
        raise Malformed("", f"larger than {limit}: more than {kMaxInputBytes} bytes read")
    return data.decode("utf-8")


# A JSON string, or an unterminated one up to the end of the text: every `"` outside a string
# starts a match, and the match cannot fail, so the scan is linear (no retry from later quotes).
_JSON_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.S)
_NOT_BRACKET_RE = re.compile(r"[^\[\]{}]+")
_BRACKET_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1, +1, -1, -1 as signed bytes


def json_depth(text):
    """The deepest nesting of arrays and objects in JSON text (0 for a scalar), in linear time and
    without recursion: strings are cut out (their brackets and escapes are not structure), then
    the running sum of +1 per [ or { and −1 per ] or } is taken in C (itertools.accumulate). For
    text that is not JSON this is an upper bound on any reading of it."""
    brackets = _NOT_BRACKET_RE.sub("", _JSON_STRING_RE.sub("", text))
    if not brackets:
        return 0
    steps = memoryview(brackets.encode("ascii").translate(_BRACKET_STEPS)).cast("b")
    return max(0, max(itertools.accumulate(steps)))


def _key_text(key):
    """A key as a component of a JSON path printed on one line."""
    return key if key.isprintable() and "/" not in key and key.strip() == key and key else json.dumps(key)


def _first_duplicate(node, duplicates, path):
    """(path of the first repeated key in document order, the key) among the objects in
    `duplicates` (id -> (object, repeated keys)). The depth is at most kMaxJsonDepth here."""
    if isinstance(node, dict):
        if id(node) in duplicates:
            key = duplicates[id(node)][1][0]
            return f"{path}/{_key_text(key)}".lstrip("/"), key
        items = ((_key_text(k), v) for k, v in node.items())
    elif isinstance(node, list):
        items = ((str(i), v) for i, v in enumerate(node))
    else:
        return None
    for key, value in items:
        found = _first_duplicate(value, duplicates, f"{path}/{key}")
        if found is not None:
            return found
    return None


def parse_untrusted_json(text):
    """JSON text from DIR, parsed only if nested at most kMaxJsonDepth deep, with NaN/Infinity and
    repeated keys in an object refused. Raises Malformed (path of a repeated key, or "" for the
    file) or ValueError (not JSON)."""
    depth = json_depth(text)
    if depth > kMaxJsonDepth:
        raise Malformed("", f"JSON nested deeper than the limit of {kMaxJsonDepth} levels: {depth} levels")
    duplicates = {}

    def pairs_hook(pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen, repeated = set(), []
            for key, _ in pairs:
                if key in seen and key not in repeated:
                    repeated.append(key)
                seen.add(key)
            duplicates[id(obj)] = (obj, repeated)  # held here, so that no later object reuses its id
        return obj

    def reject_constant(token):
        raise ValueError(f"{token} is not a JSON number")
    value = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=reject_constant)
    if duplicates:
        # An object with a repeated key may sit in a value its parent dropped (that parent repeats
        # a key too, so some object in the tree does): the first in the tree is named.
        path, key = _first_duplicate(value, duplicates, "") or ("", next(iter(duplicates.values()))[1][0])
        more = sum(len(keys) for _, keys in duplicates.values()) - 1
        raise Malformed(path, f"the key {json.dumps(key)} appears more than once in its object (a JSON reader may "
                              f"take either value)" + (f"; {more} more repeated key{'s' * (more > 1)} in the file"
                                                       if more else ""))
    return value


def load_certificate(path, claim):
    """The parsed certificate, or Malformed (unreadable, too large, too deep, not JSON, a repeated
    key, not this claim's schema)."""
    try:
        cert = parse_untrusted_json(read_untrusted(path))
    except (OSError, UnicodeDecodeError) as e:
        raise Malformed("", f"unreadable ({e.strerror if isinstance(e, OSError) and e.strerror else e})") from None
    except (ValueError, RecursionError) as e:
        raise Malformed("", f"not JSON ({e})") from None
    certificate_schema(claim)(cert, "")
    return cert


def parse_arguments(argv):
    """(out_dir, claims, verbose, self_test); raises ValueError with a usage message."""
    verbose, self_test_only, only, positional = False, False, None, []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--verbose":
            verbose = True
        elif arg == "--self-test":
            self_test_only = True
        elif arg == "--only" and args:
            only = [c for c in args.pop(0).split(",") if c]
        elif arg.startswith("--only="):
            only = [c for c in arg[len("--only="):].split(",") if c]
        elif arg.startswith("-"):
            raise ValueError(f"unknown option {arg}")
        else:
            positional.append(arg)
    if len(positional) > 1:
        raise ValueError("one audit directory, please")
    for claim in only or ():
        if claim not in CLAIM_IDS:
            raise ValueError(f"--only: {claim} is not a claim id ({' '.join(CLAIM_IDS)})")
    return (positional[0] if positional else "reports"), (only or list(CLAIM_IDS)), verbose, self_test_only


def main(argv):
    try:
        out_dir, claims, verbose, self_test_only = parse_arguments(argv)
    except ValueError as e:
        print(f"usage: recheck_certificates.py [--verbose] [--only ID,...] [--self-test] DIR ({e})")
        return 2
    if self_test_only:
        return self_test()
    cert_dir = os.path.join(out_dir, "certificates")
    malformed, reports, grid_names = [], [], {}
    try:
        present = {name for name in os.listdir(cert_dir) if name.endswith(".json")}
    except OSError as e:
        print(f"MALFORMED {cert_dir}: unreadable directory ({e.strerror or e})")
        return 2
    for name in sorted(present):
        if name[:-len(".json")] not in CLAIM_IDS:
            malformed.append(f"MALFORMED {os.path.join(cert_dir, name)}: not a claim id ({' '.join(CLAIM_IDS)})")
    csv_cache, certs, by_claim = {}, {}, {}
    for claim in claims:
        path = os.path.join(cert_dir, claim + ".json")
        if claim + ".json" not in present:
            malformed.append(f"MALFORMED {path}: missing (every claim has a certificate)")
            continue
        try:
            cert = load_certificate(path, claim)
        except Malformed as e:
            malformed.append(f"MALFORMED {path}{' ' + e.path if e.path else ''}: {e.what}")
            continue
        report = CertReport(claim + ".json")
        grid_names.setdefault(cert["grid"], claim)
        try:
            recheck_items(report, cert["data"], "data")
            recheck_twins(report, cert["data"], "data")
            recheck_readings(report, cert, recheck_witnesses(report, cert))
            if claim in CLAIM_RECHECKS:
                CLAIM_RECHECKS[claim](cert, report)
            else:
                recheck_experiment(cert, report, out_dir, csv_cache)
        except Malformed as e:  # an item outside the schema's places, or the results CSV
            malformed.append(f"MALFORMED {e.file or path}{' ' + e.path if e.path else ''}: {e.what}")
            continue
        except (ArithmeticError, ValueError) as e:
            # A backstop: the schema range-checks every parameter before a formula takes it, so a
            # domain error here is a value it does not cover; it is still the input's, not a crash.
            malformed.append(f"MALFORMED {path}: a value outside the domain of a formula it feeds "
                             f"({type(e).__name__}: {short(str(e), 120)})")
            continue
        reports.append(report)
        certs[claim], by_claim[claim] = cert, report
    recheck_grids(certs, by_claim)
    if len(grid_names) > 1:
        report = CertReport("(audit)")
        report.expect(False, "grid", "certificates from different grids: " +
                      ", ".join(f"{claim}: {grid}" for grid, claim in grid_names.items()))
        reports.append(report)
    mismatches = [line for r in reports for line in r.mismatches]
    malformed = list(dict.fromkeys(malformed))  # the results CSV is named once, not per claim
    for line in malformed + mismatches:
        print(line)
    for r in reports:
        if verbose:
            print(f"{r.name}: {r.items} items rechecked")
        for line in r.unrecomputable:  # never hidden: what this script takes on trust
            print(line)
    items = sum(r.items for r in reports)
    trusted = sum(len(r.unrecomputable) for r in reports)
    print(f"recheck: {len(certs)} certificates, {items} items, {len(mismatches)} mismatches"
          + (f", {len(malformed)} malformed" if malformed else "")
          + (f", {trusted} groups of values not recomputed here (listed above)" if trusted else ""))
    return 2 if malformed else 1 if mismatches else 0


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
    except InternalError as e:
        print(f"recheck: internal error: {e}")
        status = 4
    except KeyboardInterrupt:
        print("recheck: interrupted")
        status = 4
    except BaseException as e:  # never a traceback: an unexpected failure is this script's fault
        if isinstance(e, SystemExit):
            raise
        print(f"recheck: internal error: {type(e).__name__}: {e}")
        status = 4
    sys.exit(status)
