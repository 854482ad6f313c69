#!/usr/bin/env bash
# The certificate rechecker must reject every kind of tampering, with the right exit status:
#   flipped verdict            -> 1 (MISMATCH)     changed recomputed value -> 1 (MISMATCH)
#   deleted required field     -> 2 (MALFORMED)    emptied row list          -> 1 or 2
#   invalid JSON               -> 2 (MALFORMED)
#   a repeated key, at the top and in a nested object, the first value tampered
#                              -> 2 (MALFORMED naming the key's path)
#   a nested 1,000,000-deep array (a depth bomb) -> 2 (MALFORMED naming the limit and the depth)
#   a witness or setting parameter outside its formula's domain (γ, m, r, δ, z, an input beyond
#   [c − r, c + r], ...)       -> 2 (MALFORMED naming the parameter's path)
#   a decimal twin (`K_approx`) null, a string, a list or deleted
#                              -> 2 (MALFORMED naming the twin's path)
#   a reading's note deleted where the claim's verdict names it ("holds only under NOTE", "erratum
#   (NOTE)")               -> 2 (MALFORMED naming readings/i/note, never a KeyError)
#   the provenance edited (corbin's version, a Coq source's SHA-256), coq_checked flipped alone or
#   with the provenance's  -> 1 (MISMATCH naming the field that disagrees)
#   prose edited (the finding, a reading's text)
#                              -> 0, and an UNCHECKED line naming the field
#   T3's certified bounds on the composed privacy loss moved past the truth, in order (ε_lower <=
#   ε_upper): an ε_upper below the true ε, an ε_lower above every configuration's, the
#   configuration named as attaining ε_lower used the other way round
#                              -> 1 (MISMATCH naming the bound and the rechecker's own bound)
# for every certificate of the audit, each case on its own copy of that one certificate
# (recheck_certificates.py --only ID), and never a traceback or an internal error (4).
# Once: a certificate nested exactly kMaxJsonDepth deep passes, one level more and a file over
# kMaxInputBytes (sparse) are MALFORMED; one certificate among all of them with coq_checked flipped
# everywhere in it is a MISMATCH against the others (the same audit run wrote them all).
# The untampered copy must pass first, and the rechecker's self-test must pass.
#
# Usage: bash tamper_test.sh PYTHON CHECKER AUDIT_DIR
set -euo pipefail
python="$1" checker="$2" audit="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" - "$python" "$checker" "$audit" "$work" <<'PY'
import concurrent.futures
import copy
import itertools
import json
import os
import shutil
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

python, checker, audit, work = sys.argv[1:5]
CLAIMS = ("P1", "A2", "T1a", "T1b", "T1c", "T1u", "T2a", "T2b", "T2c", "T3", "T3m", "T4", "T4u", "T4m", "S1", "D0",
          "D1", "C1", "R1", "X1", "L1", "G1", "X8", "B1", "E1", "E2", "E3", "E4", "E5")

# Per claim: values the rechecker recomputes (the first path present is changed; several lists
# give several cases), a nested required field to delete, and a row list to empty (None: the
# certificate has none). Paths are JSON paths; -1 is the last entry.
EXPERIMENT = {"value": [["data/parts/0/comparisons/0/a/values/0", "data/parts/0/comparisons/0/b/values/0",
                         "data/settings/clients"],
                        ["data/parts/-1/comparisons/-1/order"], ["data/parts/0/comparisons/0/looks/0/p_above"],
                        ["data/parts/-1/comparisons/-1/looks/-1/low"]],
              "delete": "data/parts/0/comparisons/0/a/values", "empty": "data/parts/0/comparisons"}
