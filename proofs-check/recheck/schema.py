"""Schema: what each check writes. A spec is a function (value, path) -> None raising Malformed.

The combinators (nat, rational, obj, list_of, ...) and the specs several claims share live here;
each claim's own data schema is its module's DATA, assembled by claims.py. Every parameter a
formula takes (α > 1, e^ε > 1, r > 0, δ in (0, 1), γ in (0, 1] with nγ >= 2, m >= 1,
probabilities in [0, 1], inputs in [c − r, c + r], d and client counts within this script's
limits) is range-checked against the formula's domain before it is used, and a value outside is
MALFORMED with its path."""
import math
import re
from decimal import Decimal
from fractions import Fraction as F

from .ledger import not_recording
from .limits import CENTER, JOINT_KEYS, RADIUS, VARIANTS, kExactBinomialTrials, kMaxBits, kMaxEps, kMaxExactClients
from .report import RATIONAL_RE, Malformed, short


INTEGER_RE = re.compile(r"-?[0-9]+")
DECIMAL_RE = re.compile(r"-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?")


def type_name(value):
    if isinstance(value, dict):  # a Field too (ledger.py)
        return "an object"
    return {list: "a list", str: "a string", bool: "a boolean", int: "an integer", float: "a number",
            type(None): "null"}.get(type(value), type(value).__name__)


def typed(test, expected):
    """A spec for values of one JSON type (`test` may also check their format): else Malformed,
    saying what was `expected` and what came."""
    def spec(value, path):
        if not test(value):
            raise Malformed(path, f"{expected}, not {type_name(value)} {short(value)}")
    return spec


def within(base, test, rule, convert=lambda value: value):
    """A value `base` accepts, inside the domain `rule` states (`test` of the converted value): a
    value no check can write is malformed input."""
    def spec(value, path):
        base(value, path)
        if not test(convert(value)):
            raise Malformed(path, f"{short(value)} is outside its domain ({rule})")
    return spec


nat = typed(lambda v: type(v) is int and v >= 0, "a non-negative integer")
integer = typed(lambda v: type(v) is int, "an integer")
boolean = typed(lambda v: type(v) is bool, "true or false")
text = typed(lambda v: type(v) is str, "a string")
number = typed(lambda v: type(v) in (int, float) and math.isfinite(v), "a finite number")
int_string = typed(lambda v: type(v) is str and INTEGER_RE.fullmatch(v) is not None, "an integer in decimal")
_rational_text = typed(lambda v: type(v) is str and RATIONAL_RE.fullmatch(v) is not None, "an exact rational \"p/q\"")


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
    return within(nat, lambda value: low <= value <= high, f"{bounds}: {why}")


def integer_where(test, rule):
    return within(integer, test, rule)


def rational(value, path):
    """An exact value as the checks write it: "p" or "p/q" with q > 0."""
    _rational_text(value, path)
    if "/" in value and int(value.split("/")[1]) == 0:
        raise Malformed(path, f"an exact rational, not {short(value)} (zero denominator)")


def rational_where(test, rule):
    """An exact rational inside its domain."""
    return within(rational, test, rule, F)


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
            raise Malformed(path, f"a list, not {type_name(value)} {short(value)}")
        if nonempty and not value:
            raise Malformed(path, "a non-empty list (its check always writes rows here)")
        if lengths is not None and len(value) not in lengths:
            raise Malformed(path, f"a list of {' or '.join(map(str, lengths))} entries, not {len(value)}")
        for i, v in enumerate(value):
            item(v, f"{path}/{i}")
    return spec


def obj(required, optional=None, rule=None):
    """An object with these fields (extra fields are allowed) and an optional cross-field rule. A
    field declared with its decimal twin (put, put_interval) has it wherever the field is there:
    an optional field too."""
    optional = optional or {}
    declared = {**required, **optional}
    twinned = [key for key in declared if key + "_approx" in declared]

    def spec(value, path):
        if not isinstance(value, dict):
            raise Malformed(path, f"an object, not {type_name(value)} {short(value)}")
        with not_recording():  # validating a field is not checking its value (ledger.py)
            for key, item in required.items():
                if key not in value:
                    raise Malformed(f"{path}/{key}".lstrip("/"), "missing")
                item(value[key], f"{path}/{key}".lstrip("/"))
            for key, item in optional.items():
                if key in value:
                    item(value[key], f"{path}/{key}".lstrip("/"))
            for key in twinned:
                if (key in value) != (key + "_approx" in value):
                    present, absent = (key, key + "_approx") if key in value else (key + "_approx", key)
                    role = "decimal twin" if absent != key else "exact value"
                    raise Malformed(f"{path}/{absent}".lstrip("/"), f"missing (written with {present}, its {role})")
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
        raise Malformed(path, f"a decimal ε, not {type_name(value)} {short(value)}")
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


def at_most_field(key, bound_key, offset=0, why=""):
    """value[key] <= value[bound_key] − offset: a count within the population that bounds it."""
    def rule(value, path):
        if value[key] > value[bound_key] - offset:
            raise Malformed(sub(path, key), f"{short(value[key])} is outside its domain (at most {bound_key}"
                                            f"{f' − {offset}' if offset else ''} = {value[bound_key] - offset}{why})")
    return rule


WITNESS_KINDS = ("free_levels_pair", "aggregate_mean", "printed_q2", "reference_top_cell", "given_z", "gaussian_ratio",
                 "aug_mse_rule", "t3_replace_one", "t3_remove_one", "baseline_law")
WITNESS = obj({"kind": one_of(*WITNESS_KINDS), "reading": text, "refutes": boolean})
