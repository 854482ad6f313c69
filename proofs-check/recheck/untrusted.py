"""Reading the files in DIR, every one of them untrusted.

Before a file is parsed it must be at most kMaxInputBytes (64 MiB) long and, for JSON, nested at
most kMaxJsonDepth (64) levels deep (a linear scan that skips strings; no recursion); a JSON
object may not repeat a key (json keeps the last value, a reader taking the first would see
another). Each is a MALFORMED line naming the file, and the limit and what was found or the
key's path."""
import itertools
import json
import os
import re

from .limits import kMaxInputBytes, kMaxJsonDepth
from .report import Malformed


def _size_text(count):
    return f"{count} bytes" if count < 1 << 20 else f"{count} bytes ({count / (1 << 20):.1f} MiB)"


def read_untrusted(path):
    """A file from DIR as text: at most kMaxInputBytes (checked on the open file before reading,
    and again on what is read, so that a file growing or without a size cannot pass), UTF-8.
    Raises Malformed (too large) or OSError / UnicodeDecodeError (unreadable)."""
    limit = f"the limit of {kMaxInputBytes >> 20} MiB ({kMaxInputBytes} bytes)"
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > kMaxInputBytes:
            raise Malformed("", f"larger than {limit}: {_size_text(size)}")
        data = f.read(kMaxInputBytes + 1)
    if len(data) > kMaxInputBytes:
        raise Malformed("", f"larger than {limit}: more than {kMaxInputBytes} bytes read")
    return data.decode("utf-8")


# A JSON string, or an unterminated one up to the end of the text: every `"` outside a string
# starts a match, and the match cannot fail, so the scan is linear (no retry from later quotes).
_JSON_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.S)
_NOT_BRACKET_RE = re.compile(r"[^\[\]{}]+")
_BRACKET_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1, +1, -1, -1 as signed bytes


def json_depth(text):
    """The deepest nesting of arrays and objects in JSON text (0 for a scalar), in linear time and
    without recursion: strings are cut out (their brackets and escapes are not structure), then
    the running sum of +1 per [ or { and −1 per ] or } is taken in C (itertools.accumulate). For
    text that is not JSON this is an upper bound on any reading of it."""
    brackets = _NOT_BRACKET_RE.sub("", _JSON_STRING_RE.sub("", text))
    if not brackets:
        return 0
    steps = memoryview(brackets.encode("ascii").translate(_BRACKET_STEPS)).cast("b")
    return max(0, max(itertools.accumulate(steps)))


def _key_text(key):
    """A key as a component of a JSON path printed on one line."""
    return key if key.isprintable() and "/" not in key and key.strip() == key and key else json.dumps(key)


def _first_duplicate(node, duplicates, path):
    """(path of the first repeated key in document order, the key) among the objects in
    `duplicates` (id -> (object, repeated keys)). The depth is at most kMaxJsonDepth here."""
    if isinstance(node, dict):
        if id(node) in duplicates:
            key = duplicates[id(node)][1][0]
            return f"{path}/{_key_text(key)}".lstrip("/"), key
        items = ((_key_text(k), v) for k, v in node.items())
    elif isinstance(node, list):
        items = ((str(i), v) for i, v in enumerate(node))
    else:
        return None
    for key, value in items:
        found = _first_duplicate(value, duplicates, f"{path}/{key}")
        if found is not None:
            return found
    return None


def parse_untrusted_json(text):
    """JSON text from DIR, parsed only if nested at most kMaxJsonDepth deep, with NaN/Infinity and
    repeated keys in an object refused. Raises Malformed (path of a repeated key, or "" for the
    file) or ValueError (not JSON)."""
    depth = json_depth(text)
    if depth > kMaxJsonDepth:
        raise Malformed("", f"JSON nested deeper than the limit of {kMaxJsonDepth} levels: {depth} levels")
    duplicates = {}

    def pairs_hook(pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen, repeated = set(), []
            for key, _ in pairs:
                if key in seen and key not in repeated:
                    repeated.append(key)
                seen.add(key)
            duplicates[id(obj)] = (obj, repeated)  # held here, so that no later object reuses its id
        return obj

    def reject_constant(token):
        raise ValueError(f"{token} is not a JSON number")
    value = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=reject_constant)
    if duplicates:
        # An object with a repeated key may sit in a value its parent dropped (that parent repeats
        # a key too, so some object in the tree does): the first in the tree is named.
        path, key = _first_duplicate(value, duplicates, "") or ("", next(iter(duplicates.values()))[1][0])
        more = sum(len(keys) for _, keys in duplicates.values()) - 1
        raise Malformed(path, f"the key {json.dumps(key)} appears more than once in its object (a JSON reader may "
                              f"take either value)" + (f"; {more} more repeated key{'s' * (more > 1)} in the file"
                                                       if more else ""))
    return value