SPEC = {
    "P1": {"value": [["data/levels/0/alpha"], ["data/smallest_excess_mse_of_other_levels"], ["data/lowered_by"],
                     ["data/level_offsets/1"]],
           "delete": "data/levels/0/ratio_just_below", "empty": "data/levels"},
    "A2": {"value": [["data/ratio_at_exp_eps_3_d_5"], ["data/pldp_counterexample/ratio"], ["data/points"],
                     ["data/pldp_counterexample/at_inputs/p_low"], ["data/pldp_counterexample/at_inputs/w_low"],
                     ["data/printed_biased_points"], ["data/printed_pldp_broken_cases"]],
           "delete": "data/printed_biased_points", "empty": "data/pldp_counterexample/recheck"},
    "T1a": {"value": [["data/recheck/0/joint/++"], ["data/mismatches"], ["data/points"], ["data/enumerated_points"]],
            "delete": "data/mismatches",
            "empty": "data/recheck"},
    "T1b": {"value": [["data/rows/-1/sup_gap"], ["data/rows/-1/w1"], ["data/smallest_bound_over_sup"],
                      ["data/witness_against_d/-1/thm1_bound"], ["data/witness_against_d/3/corbinq_mse"]],
            "delete": "data/rows/0/bound", "empty": "data/rows"},
    "T1c": {"value": [["data/corbinq_not_optimal"], ["data/points"], ["data/samples/-1/w2"]], "delete": "data/points",
            "empty": None},
    "T2a": {"value": [["data/biased_cases"], ["data/cases"], ["data/printed_variant_biased_cases"]],
            "delete": "data/cases", "empty": None},
    "T2b": {"value": [["data/rows/0/sup_pair_mse"], ["data/appendix_c_steps/max_cov_when_w_plus_w2_at_most_2c"],
                      ["data/appendix_c_steps/points"]],
            "delete": "data/appendix_c_steps/points", "empty": "data/rows"},
    "T2c": {"value": [["data/rows/-1/worst_case_ratio"], ["data/rows/0/ratio_at_w1_w2_c_plus_r"]],
            "delete": "data/rows/0/ratio_at_w1_w2_c_plus_r", "empty": "data/rows"},
    "T3": {"value": [["data/counterexample/printed_eps_u"], ["data/eps_u_against_n/-1/cpsgd_consistent_units"],
                     ["data/paper_model_sizes/0/printed_eps_u"], ["data/paper_scale/0/formula_at_instance"],
                     ["data/counterexample/remove_one_disjoint_mass"],
                     ["data/paper_scale/-1/n"]],
           "delete": "data/counterexample/alpha", "empty": "data/eps_u_against_n"},
    "T4": {"value": [["data/counterexample/singles_outside"], ["data/counterexample/survivors_outside"],
                     ["data/counterexample/gamma"], ["data/counterexample/preconditions_met"],
                     ["data/conclusion_witness/p_event_neighbour"]],
           "delete": "data/counterexample/claimed_each", "empty": "data/counterexample/recheck"},
    "D0": {"value": [["data/recheck/0/joint/+-"], ["data/reference_code_differences"], ["data/points"],
                     ["data/corrected_differences"]],
           "delete": "data/corrected_differences", "empty": "data/recheck"},
    "C1": {"value": [["data/rows/-1/bits_z_exchanged"], ["data/rows/0/claimed_dmk_plus_nk"],
                     ["data/count_rule/election_bits"]],
           "delete": "data/rows/0/bits_z_from_key", "empty": "data/rows"},
    "R1": {"value": [["data/rows/0/ratio"], ["data/rows/0/largest_marginal_bias"], ["data/rows/-1/ratio"]],
           "delete": "data/bits", "empty": "data/rows"},
    "L1": {"value": [["data/rows/0/pair_eavesdropper"], ["data/rows/-1/z_holder"],
                     ["data/witnesses/0/plus_given_z_at_b"]],
           "delete": "data/rows/0/z_holder", "empty": "data/rows"},
    "T1u": {"value": [["data/witnesses/0/corbinq_mse"], ["data/levels_rows/-1/sup_gap"], ["data/witnesses/1/w1"]],
            "delete": "data/witnesses/0/competitor_levels", "empty": "data/levels_rows"},
    "T3m": {"value": [["data/witnesses/0/exact_mse"], ["data/witnesses/0/gamma"]],
            "delete": "data/witnesses/0/n", "empty": None},
    "T4u": {"value": [["data/witness/p_event"], ["data/witness/difference"], ["data/witness/printed_eps_u"],
                      ["data/witness/every_admissible_delta1/high"], ["data/witness/every_admissible_delta1/margin"],
                      ["data/witness/every_admissible_delta1/refutes"],
                      ["data/witness/event_is_count"], ["data/witness/radius"]],
            "delete": "data/witness/p_event_neighbour", "empty": None},
    "T4m": {"value": [["data/printed/printed_bound"], ["data/printed/preconditions_met"],
                      ["data/theta_positive/tangent_point"], ["data/theta_positive/mean_lone_times_survivors"],
                      ["data/theta_positive/mse_lower_bound"], ["data/theta_positive/p"]],
            "delete": "data/printed/alpha", "empty": None},
    "S1": {"value": [["data/epsilon_s_stated"], ["data/scdp_at_sensitivity_2r/0/exact_eps_replace_one"],
                     ["data/scdp_at_sensitivity_2r/0/delta"], ["data/scdp_at_sensitivity_2r/-1/others_at_c_minus_r"]],
           "delete": "data/scdp_at_sensitivity_2r/0/n", "empty": None},
    "D1": {"value": [["data/witnesses/0/plus_given_z_at_b"], ["data/witnesses/0/exp_eps"], ["data/marginal_differs_from_ldpq"],
                     ["data/points"], ["data/witnesses/1/plus_at_b"]],
           "delete": "data/witnesses/0/z", "empty": None},
    "X1": {"value": [["data/witnesses/0/plus_at_c_plus_r"], ["data/witnesses/1/exp_eps_at_least"]],
           "delete": "data/witnesses/0/bits", "empty": None},
    "G1": {"value": [["data/witnesses/0/log_density_ratio"], ["data/witnesses/0/y"]],
           "delete": "data/witnesses/0/sigma", "empty": None},
    "X8": {"value": [["data/gap_shrinks_as_eps_decreases"], ["data/points"]], "delete": "data/points", "empty": None},
    # B1: a probability of PBM m = 1's law (same as LDPQ), PBM m = 2's θ, an input compared, RQM's D.
    "B1": {"value": [["data/witnesses/0/compared/0/baseline/0/1"], ["data/witnesses/1/theta"],
                     ["data/witnesses/0/compared/-1/w"], ["data/witnesses/2/delta_ratio"]],
           "delete": "data/witnesses/0/compared", "empty": "data/witnesses"},
    **{claim: EXPERIMENT for claim in ("E1", "E2", "E3", "E4", "E5")},
}
TOP_LEVEL = ("id", "verdict", "finding", "grid", "data", "readings", "check_verdict", "coq_checked", "provenance")

