"""One verdict per claim everywhere: each per-claim program (proofs-check/check_<ID>) prints the
verdict `corbin audit` gives the claim, and writes the certificate the audit writes.

Usage: /usr/bin/python3 proofs-check/check_programs_agree.py AUDIT_DIR BIN_DIR OUT_DIR

AUDIT_DIR is an audit on the quick grid (the programs' default); each BIN_DIR/check_<ID> is run with
--out OUT_DIR. For every claim of the audit: the program's first line is "ID: <the audit's verdict>
— <the audit's finding>", it prints one line per reading with the audit's verdict for it, and its
certificate equals the audit's but for whether the Coq proofs were checked at the time (provenance,
coq_checked and the evidence's words about it, which may differ between two runs). Exit 0 when all
agree; else 1, naming each claim that does not."""
import json
import os
import subprocess
import sys


def comparable(cert):
    """The certificate without what depends on when the Coq proofs were checked."""
    cert = dict(cert)
    for key in ("provenance", "coq_checked"):
        cert.pop(key, None)
    readings = []
    for reading in cert.get("readings", []):
        reading = dict(reading)
        reading.pop("evidence", None)
        if "coq" in reading:
            reading["coq"] = {k: v for k, v in reading["coq"].items() if k != "checked"}
        readings.append(reading)
    cert["readings"] = readings
    return cert


def main(audit_dir, bin_dir, out_dir):
    certificates = os.path.join(audit_dir, "certificates")
    ids = sorted(name[:-5] for name in os.listdir(certificates) if name.endswith(".json"))
    if not ids:
        print(f"no certificates under {certificates}")
        return 1
    os.makedirs(out_dir, exist_ok=True)
    disagree = []
    for claim in ids:
        with open(os.path.join(certificates, claim + ".json"), encoding="utf-8") as f:
            audit = json.load(f)
        program = os.path.join(bin_dir, "check_" + claim)
        run = subprocess.run([program, "--out", out_dir], capture_output=True, text=True)
        lines = run.stdout.splitlines()
        expected = [f"{claim}: {audit['verdict']} — {audit['finding']}"]
        for reading in audit["readings"]:
            line = f"  reading {reading['key']} ({reading['role']}): {reading['verdict']}"
            if "computed" in reading:
                line += f"; computed here: {reading['computed']}"
            expected.append(line)
        problems = []
        if run.returncode != 0:
            problems.append(f"exit {run.returncode}: {run.stderr.strip()[:200]}")
        if lines != expected:
            got = lines[0] if lines else "(nothing)"
            problems.append(f"prints {got[:160]!r}, the audit {expected[0][:160]!r}"
                            if not lines or lines[0] != expected[0] else "its readings' lines differ from the audit's")
        try:
            with open(os.path.join(out_dir, claim + ".json"), encoding="utf-8") as f:
                mine = json.load(f)
            if comparable(mine) != comparable(audit):
                differing = sorted(k for k in set(mine) | set(audit) if comparable(mine).get(k) != comparable(audit).get(k))
                problems.append(f"its certificate differs from the audit's in {', '.join(differing)}")
        except (OSError, ValueError) as e:
            problems.append(f"no certificate: {e}")
        if problems:
            disagree.append(claim)
            print(f"{claim}: " + "; ".join(problems))
    print(f"{len(ids) - len(disagree)} of {len(ids)} claims: the program's verdict, readings and certificate are the "
          f"audit's" + (f"; disagree: {', '.join(disagree)}" if disagree else ""))
    return 1 if disagree else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__.split("\n\n")[1])
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
