"""T3 at the paper's model sizes (t3_scale.cpp's paper_scale rows, check_t3.cpp's
paper_model_sizes): Eq. (th:3:1)'s ε_u against the certificate's certified two-sided bounds on the
privacy loss of m·T compositions, and those bounds held against this script's own (pld.py): the
certificate's ε_upper must be at least this script's lower bound, attained by a configuration it
names, and its ε_lower at most this script's upper bound over every configuration. Both sides are
certified bounds (this script's own floating-point error is inside its bounds, pld.py), so they
are compared as they are: no tolerance, which could only hide a contradiction."""
import math
import re
from fractions import Fraction as F

from . import pld
from .algorithm2 import alpha_of
from .exact import enclosure, inside, rat
from .limits import kCertDigits, kMaxBits
from .report import Malformed, short
from .schema import sub
from .ucdp import population_ldpq, theorem3_printed

# The rows' client roles, as the accountant names them (privacy/worst_case/neighbours.hpp TargetClient).
ROLES = {"ldpq": "ldpq", "paired (leader)": "leader"}
# What the rows do not state, from the accountant's settings in t3_scale.cpp and check_t3.cpp
# (AccountSetting's defaults there): d = 5 shared bits where a row does not name its d (the
# model-size rows, and paper-scale rows written before t3_scale.cpp wrote `bits`); the corrected
# CorBinQ; replace-one neighbours (under Eq. (UCDP)'s remove-one the supports are disjoint, the
# counterexample's reading); inputs around c = 0 with r as the row states (where c and r sit does
# not matter: the count of "+" outputs is the released value).
T3_ACCOUNT_BITS = 5
# The largest number of compositions the accountant accepts (accountant.hpp kMaxCompositions).
kMaxCompositions = 1 << 40


def model_row_rule(value, path):
    """A model-size row's m·1 compositions: at most kMaxCompositions; its d, where it names one."""
    _compositions(value, path, 1)


def scale_row_rule(value, path):
    """A paper_scale row's accountant setting (its Thm 3 domain is thm3_domain_rule's): T >= 1,
    m·T at most kMaxCompositions, and the role present in the population (γn LDPQ clients for
    "ldpq", a pair for the leader)."""
    if value["rounds"] < 1:
        raise Malformed(sub(path, "rounds"), f"{short(value['rounds'])} is outside its domain (T >= 1 rounds)")
    _compositions(value, path, value["rounds"])
    ldpq = population_ldpq(value["n"], rat(value["gamma"]))
    if not (ldpq >= 1 if ROLES[value["role"]] == "ldpq" else value["n"] - ldpq >= 2):
        raise Malformed(sub(path, "role"), f"{value['role']} is outside its domain (no client has that role at "
                                           f"n = {value['n']}, γ = {value['gamma']})")


def _compositions(value, path, rounds):
    if value["m"] * rounds > kMaxCompositions:
        raise Malformed(sub(path, "m"), f"m·T = {short(value['m'] * rounds)} is outside its domain (at most "
                                        f"{kMaxCompositions} compositions, accountant.hpp kMaxCompositions)")


def recheck_t3_paper_scale(rows, report):
    """T3 at the paper's model sizes (t3_scale.cpp): the printed ε_u and precondition recomputed
    from (m, n, γ, δ, e^ε, r); the row flagged smallest meets the precondition and n − 1 does not;
    ε_lower <= ε_upper; each one-round row's word follows from the printed value against the
    bounds (the bounds themselves: recheck_accounts)."""
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
        lower, upper = (bound_of(row, k) for k in ("eps_lower", "eps_upper"))
        report.expect(lower <= upper, f"{path}/eps_lower", "above eps_upper")
        # t3_scale.cpp writes (upper − lower)/lower, in doubles, where both are finite and lower > 0.
        width = (upper - lower) / lower if math.isfinite(upper) and lower > 0 else None
        if report.expect((width is None) == ("relative_width" not in row), f"{path}/relative_width",
                         "present, but a bound is infinite or the lower one 0" if width is None else
                         "missing, though both bounds are finite") and width is not None:
            report.expect(math.isclose(row["relative_width"], width, rel_tol=1e-12), f"{path}/relative_width",
                          f"{row['relative_width']!r} != recomputed {width!r} = (eps_upper − eps_lower)/eps_lower")
        if row["rounds"] == 1:
            lo, hi = enclosure(row["printed_eps_u"])
            word = "fails" if hi < lower else "holds at this instance" if lo > upper else "undecided"
            report.equal(f"{path}/formula_at_instance", row["formula_at_instance"], word)
        else:
            report.equal(f"{path}/formula_at_instance", row["formula_at_instance"],
                         "not claimed (the theorem covers one round)")


