"""corbin account --mechanism laplace --neighbours remove held to a reviewer's independent brute
force (proofs-check/reference/laplace_remove, written from the mechanism's description without
reading the accountant): each of its three parts with --quick (no dropout T = 1: --at-eps over a grid
of client 1's input, and --delta; T = 2 rounds of m = 2, 3 coordinates by a PLD bracket; dropout
with m = 1: the sum alone as run, and the others' survival known), every delta_upper / eps_upper at or
above the truth, every lower end at or below it. A part exits 1 on any violation (it prints
"VIOLATIONS k"); this test fails if any part does not exit 0.

The CLI: the first argument, else CORBIN_CLI (as ctest sets it), else CORBIN, else
build/analysis/corbin under the repository root."""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
REF = os.path.join(ROOT, "proofs-check", "reference", "laplace_remove")
CLI = (sys.argv[1] if len(sys.argv) > 1 else None) or os.environ.get("CORBIN_CLI") or os.environ.get("CORBIN") \
    or os.path.join(ROOT, "build", "analysis", "corbin")
CLI = os.path.abspath(CLI)
PARTS = [("part1", "no dropout, T=1, --at-eps and --delta"), ("part2", "no dropout, T=2, m=2,3"),
         ("part3", "dropout, m=1")]

if not os.access(CLI, os.X_OK):
    print(f"FAIL: no corbin CLI at {CLI}")
    sys.exit(1)
env = dict(os.environ, CORBIN=CLI)
failures = 0
t_all = time.monotonic()
with tempfile.TemporaryDirectory() as tmp:
    for part, what in PARTS:
        t0 = time.monotonic()
        out = subprocess.run([sys.executable, os.path.join(REF, part + ".py"), "--quick", "--out", tmp],
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
print(f"{len(PARTS) - failures} parts passed, {failures} failed ({time.monotonic() - t_all:.1f} s)")
sys.exit(1 if failures else 0)