# Per claim: parameters set outside the domain of the formula they feed (the rechecker's limits
# and Thm 3's, Thm 4's, Alg. 1's and 2's domains), each a case that must be MALFORMED naming the
# path. A decimal twin beside the value is kept consistent, so that only the range check can tell.
BIG = 2 ** 70
OUT_OF_RANGE = {
    "A2": [("data/witnesses/0/follower_b", "9"), ("data/witnesses/0/plus_at_a", "3/2")],
    "B1": [("data/witnesses/0/radius", "0"), ("data/witnesses/0/compared/0/w", "7"), ("data/witnesses/3/q", "1"),
           ("data/witnesses/0/m", 3), ("data/witnesses/0/compared/0/baseline/0/1", "2")],
    "D1": [("data/witnesses/0/z", 2), ("data/witnesses/0/w_b", "3"), ("data/witnesses/0/radius", "-1")],
    "G1": [("data/witnesses/0/sigma", "0"), ("data/witnesses/0/eps", "-1")],
    "R1": [("data/witnesses/0/radius", "0"), ("data/witnesses/0/exp_eps_at_least", "1")],
    "S1": [("data/scdp_at_sensitivity_2r/0/others_at_c_plus_r", 150)],
    "T1b": [("data/witnesses/0/w2", "-1"), ("data/witnesses/0/bits", 0), ("data/witness_against_d/0/bits", 0),
            ("data/witness_against_d/1/w1", "3")],
    "T1c": [("data/witnesses/0/competitor_levels", ["5", "-1"])],
    "T1u": [("data/witnesses/0/competitor_levels", ["5", "-1"]), ("data/witnesses/0/bits", 0),
            ("data/witnesses/0/w1", "3")],
    "T2a": [("data/witnesses/0/pairs/0/0", "5"), ("data/witnesses/1/radius", "-1/2")],
    "T3": [("data/witnesses/0/gamma", "3/2"), ("data/witnesses/0/gamma", "-1"), ("data/witnesses/1/gamma", "-1"),
           ("data/witnesses/0/m", 0), ("data/witnesses/0/delta", "1"), ("data/witnesses/0/client_1", "5"),
           ("data/paper_scale/0/gamma", "-1"), ("data/paper_scale/0/delta", "0"), ("data/paper_scale/0/m", 0),
           ("data/counterexample/others_at_c_plus_r", 5000), ("data/eps_u_against_n/0/others_at_c_plus_r", 5000)],
    "T3m": [("data/witnesses/0/gamma", "0"), ("data/witnesses/0/m", 0), ("data/witnesses/0/minus_ln_delta", -9),
            ("data/witnesses/0/alpha", "1"), ("data/witnesses/0/n", 1)],
    "T4": [("data/counterexample/m", 0), ("data/counterexample/alpha", "1/2"), ("data/conclusion_witness/radius", "-1"),
           ("data/conclusion_witness/gamma_used", "0")],
    "T4m": [("data/printed/m", 0), ("data/printed/gamma_used", "-1"), ("data/theta_positive/radius", "0")],
    "T4u": [("data/witness/m", 0), ("data/witness/gamma_used", "0"), ("data/witness/n", BIG)],
    "X1": [("data/witnesses/0/radius", "-1"), ("data/witnesses/0/eps", "x"), ("data/witnesses/0/eps", "1e999999999"),
           ("data/witnesses/1/plus_at_c_plus_r", "2")],
}
DEPTH_LIMIT = 64  # recheck/limits.py kMaxJsonDepth
SIZE_LIMIT = 64 << 20  # recheck/limits.py kMaxInputBytes


