"""Readings and the claim's verdict (readings.hpp), and the Coq pins they cite: each reading's
verdict is re-derived from its evidence, then the claim's from the readings."""
import hashlib
import os
import re

from .ledger import not_recording
from .limits import PROOFS_CHECK_DIR
from .report import InternalError, Malformed, short
from .schema import boolean, obj, one_of, text, typed, verdict_text


# readings.cpp to_string(Verdict7::holds_empirical): an experiment's claim the sequential rule decides.
HOLDS_EMPIRICAL = "holds (under the experiments' sequential rule)"


def decision_text(value, path):
    """The report's vocabulary (readings.hpp Decision::text)."""
    fixed = ("holds (proved)", "holds (checked on a grid; proof open)", HOLDS_EMPIRICAL, "fails", "proof invalid",
             "undecided")
    if type(value) is not str or not (value in fixed or (value.startswith("holds only under ") and len(value) > 17)
                                      or (value.startswith("erratum (") and value.endswith(")"))):
        raise Malformed(path, f"a verdict ({', '.join(fixed)}, holds only under …, erratum (…)), not {short(value)}")


ROLES = ("as printed", "as evidently intended", "in the stated regime, made exact", "restricted reading",
         "a step of the proof", "beyond the paper's claim", "empirical")
COQ_PIN = obj({"file": text, "lemma": text, "pinned": text, "statement": text, "checked": boolean})
READING = obj({"key": text, "role": one_of(*ROLES), "text": text, "verdict": decision_text, "evidence": text},
              {"note": text, "coq": COQ_PIN, "computed": verdict_text})
COQ_DIR = os.path.join(PROOFS_CHECK_DIR, "coq")
SHA256_HEX = re.compile("[0-9a-f]{64}")
PROVENANCE = obj({"corbin": text, "coq_checked": boolean,
                  "coq_sources_sha256": typed(lambda v: isinstance(v, dict) and all(
                      type(h) is str and SHA256_HEX.fullmatch(h) for h in v.values()),
                      "an object of SHA-256 digests (64 lowercase hex digits) by file")})
NOT_CHECKED_HERE = "Coq not checked here"  # audit.cpp attach_readings: an unchecked run's evidence says so
_SOURCES = None
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


def coq_sources():
    """(this checkout's corbin version, {file of _CoqProject: SHA-256 of its bytes}): what a
    certificate's provenance names when this checkout wrote it (audit.cpp write_audit)."""
    global _SOURCES
    if _SOURCES is None:
        project = os.path.join(PROOFS_CHECK_DIR, os.pardir, "CMakeLists.txt")
        try:
            with open(project, encoding="utf-8") as f:
                version = re.search(r"project\(corbin\s+VERSION\s+([0-9][0-9.]*)", f.read())
            with open(os.path.join(COQ_DIR, "_CoqProject"), encoding="utf-8") as f:
                files = [line.strip() for line in f if line.strip().endswith(".v")]
            hashes = {}
            for name in files:
                with open(os.path.join(COQ_DIR, name), "rb") as f:
                    hashes[name] = hashlib.sha256(f.read()).hexdigest()
        except OSError as e:
            raise InternalError(f"cannot read this checkout's version or Coq sources: {e}") from None
        if version is None:
            raise InternalError(f"no `project(corbin VERSION ...)` in {project}")
        _SOURCES = version.group(1), hashes
    return _SOURCES


def recheck_provenance(report, cert):
    """What the verdicts rest on. The provenance names this checkout's corbin and the SHA-256 of
    each Coq source the pins above are read from (so that a verdict is never held to other proofs
    than the ones it cites), and says coq_checked as the certificate does, as does each pinned
    reading's coq.checked (recheck_readings) and its evidence ("Coq not checked here" exactly when
    not). Whether Coq did compile the proofs in the audit's run is not rechecked here:
    proofs-check/coq/check.sh does that (the driver says so)."""
    provenance = cert["provenance"]
    version, hashes = coq_sources()
    report.equal("provenance/corbin", provenance["corbin"], version)
    report.equal("provenance/coq_checked", provenance["coq_checked"], cert["coq_checked"])
    stated = provenance["coq_sources_sha256"]
    for name in sorted(set(hashes) | set(stated)):
        report.equal(f"provenance/coq_sources_sha256/{name}", stated.get(name, "missing"),
                     hashes.get(name, "not a file of _CoqProject"))
    for i, r in enumerate(cert["readings"]):
        if "coq" in r:
            with not_recording():  # the evidence's words are not checked; only what they say of Coq
                says_unchecked = NOT_CHECKED_HERE in r["evidence"]
            report.expect(says_unchecked != cert["coq_checked"], f"readings/{i}/evidence",
                          f"{'says' if says_unchecked else 'does not say'} \"{NOT_CHECKED_HERE}\", but coq_checked "
                          f"is {str(cert['coq_checked']).lower()}", field=False)


def old_to_reading(computed, empirical):
    if computed in ("holds", "holds with slack"):
        return HOLDS_EMPIRICAL if empirical else "holds (checked on a grid; proof open)"
    return "fails" if computed == "fails" else "undecided"


def decide(readings):
    """readings.hpp decide(), written again."""
    holds = ("holds (proved)", "holds (checked on a grid; proof open)", HOLDS_EMPIRICAL)
    rank = {"fails": 0, "undecided": 1, HOLDS_EMPIRICAL: 2, "holds (checked on a grid; proof open)": 3}
    printed = [r for r in readings if r["role"] in ("as printed", "empirical")]
    if not printed:
        return readings[0]["verdict"] if readings else "undecided"
    weakest = min(printed, key=lambda r: rank.get(r["verdict"], 4))["verdict"]
    if weakest in holds:
        return weakest
    # The note names the typo or the condition; a reading the verdict rests on without one is
    # Malformed naming readings/i/note (a Field's missing key), never a KeyError.
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
    decided = decide(cert["readings"])
    report.expect(cert["verdict"] == decided, "verdict", f"{cert['verdict']!r} != recomputed {decided!r}")
    # The check's own outcome is some reading's `computed` (audit.cpp attach_readings), unless it
    # decides nothing or names a condition no single reading states (T2c).
    carried = any(r.get("computed") == cert["check_verdict"] for r in cert["readings"])
    exempt = cert["check_verdict"] == "undecided" or cert["check_verdict"].startswith("holds only under")
    report.expect(carried or exempt, "check_verdict", "no reading carries the check's outcome")
    recheck_provenance(report, cert)


def recheck_witnessed(cert, report):
    """T1u, T3m, D1, X1, G1: the check fails its reading iff a witness for it refutes; both are
    rechecked for every certificate (recheck_witnesses, then recheck_readings: the witnesses'
    verdicts, and the reading that carries the check's outcome), so nothing is left here."""