def bound_of(row, key):
    """A certified bound as written: a double, or "infinite"."""
    return math.inf if row[key] == "infinite" else row[key]


def _accounted_rows(data, model_gamma):
    """(path, row, setting, k) for every row with certified bounds: the model sizes at γ = 1/2 on
    LDPQ (check_t3.cpp), with the counterexample's α and δ, one round; the paper-scale rows at
    their own γ, e^ε, δ, role and m·T."""
    cx = data["counterexample"]
    out = []
    for i, row in enumerate(data["paper_model_sizes"]):
        setting = (row["n"], model_gamma, rat(cx["alpha"]), row.get("bits", T3_ACCOUNT_BITS), "ldpq", rat(cx["delta"]))
        out.append((f"data/paper_model_sizes/{i}", row, setting, row["m"]))
    for i, row in enumerate(data.get("paper_scale", [])):
        setting = (row["n"], rat(row["gamma"]), alpha_of(rat(row["exp_eps"])), row.get("bits", T3_ACCOUNT_BITS),
                   ROLES[row["role"]], rat(row["delta"]))
        out.append((f"data/paper_scale/{i}", row, setting, row["m"] * row["rounds"]))
    return out


# The accountant's words for an input (neighbours.cpp describe): an end of the range, or a point
# c + r·α·(2·a/2^d − 1) of the threshold grid, whose LDPQ probability is q = a/2^d.
_GRID_POINT = re.compile(r"c \+ r·α·\(2·([0-9]{1,200000})/2\^([0-9]{1,7}) - 1\)")  # a < 2^d, d <= kMaxBits
_OTHERS = re.compile(r"([0-9]{1,12}) of the other ([0-9]{1,12}) LDPQ clients at c \+ r, the rest at c - r")
_PAIRS = re.compile(r"([0-9]{1,12}) other pairs at \(c, c\)( \(d = 0: counted among the LDPQ clients\))?")


def _q_of(words, family):
    """An input in the accountant's words as its LDPQ probability q, or None (a limit point)."""
    if words == "c - r":
        return family.q_low_exact
    if words == "c + r":
        return 1 - family.q_low_exact
    match = _GRID_POINT.fullmatch(words)
    if not match or int(match[2]) > kMaxBits:
        return None
    return F(int(match[1]), 2 ** int(match[2]))


class Misnamed(Exception):
    """A named part whose counts are not the row's (already reported as a MISMATCH)."""


def named_member(part, family, path, report):
    """The member of this script's family that a part of a certificate's eps_lower_attained_by
    names: its counts checked against the row's (a MISMATCH, and Misnamed, where they differ), its
    inputs found among client 1's candidates; None where it names a configuration outside them."""
    others, pairs = _OTHERS.fullmatch(part["other_ldpq"]), _PAIRS.fullmatch(part["other_pairs"])
    counts_ok = others is not None and int(others[2]) == family.others and int(others[1]) <= family.others
    report.expect(counts_ok, f"{path}/other_ldpq",
                  f"{short(part['other_ldpq'])} is not j of this row's {family.others} other LDPQ clients")
    pairs_ok = pairs is not None and int(pairs[1]) == family.other_pairs
    report.expect(pairs_ok, f"{path}/other_pairs",
                  f"{short(part['other_pairs'])} is not this row's {family.other_pairs} other pairs")
    if not (counts_ok and pairs_ok):
        raise Misnamed()
    leading = part["client_1"].startswith("client 1 leading a pair at ")
    on_ldpq = part["client_1"].startswith("client 1 on LDPQ at ")
    if not (leading or on_ldpq) or not part["neighbour"].startswith("client 1 at "):
        return None  # following in a pair, or removed: not among this script's candidates
    x = _q_of(part["client_1"].split(" at ", 1)[1], family)
    x2 = _q_of(part["neighbour"][len("client 1 at "):], family)
    inputs = (x, x2) if on_ldpq else (x, x2, _q_of(part.get("partner", "")[len("its partner at "):], family))
    if part.get("order"):  # the two datasets the other way round: client 1 at the neighbour's input first
        inputs = (inputs[1], inputs[0]) + inputs[2:]
    candidate = family.candidate_at(inputs)
    return None if candidate is None else (int(others[1]), candidate)


