"""Runs an independent reference's parts (proofs-check/reference/NAME/partK.py) with --quick
against the corbin CLI: a part passes when it exits 0, prints at least one row (a line starting
with "{") and ends with "VIOLATIONS 0". Shared by the reference tests (test_*_reference.py).

The CLI: the first argument, else CORBIN_CLI (as ctest sets it), else CORBIN, else
build/analysis/corbin under the repository root."""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def run(reference, parts):
    """`parts`: (script name, what it checks) pairs. Exits the process: 0 if every part passed."""
    ref = os.path.join(ROOT, "proofs-check", "reference", reference)
    cli = (sys.argv[1] if len(sys.argv) > 1 else None) or os.environ.get("CORBIN_CLI") \
        or os.environ.get("CORBIN") or os.path.join(ROOT, "build", "analysis", "corbin")
    cli = os.path.abspath(cli)
    if not os.access(cli, os.X_OK):
        print(f"FAIL: no corbin CLI at {cli}")
        sys.exit(1)
    env = dict(os.environ, CORBIN=cli)
    failures = 0
    t_all = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for part, what in parts:
            t0 = time.monotonic()
            out = subprocess.run([sys.executable, os.path.join(ref, part + ".py"), "--quick", "--out", tmp],
                                 cwd=tmp, env=env, capture_output=True, text=True)
            verdict = [line for line in out.stdout.splitlines() if line.startswith("VIOLATIONS")]
            rows = sum(1 for line in out.stdout.splitlines() if line.startswith("{"))
            ok = out.returncode == 0 and bool(verdict) and verdict[-1] == "VIOLATIONS 0" and rows > 0
            failures += not ok
            print(f"{'ok' if ok else 'FAIL'}: {part} ({what}): {rows} rows, "
                  f"{verdict[-1] if verdict else 'no VIOLATIONS line'}, exit {out.returncode}, "
                  f"{time.monotonic() - t0:.1f} s", flush=True)
            if not ok:
                # the violating rows and any error, for the log
                for line in out.stdout.splitlines()[-20:] + out.stderr.splitlines()[-20:]:
                    print("    " + line[:2000])
    print(f"{len(parts) - failures} parts passed, {failures} failed ({time.monotonic() - t_all:.1f} s)")
    sys.exit(1 if failures else 0)
