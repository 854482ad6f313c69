"""corbin account held to an independent exact brute force (proofs-check/reference/
accountant_bruteforce.py, written from the paper without reading the accountant): on a quick subset
(every role and relation, dropout, T up to 3, m = 2, the rooms ldp/pbm1/rqm3/gaussian), no certified
upper end below the exact worst case and no attained lower end above it."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "proofs-check", "reference", "accountant_bruteforce.py")
out = subprocess.run([sys.executable, SCRIPT, "quick", "--cli", os.environ["CORBIN_CLI"]])
sys.exit(out.returncode)