def recheck_accounts(data, report, model_gamma):
    """Every certified ε(δ) at the model sizes against this script's own bracket [L, U] (pld.py):
    MISMATCH where ε_upper < L (the certificate understates the loss of a configuration it must
    cover) or ε_lower > U (it claims more loss than any configuration has). The rows that share a
    setting share its accountant. Under --verbose, each row's bracket and what attains L."""
    rows = _accounted_rows(data, model_gamma)
    compositions = {}
    for path, _, setting, k in rows:
        compositions.setdefault(setting, set()).add(k)
    accounts = {}
    for path, row, setting, k in rows:
        if setting not in accounts:
            try:
                accounts[setting] = pld.Account(*setting, compositions[setting])
            except pld.NotAccounted as e:
                accounts[setting] = e
        account = accounts[setting]
        if isinstance(account, pld.NotAccounted):  # a row beyond this script's limits: listed, and the run fails
            report.not_recomputable(f"{path}/eps_lower, {path}/eps_upper", str(account))
            continue
        lower, attained = account.lower_epsilon(k)
        upper, how = account.upper_bound(k)
        claimed_lower, claimed_upper = bound_of(row, "eps_lower"), bound_of(row, "eps_upper")
        report.expect(claimed_upper >= lower, f"{path}/eps_upper",
                      f"{row['eps_upper']} is below this script's own lower bound {lower:.17g} on ε(δ), attained by "
                      f"{attained}, the same in each of the k = {k} compositions: the certificate understates the "
                      f"privacy loss")
        report.expect(claimed_lower <= upper, f"{path}/eps_lower",
                      f"{row['eps_lower']} is above this script's own upper bound {upper:.17g} on ε(δ) over every "
                      f"configuration in each of the k = {k} compositions ({how})")
        # The configuration the certificate names as attaining its ε_lower: its ε(δ) is at least
        # that, so it is at most this script's upper bound for that configuration alone.
        parts = row.get("eps_lower_attained_by", [])
        try:
            uses = [(named_member(part, account.family, f"{path}/eps_lower_attained_by/{j}", report),
                     int(part["uses"])) for j, part in enumerate(parts)]
        except Misnamed:
            uses = []
        if uses:
            report.equal(f"{path}/eps_lower_attained_by", sum(u for _, u in uses), k,
                         f"uses adding up to {sum(u for _, u in uses)}")
        if any(member is None for member, _ in uses):
            report.not_recomputable(f"{path}/eps_lower_attained_by", "a configuration outside this script's "
                                                                      "candidates for client 1")
        elif uses and sum(u for _, u in uses) == k:
            named = account.members_upper_epsilon(uses)
            words = "; then ".join(f"{account.family.describe(*m)}, {u} uses" for m, u in uses)
            report.expect(claimed_lower <= named, f"{path}/eps_lower",
                          f"{row['eps_lower']} is above this script's upper bound {named:.17g} on ε(δ) of the "
                          f"configuration named as attaining it ({words})")
        report.note(f"{path}: ε(δ) of k = {k} compositions in [{lower:.10g}, {upper:.10g}] by this script, "
                    f"[{claimed_lower:.10g}, {claimed_upper:.10g}] by the certificate; lower bound attained by "
                    f"{attained}, the same in every composition; upper bound over every configuration, {how}")
