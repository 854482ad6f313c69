#!/usr/bin/python3
"""Independent recheck of the audit's certificates (DIR/certificates/<ID>.json), with its own code
(the package recheck/ beside this file; its docstring says how); nothing here calls the C++
library.

Usage: /usr/bin/python3 proofs-check/recheck_certificates.py [--verbose] [--only ID,...] DIR
       /usr/bin/python3 proofs-check/recheck_certificates.py --self-test

  --only ID,...  recheck only these claims (the other certificates may be absent)
  --verbose      also say how many items each certificate had rechecked, and each of T3's
                 recomputed bounds on the composed privacy loss beside the certificate's
  --self-test    cross-check this script's closed forms against brute force, and its accountant
                 against exact compositions, then exit

Every value a certificate holds is recomputed, T3's certified bounds on the composed privacy
loss included (recheck/pld.py); a group of values this script cannot recompute from a certificate
(a witness beyond its exhaustive searches, a results CSV that is not there, a population beyond
its enumeration) is listed in every run, counted on the summary line, and fails the run.

Every field whose value no recheck reads is named on an `UNCHECKED` line (the patterns every
certificate shares once: the finding, the readings' text and evidence; then each certificate's
own), and counted on the summary line; they do not change the status. coq_checked is held to the
provenance, each pinned reading and its evidence, and the other certificates; whether Coq compiled
the proofs is not rerun here (proofs-check/coq/check.sh).

Exit status: 0 every value recomputed and every recomputed item agrees; 1 some item disagrees (a
line `MISMATCH <cert> <path>: <what>` each, then a summary line); 2 malformed input: a certificate
or the results CSV is missing, unreadable or not JSON, or lacks a field (one a recheck reads
included) or has one of the wrong type (a decimal twin that is not a number) or a value outside
its domain (a line `MALFORMED <file> <path>: <what>` each); 3 nothing
disagrees, but some group of values was not recomputed (a line `<cert> <path>: not recomputable
from the certificate (<why>)` each; 2 and 1 take precedence); 4 an internal error of this script
(one line). Nothing ends in a traceback.
"""
import sys


def run(argv):
    """main's status, or 4 with one line for anything this script did not expect (its own fault,
    including a package that cannot be imported)."""
    try:
        from recheck.driver import main
        from recheck.report import InternalError
    except BaseException as e:  # an incomplete installation: still one line, not a traceback
        print(f"recheck: internal error: cannot load the package recheck/ ({type(e).__name__}: {e})")
        return 4
    try:
        return main(argv)
    except InternalError as e:
        print(f"recheck: internal error: {e}")
        return 4
    except KeyboardInterrupt:
        print("recheck: interrupted")
        return 4
    except BaseException as e:  # never a traceback: an unexpected failure is this script's fault
        if isinstance(e, SystemExit):
            raise
        print(f"recheck: internal error: {type(e).__name__}: {e}")
        return 4


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