class Sparse(str):
    """Text written, then the file extended (sparse, with zero bytes) to `size` bytes."""
    def __new__(cls, text, size):
        self = super().__new__(cls, text)
        self.size = size
        return self


def walk(node, path):
    """(parent, key) of a JSON path, or None when absent."""
    keys = path.split("/")
    for key in keys[:-1]:
        node = step(node, key)
        if node is None:
            return None
    last = keys[-1]
    if isinstance(node, list):
        if not node or not -len(node) <= int(last) < len(node):
            return None
        return node, int(last)
    return (node, last) if isinstance(node, dict) and last in node else None


def step(node, key):
    if isinstance(node, list):
        return node[int(key)] if node and -len(node) <= int(key) < len(node) else None
    return node.get(key) if isinstance(node, dict) else None


INTEGER_FIELDS = {"bits_z_exchanged", "bits_z_from_key", "claimed_dmk_plus_nk", "first_inside", "last_inside",
                  "clients"}


def changed(key, value):
    """A different value of the same type and format, inside the field's domain (a probability
    stays in [0, 1], an input in [c − r, c + r], e^ε above 1), so that only recomputation can tell."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.01
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return [str(Decimal(v) * Decimal("1.001")) for v in value]  # an enclosure
    if value == "unbounded":
        return "3"
    if value in ("above", "below", "undecided", "pending", "missing"):
        return "below" if value == "above" else "above"
    if value in ("fails", "holds at this instance", "undecided"):  # T3's paper-scale rows
        return "holds at this instance" if value == "fails" else "fails"
    if key in INTEGER_FIELDS:
        return str(int(value) + 8)
    x = Fraction(value)
    return str(x + Fraction(1, 10 ** 9) if x < Fraction(1, 2) else x - Fraction(1, 10 ** 9))


def with_twin(parent, key, value):
    """Sets parent[key] and keeps its decimal twin, if any, the double of the new value."""
    parent[key] = value
    if isinstance(parent, dict) and key + "_approx" in parent:
        try:
            parent[key + "_approx"] = float(Fraction(value))
        except (TypeError, ValueError, ZeroDivisionError):
            pass


def repeated_key(cert, path, first_value):
    """The certificate as text with the first key of the object at `path` ("" for the top)
    written twice: first with `first_value`, then with its own value (json keeps the last, so
    only a check for repeated keys can tell). Returns (text, JSON path of the key)."""
    doc = copy.deepcopy(cert)
    parent, key = (None, None) if not path else walk(doc, path)
    target = doc if parent is None else parent[key]
    name = next(iter(target))
    body = json.dumps({name: first_value})[:-1] + ", " + json.dumps(target)[1:]
    if parent is None:
        return body, name
    parent[key] = "__REPEATED_KEY__"
    return json.dumps(doc).replace('"__REPEATED_KEY__"', body, 1), f"{path}/{name}"


def deepest_object(node, path="", depth=0):
    """(depth, path) of the most deeply nested non-empty object, the first at that depth."""
    best = (depth, path) if isinstance(node, dict) and node else (-1, None)
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in children:
        found = deepest_object(value, f"{path}/{key}".lstrip("/"), depth + 1)
        if found[0] > best[0]:
            best = found
    return best


def first_twin(node, path):
    """(parent, key, JSON path) of the first decimal twin in document order, or None."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("_approx") and key[:-len("_approx")] in node:
                return node, key, f"{path}/{key}"
            found = first_twin(value, f"{path}/{key}")
            if found:
                return found
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found = first_twin(value, f"{path}/{i}")
            if found:
                return found
    return None


