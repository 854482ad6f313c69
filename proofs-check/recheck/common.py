"""What any certificate may hold, rechecked wherever it sits: exact joint laws, binomial tails and
decimal twins; and the outcome rules the checks share (claims.hpp)."""
from decimal import Decimal, localcontext

from .algorithm2 import alpha_of, checked_joint_law
from .exact import approx_agrees, binomial_outside, enclosure, inside, rat
from .limits import CENTER, JOINT_KEYS, RADIUS, kWorkDigits
from .report import RATIONAL_RE, Malformed, short
from .schema import BINOMIAL_ITEM, JOINT_ITEM, interval, type_name


def recheck_items(report, node, path):
    """Every {"kind": "corbinq_joint"} and {"kind": "binomial_outside"} anywhere in the data."""
    if isinstance(node, dict):
        kind = dict.get(node, "kind")  # looked at, not yet read: most objects are not items (ledger.py)
        if kind in ("corbinq_joint", "binomial_outside"):  # wherever it sits, an item is well-formed
            kind = node["kind"]  # read: it chooses the recomputation
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
    """Every `K_approx` beside an exact `K` (a rational, or an enclosure) is that value as a double.
    A twin is a JSON number beside its exact value: one of another type (null, a string, a list) or
    without its value is malformed (the schema requires each twin its check writes)."""
    if isinstance(node, dict):
        for key, value in node.items():
            base = key[:-len("_approx")] if key.endswith("_approx") else None
            if base is not None and base not in node:
                raise Malformed(f"{path}/{base}", f"missing (the exact value of the decimal twin {key})")
            if base is not None and type(value) not in (int, float):
                raise Malformed(f"{path}/{key}", f"a number (the double of {base}), not {type_name(value)} "
                                                 f"{short(value)}")
            if base is not None:
                exact = dict.__getitem__(node, base)  # compared with its twin, not recomputed (ledger.py)
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


def count_and_witness(report, data, count, present, missing):
    """A count the closed form proves to be 0, and the witness the check writes exactly when it is
    not (`present`, `missing`: what is wrong when one is without the other). Returns the witness."""
    report.equal(f"data/{count}", data[count], 0)
    witness = data.get("witness")
    report.expect((witness is None) == (data[count] == 0), "data/witness",
                  present if witness is not None else missing)
    return witness


def bound_verdict(values_and_bounds):
    """claims.hpp BoundTally: fails if some value exceeds its bound, holds if none does and some
    equals it, holds with slack otherwise."""
    pairs = list(values_and_bounds)
    if any(v > b for v, b in pairs):
        return "fails"
    return "holds" if any(v == b for v, b in pairs) else "holds with slack"
