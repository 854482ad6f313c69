"""The bracket `corbin account ... --json` prints, as floats (+inf where it says infinite): shared by
the Python tests that hold it to a reference."""
import json
import math
import subprocess


def account_bracket(cli, args):
    """(eps_lower, eps_upper) of `cli account *args --json`; an answer is exit 0 or 3."""
    out = subprocess.run([cli, "account", *args, "--json"], capture_output=True, text=True)
    assert out.returncode in (0, 3), out.stderr
    j = json.loads(out.stdout)
    return tuple(math.inf if j[k] == "infinite" else float(j[k + "_approx"]) for k in ("eps_lower", "eps_upper"))