def field_cases(claim, cert):
    """The fields every certificate has besides its data: decimal twins, the readings' notes, the
    provenance, coq_checked and the prose (the same tuple shape as cases())."""
    for what, value in (("null", None), ("a string", "1/2"), ("a list", [0.5]), ("deleted", None)):
        doc = copy.deepcopy(cert)
        if first_twin(doc["data"], "data") is None:  # C1, X8: no exact value with a twin
            break
        parent, key, path = first_twin(doc["data"], "data")
        if what == "deleted":
            del parent[key]
        else:
            parent[key] = value
        yield f"twin {path} {what}", json.dumps(doc), {2}, (f" {path}: ",)
    for prefix in ("holds only under ", "erratum ("):
        if cert["verdict"].startswith(prefix):
            note = cert["verdict"][len(prefix):].removesuffix(")" if prefix == "erratum (" else "")
            i = next(i for i, r in enumerate(cert["readings"]) if r.get("note") == note)
            doc = copy.deepcopy(cert)
            del doc["readings"][i]["note"]
            yield f"deleted readings/{i}/note", json.dumps(doc), {2}, (f" readings/{i}/note: ", "missing")
    doc = copy.deepcopy(cert)
    doc["provenance"]["corbin"] = "0.0.0"
    yield "provenance/corbin edited", json.dumps(doc), {1}, (" provenance/corbin: ",)
    doc = copy.deepcopy(cert)
    name = sorted(doc["provenance"]["coq_sources_sha256"])[0]
    doc["provenance"]["coq_sources_sha256"][name] = "0" * 64
    yield f"provenance/coq_sources_sha256/{name} edited", json.dumps(doc), {1}, \
        (f" provenance/coq_sources_sha256/{name}: ",)
    doc = copy.deepcopy(cert)
    doc["coq_checked"] = not cert["coq_checked"]
    yield "coq_checked flipped", json.dumps(doc), {1}, (" provenance/coq_checked: ",)
    pinned = [i for i, r in enumerate(cert["readings"]) if "coq" in r]
    if pinned:  # flipped with the provenance's: the pinned readings still disagree
        doc["provenance"]["coq_checked"] = doc["coq_checked"]
        yield "coq_checked flipped with the provenance's", json.dumps(doc), {1}, (f" readings/{pinned[0]}/coq/checked: ",)
    doc = copy.deepcopy(cert)
    doc["finding"] = "tampered prose"
    doc["readings"][0]["text"] = "tampered prose"
    yield "prose edited", json.dumps(doc), {0}, ("finding", "readings/*/text")


