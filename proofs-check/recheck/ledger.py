"""Which fields of a certificate the recheck reads, and which it leaves unchecked.

After its schema has checked every field's type and domain, a certificate's objects become Field
objects (a dict that knows its JSON path): a field a recheck reads that is not there is Malformed
naming its path (never a KeyError, whichever field it is), and every read by key is recorded. A
field is checked when a recheck reads it (as an input of a recomputation, or to compare it with
its recomputed value or its exact twin) or when a comparison names its path. What no recheck
reads, or reads only to show it, is named in the output as unchecked (unchecked_paths), so that
an edit there is never mistaken for an edit the recheck would have seen."""
import re

from .report import Malformed

_reads = None  # (id(object), key) read by a recheck, while one runs (recording)


class Field(dict):
    """A JSON object of a certificate under recheck."""

    __slots__ = ("path",)

    def __missing__(self, key):
        raise Malformed(f"{self.path}/{key}".lstrip("/"), "missing")

    def __getitem__(self, key):
        if _reads is not None:
            _reads.add((id(self), key))
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        if _reads is not None and key in self:
            _reads.add((id(self), key))
        return dict.get(self, key, default)


def fields(node, path=""):
    """The JSON value with every object a Field at its path (lists stay lists)."""
    if isinstance(node, dict):
        out = Field((key, fields(value, f"{path}/{key}".lstrip("/"))) for key, value in node.items())
        out.path = path
        return out
    if isinstance(node, list):
        return [fields(value, f"{path}/{i}".lstrip("/")) for i, value in enumerate(node)]
    return node


class recording:
    """Within the block, reads by key are recorded into `reads` (a set)."""

    def __init__(self, reads):
        self.reads = reads

    def __enter__(self):
        global _reads
        self.saved, _reads = _reads, self.reads
        return self.reads

    def __exit__(self, *exc):
        global _reads
        _reads = self.saved
        return False


class not_recording:
    """Within the block, reads are not recorded (a value shown, or a schema's own walk)."""

    def __enter__(self):
        global _reads
        self.saved, _reads = _reads, None

    def __exit__(self, *exc):
        global _reads
        _reads = self.saved
        return False


def _is_leaf(value):
    """A scalar, or a list of scalars (an enclosure, a pair of levels): read whole or not at all."""
    if isinstance(value, dict):
        return False
    return not isinstance(value, list) or all(not isinstance(v, (dict, list)) for v in value)


def unread_leaves(node, reads, report, path="", read=False):
    """Paths of the leaves under `node` that no recheck read and no comparison of `report` named
    (an `equal` of a whole object covers its fields). Lists do not record reads: what a list holds
    besides objects is read when the list is (`read`)."""
    if path and path in report.compared_whole:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            sub = f"{path}/{key}".lstrip("/")
            was_read = (id(node), key) in reads or sub in report.compared or sub in report.compared_whole
            if _is_leaf(value):
                if not was_read:
                    yield sub
            else:
                yield from unread_leaves(value, reads, report, sub, was_read)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            sub = f"{path}/{i}".lstrip("/")
            if not _is_leaf(value):
                yield from unread_leaves(value, reads, report, sub, read)
            elif not read and sub not in report.compared and sub not in report.compared_whole:
                yield sub


_INDEX_RE = re.compile(r"(?<=/)[0-9]+(?=/|$)")


def grouped(paths):
    """{pattern: how many fields}: paths with list indices as *, in first-seen order."""
    counts = {}
    for path in paths:
        pattern = _INDEX_RE.sub("*", path)
        counts[pattern] = counts.get(pattern, 0) + 1
    return counts


def unchecked_lines(unchecked):
    """The UNCHECKED lines for {certificate name: grouped(...)}: the patterns every certificate
    leaves unchecked once, then each certificate's others (a count where a pattern stands for more
    than one field)."""
    named = list(unchecked.values())
    common = [p for p in named[0] if all(p in other for other in named[1:])] if len(named) > 1 else []
    lines = [f"UNCHECKED every certificate: {', '.join(common)} (no recheck reads them)"] if common else []
    for name, counts in unchecked.items():
        rest = [p if n == 1 else f"{p} ({n})" for p, n in counts.items() if p not in common]
        if rest:
            lines.append(f"UNCHECKED {name}: {', '.join(rest)}")
    return lines
