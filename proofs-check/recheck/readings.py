"""Readings and the claim's verdict (readings.hpp), and the Coq pins they cite: each reading's
verdict is re-derived from its evidence, then the claim's from the readings."""
import os
import re

from .limits import PROOFS_CHECK_DIR
from .report import InternalError, Malformed, short
from .schema import boolean, obj, one_of, text, verdict_text


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
COQ_DIR = os.path.join(PROOFS_CHECK_DIR, "coq")
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


def recheck_witnessed(cert, report):
    """T1u, T3m, D1, X1, G1: the check fails its reading iff a witness for it refutes."""
    primary = [r for r in cert["readings"] if r.get("computed") == cert["check_verdict"]]
    report.expect(bool(primary) or cert["check_verdict"] == "undecided", "check_verdict",
                  "no reading carries the check's outcome")