def cases(claim, cert):
    """(name, text written to the certificate file, allowed exit statuses, texts the rejecting
    line must contain besides the certificate's name)."""
    spec = SPEC[claim]
    flipped = copy.deepcopy(cert)
    flipped["verdict"] = "fails" if cert["verdict"] != "fails" else "holds (proved)"
    yield "flipped verdict", json.dumps(flipped), {1}, ()
    # A reading's verdict, and (where the certificate has them) a witness's input and its "refutes".
    doc = copy.deepcopy(cert)
    doc["readings"][0]["verdict"] = "fails" if cert["readings"][0]["verdict"] != "fails" else "holds (proved)"
    yield "flipped a reading's verdict", json.dumps(doc), {1}, ()
    if cert["data"].get("witnesses"):
        doc = copy.deepcopy(cert)
        doc["data"]["witnesses"][0]["refutes"] = not cert["data"]["witnesses"][0]["refutes"]
        yield "flipped a witness", json.dumps(doc), {1}, ()
    for paths in spec["value"]:
        doc = copy.deepcopy(cert)
        spot = next((s for s in (walk(doc, p) for p in paths) if s is not None), None)
        if spot is None:
            raise SystemExit(f"{claim}: nothing to change among {paths}")
        parent, key = spot
        before = parent[key]
        parent[key] = changed(key, before)
        if before == "unbounded" and claim == "R1":
            parent[key + "_approx"] = 3.0  # R1 writes a twin beside a bounded ratio
        if isinstance(parent, dict) and key + "_approx" in parent:
            # Keep the decimal twin consistent, so that the recomputation itself must notice.
            new = parent[key]
            parent[key + "_approx"] = (float((Decimal(new[0]) + Decimal(new[1])) / 2) if isinstance(new, list)
                                       else float(Fraction(new)))
        used = next(p for p in paths if walk(cert, p) is not None)
        yield f"changed {used}", json.dumps(doc), {1}, ()
    for path in (spec["delete"], TOP_LEVEL[CLAIMS.index(claim) % len(TOP_LEVEL)]):
        doc = copy.deepcopy(cert)
        spot = walk(doc, path)
        if spot is None:
            raise SystemExit(f"{claim}: no field {path} to delete")
        del spot[0][spot[1]]
        yield f"deleted {path}", json.dumps(doc), {2}, ()
    if spec["empty"] is not None:
        doc = copy.deepcopy(cert)
        spot = walk(doc, spec["empty"])
        if spot is None or not isinstance(spot[0][spot[1]], list):
            raise SystemExit(f"{claim}: no list {spec['empty']} to empty")
        spot[0][spot[1]] = []
        yield f"emptied {spec['empty']}", json.dumps(doc), {1, 2}, ()
    text = json.dumps(cert)
    yield "invalid JSON", text[: len(text) // 2], {2}, ()
    # A repeated key whose first value is tampered: at the top (the verdict) and in an object as
    # deep as the certificate nests.
    flipped = "fails" if cert["verdict"] != "fails" else "holds (proved)"
    text = '{"verdict": ' + json.dumps(flipped) + ", " + json.dumps(cert)[1:]
    yield "repeated key verdict", text, {2}, (" verdict: ", "more than once")
    _, deep = deepest_object(cert)
    text, key_path = repeated_key(cert, deep, "tampered")
    yield f"repeated key {key_path}", text, {2}, (f" {key_path}: ", "more than once")
    # A depth bomb inside the certificate: 1,000,000 nested arrays (2 MB) in place of the data.
    doc = copy.deepcopy(cert)
    doc["data"] = "__BOMB__"
    text = json.dumps(doc).replace('"__BOMB__"', "[" * 1000000 + "]" * 1000000)
    yield "depth bomb", text, {2}, (f"limit of {DEPTH_LIMIT}", "1000001 levels")
    for path, value in OUT_OF_RANGE.get(claim, []):
        doc = copy.deepcopy(cert)
        spot = walk(doc, path)
        if spot is None:
            raise SystemExit(f"{claim}: no field {path} to set out of range")
        with_twin(*spot, value)
        yield f"{path} = {json.dumps(value)} (out of range)", json.dumps(doc), {2}, (f" {path}: ",)


def planted_t3(cert):
    """T3's certified bounds on the composed loss moved past the truth, each pair kept in order
    (ε_lower <= ε_upper) so that only the rechecker's own accountant can tell: ε_upper below the
    true ε (the certified lower bound, lowered: an understated privacy loss), and ε_lower above
    every configuration's (the certified upper bound, raised). On a model-size row (client 1 on
    LDPQ) and on the last finite paper-scale row (client 1 in a pair on the paper's grid)."""
    data = cert["data"]
    rows = [("paper_model_sizes", 0)]
    finite = [i for i, row in enumerate(data.get("paper_scale", [])) if row["eps_upper"] != "infinite"]
    rows += [("paper_scale", finite[-1])] if finite else []
    for group, i in rows:
        lower, upper = data[group][i]["eps_lower"], data[group][i]["eps_upper"]
        for key, bounds, words in (("eps_upper", (lower * 0.99, lower * 0.995), "below this script's own lower bound"),
                                   ("eps_lower", (upper * 1.005, upper * 1.01), "above this script's own upper bound")):
            doc = copy.deepcopy(cert)
            doc["data"][group][i]["eps_lower"], doc["data"][group][i]["eps_upper"] = bounds
            path = f"data/{group}/{i}/{key}"
            yield f"planted {path} past the true ε", json.dumps(doc), {1}, (f" {path}: ", words)
    # The configuration named as attaining ε_lower, used the other way round: on the model-size row
    # (client 1 on LDPQ at an end, the rest at the other) that order has less loss than ε_lower.
    doc = copy.deepcopy(cert)
    part = doc["data"]["paper_model_sizes"][0]["eps_lower_attained_by"][0]
    if part.pop("order", None) is None:
        part["order"] = "reversed: the neighbour's input in the first dataset, client 1's in the second"
    path = "data/paper_model_sizes/0/eps_lower"
    yield "planted the named configuration's order flipped", json.dumps(doc), {1}, \
        (f" {path}: ", "the configuration named as attaining it")
    # ... and with counts that are not the row's: more other clients at c + r than there are, or
    # a count of 5000 digits (a MISMATCH naming the count, never an internal error).
    for count in ("999", "9" * 5000):
        doc = copy.deepcopy(cert)
        part = doc["data"]["paper_model_sizes"][0]["eps_lower_attained_by"][0]
        part["other_ldpq"] = part["other_ldpq"].replace(part["other_ldpq"].split(" ", 1)[0], count, 1)
        path = "data/paper_model_sizes/0/eps_lower_attained_by/0/other_ldpq"
        yield f"planted {len(count)} digits of other clients at c + r", json.dumps(doc), {1}, (f" {path}: ",)


def coq_run_mixed(audit):
    """Every certificate, one of them (E1: it cites no Coq theorem) with coq_checked flipped in
    itself and its provenance: only the other certificates can tell."""
    texts = {}
    for claim in CLAIMS:
        with open(os.path.join(audit, "certificates", claim + ".json")) as f:
            texts[claim] = f.read()
    doc = json.loads(texts["E1"])
    doc["coq_checked"] = doc["provenance"]["coq_checked"] = not doc["coq_checked"]
    texts["E1"] = json.dumps(doc)
    return texts


def once(cert):
    """Cases on one certificate (P1): the nesting limit exactly (an extra field, which the schema
    allows, nested so that the file is DEPTH_LIMIT deep) passes, one more level does not; a file
    over the size limit (sparse) is refused before it is read."""
    for depth, allowed in ((DEPTH_LIMIT, {0}), (DEPTH_LIMIT + 1, {2})):
        doc = copy.deepcopy(cert)
        doc["data"]["extra"] = "__NEST__"  # at depth 2: the root object, then data
        text = json.dumps(doc).replace('"__NEST__"', "[" * (depth - 2) + "]" * (depth - 2))
        yield f"nested {depth} deep", text, allowed, () if allowed == {0} else (f"limit of {DEPTH_LIMIT}",
                                                                                f"{depth} levels")
    yield "over the size limit", Sparse(json.dumps(cert), SIZE_LIMIT + 1), {2}, (f"{SIZE_LIMIT} bytes",)


def run(directory, claims):
    result = subprocess.run([python, checker, "--only", ",".join(claims), directory],
                            capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout + result.stderr


# The rechecker's closed forms against brute force, and the untampered audit.
self_test = subprocess.run([python, checker, "--self-test"], capture_output=True, text=True, timeout=300)
if self_test.returncode != 0:
    sys.exit(f"the rechecker's self-test failed (exit {self_test.returncode}):\n{self_test.stdout}{self_test.stderr}")
status, output = run(audit, CLAIMS)
if status != 0:
    sys.exit(f"the untampered audit does not pass (exit {status}):\n{output}")

jobs = []
for claim in CLAIMS:
    with open(os.path.join(audit, "certificates", claim + ".json")) as f:
        cert = json.load(f)
    for name, text, allowed, must in itertools.chain(cases(claim, cert), field_cases(claim, cert),
                                                     once(cert) if claim == "P1" else (),
                                                     planted_t3(cert) if claim == "T3" else ()):
        directory = os.path.join(work, f"case{len(jobs)}")
        os.makedirs(os.path.join(directory, "certificates"))
        with open(os.path.join(directory, "certificates", claim + ".json"), "w") as f:
            f.write(text)
            if isinstance(text, Sparse):
                f.truncate(text.size)
        csv_beside = os.path.join(audit, "fl-full", "results.csv")
        if os.path.exists(csv_beside):
            os.makedirs(os.path.join(directory, "fl-full"))
            shutil.copy(csv_beside, os.path.join(directory, "fl-full", "results.csv"))
        jobs.append(([claim], name, directory, allowed, must))
directory = os.path.join(work, "mixed_runs")
os.makedirs(os.path.join(directory, "certificates"))
for claim, text in coq_run_mixed(audit).items():
    with open(os.path.join(directory, "certificates", claim + ".json"), "w") as f:
        f.write(text)
if os.path.exists(csv_beside):
    os.makedirs(os.path.join(directory, "fl-full"))
    shutil.copy(csv_beside, os.path.join(directory, "fl-full", "results.csv"))
jobs.append((list(CLAIMS), "E1's coq_checked flipped among all", directory, {1}, ("(audit) coq_checked: ",)))

failures = []
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    results = pool.map(lambda job: run(job[2], job[0]), jobs)
    for (claims, name, _, allowed, must), (status, output) in zip(jobs, results):
        # A rejection names the certificate and what `must` says; a pass with `must` names it as
        # UNCHECKED (a field the recheck does not read, said in its output).
        tag = {0: "UNCHECKED", 1: "MISMATCH", 2: "MALFORMED"}.get(status)
        named = (status == 0 and not must) or tag is not None and any(
            line.startswith(tag) and (len(claims) > 1 or f"{claims[0]}.json" in line)
            and all(text in line for text in must) for line in output.splitlines())
        if status not in allowed or not named or "Traceback" in output:
            failures.append(f"{','.join(claims) if len(claims) == 1 else 'all'} {name}: exit {status}, "
                            f"expected {sorted(allowed)}\n{output.strip()}")
for failure in failures:
    print("NOT REJECTED AS EXPECTED:", failure)
print(f"tamper test: {len(jobs)} tampered certificates, {len(failures)} not rejected as expected")
sys.exit(1 if failures else 0)
PY
