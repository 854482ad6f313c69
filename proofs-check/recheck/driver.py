"""The command line: which certificates to read, each recheck run in turn, and what is printed
(recheck_certificates.py's docstring states the contract)."""
import json
import os

from . import experiments, grids
from .claims import CLAIM_IDS, CLAIM_RECHECKS, certificate_schema
from .common import recheck_items, recheck_twins
from .ledger import fields, grouped, recording, unchecked_lines, unread_leaves
from .readings import recheck_readings
from .report import CertReport, Malformed, short
from .selftest import self_test
from .untrusted import parse_untrusted_json, read_untrusted
from .witness import recheck_witnesses


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


def recheck_certificate(claim, cert, report, out_dir, csv_cache):
    """Every recheck of one certificate (its schema already checked), into `report`."""
    recheck_items(report, cert["data"], "data")
    recheck_twins(report, cert["data"], "data")
    recheck_readings(report, cert, recheck_witnesses(report, cert))
    if claim in CLAIM_RECHECKS:
        CLAIM_RECHECKS[claim](cert, report)
    else:
        experiments.recheck_experiment(cert, report, out_dir, csv_cache)


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
    # What one audit run wrote alike in every certificate: the grid and whether Coq was checked.
    malformed, reports, run_values = [], [], {"grid": {}, "coq_checked": {}}
    try:
        present = {name for name in os.listdir(cert_dir) if name.endswith(".json")}
    except OSError as e:
        print(f"MALFORMED {cert_dir}: unreadable directory ({e.strerror or e})")
        return 2
    for name in sorted(present):
        if name[:-len(".json")] not in CLAIM_IDS:
            malformed.append(f"MALFORMED {os.path.join(cert_dir, name)}: not a claim id ({' '.join(CLAIM_IDS)})")
    csv_cache, certs, by_claim, reads, alive = {}, {}, {}, set(), []
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
        cert = fields(cert)
        alive.append(cert)  # the ledger keys reads by id(): no object of the run is freed before it is read
        try:
            with recording(reads):
                for key, seen in run_values.items():
                    seen.setdefault(cert[key], claim)
                recheck_certificate(claim, cert, report, out_dir, csv_cache)
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
    with recording(reads):
        grids.recheck_grids(certs, by_claim)
    for key, seen in run_values.items():
        if len(seen) > 1:
            report = CertReport("(audit)")
            report.expect(False, key, f"certificates of different audit runs: {key} " +
                          ", ".join(f"{json.dumps(value)} in {claim}.json" for value, claim in seen.items()))
            reports.append(report)
    mismatches = [line for r in reports for line in r.mismatches]
    malformed = list(dict.fromkeys(malformed))  # the results CSV is named once, not per claim
    for line in malformed + mismatches:
        print(line)
    for r in reports:
        if verbose:
            print(f"{r.name}: {r.items} items rechecked")
            for line in r.notes:
                print(line)
        for line in r.unrecomputable:  # never hidden: what this script takes on trust
            print(line)
    # Never hidden either: the fields whose value no recheck reads (ledger.py). coq_checked is read
    # and held to the rest, but no recheck reruns Coq.
    unchecked = {f"{claim}.json": grouped(unread_leaves(cert, reads, by_claim[claim])) for claim, cert in certs.items()}
    for line in unchecked_lines(unchecked):
        print(line)
    if certs:
        print("UNCHECKED coq_checked: held to the provenance, each pinned reading's coq.checked and evidence, and the "
              "other certificates; that Coq compiled the proofs is not rerun here (proofs-check/coq/check.sh)")
    items = sum(r.items for r in reports)
    trusted = sum(len(r.unrecomputable) for r in reports)
    fields_unchecked = sum(sum(counts.values()) for counts in unchecked.values())
    print(f"recheck: {len(certs)} certificates, {items} items, {len(mismatches)} mismatches"
          + (f", {len(malformed)} malformed" if malformed else "")
          + (f", {fields_unchecked} fields unchecked (listed above)" if fields_unchecked else "")
          + (f", {trusted} groups of values not recomputed here (listed above)" if trusted else ""))
    # A group not recomputed fails the run (3) unless something worse does: this script vouches only for
    # what it rechecked, and says what it could not.
    return 2 if malformed else 1 if mismatches else 3 if trusted else 0
