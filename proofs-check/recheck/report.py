"""What a recheck reports: the outcomes (MALFORMED input, one MISMATCH per item that disagrees,
groups of values not recomputed, an internal error), and values shown as text."""
import json
import re
from fractions import Fraction as F

# An exact value as the checks write it: "p" or "p/q".


RATIONAL_RE = re.compile(r"-?[0-9]+(/[0-9]+)?")


class Malformed(Exception):
    """The input is not what a check writes: a field missing or of the wrong type. `file` names
    the offending file when it is not the certificate being read (the results CSV)."""

    def __init__(self, path, what, file=None):
        super().__init__(f"{path}: {what}")
        self.path, self.what, self.file = path, what, file


class InternalError(Exception):
    """This script disagrees with itself (e.g. closed form != enumeration)."""


def show(value):
    """A value as text: exact values as p/q, containers recursively, JSON literals as in JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return str(value)


def short(value, limit=60):
    """A value as text, shortened when long: a long exact value as its decimal approximation
    (exact probabilities have thousands of digits), other text cut in the middle."""
    text = show(value)
    if len(text) > limit:
        if RATIONAL_RE.fullmatch(text):
            try:
                return f"{float(F(text)):.17g} (≈; exact, {len(text)} chars)"
            except OverflowError:
                pass
        text = f"{text[:limit // 2]}…{text[-12:]} ({len(text)} chars)"
    return text


class CertReport:
    """Collects one certificate's comparisons; paths are JSON paths such as data/rows/3/bound."""

    def __init__(self, name):
        self.name = name
        self.items = 0
        self.mismatches = []
        self.unrecomputable = []
        self.notes = []
        self.compared = set()  # paths a comparison named (ledger.py: checked)
        self.compared_whole = set()  # paths whose whole value `equal` compared (an object: every field)

    def expect(self, ok, path, what, field=True):
        """One comparison; `field`: it checks the value at `path` (ledger.py), not only something
        its words say."""
        self.items += 1
        if field:
            self.compared.add(path)
        if not ok:
            self.mismatches.append(f"MISMATCH {self.name} {path}: {what}")
        return ok

    def equal(self, path, claimed, recomputed, text=None):
        """The certificate's value against the recomputed one, exactly."""
        self.compared_whole.add(path)
        return self.expect(claimed == recomputed, path,
                           f"{short(text if text is not None else claimed)} != recomputed {short(recomputed)}")

    def note(self, text):
        """A line printed under --verbose: what was recomputed, for a reader (not an item)."""
        self.notes.append(f"{self.name} {text}")

    def not_recomputable(self, path, why):
        self.unrecomputable.append(f"{self.name} {path}: not recomputable from the certificate ({why})")
