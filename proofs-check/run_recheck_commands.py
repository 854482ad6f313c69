#!/usr/bin/python3
"""Runs every `corbin …` command that audit.md's Recheck lines give, and holds each to every value
the text right after it states.

An auditor copies these commands; one that exits non-zero (a missing positional, a renamed
option) or whose output contradicts the text beside it is a broken piece of evidence. The text a
command states is the parenthesis right after it, or what follows `prints` or `:` up to the end of
its clause (`;`, the sentence's end or the next command). Each number in it is read with what
stands before it:

  key N, key = N          N is the exact value of the output line `key` (a fraction or a decimal,
                          compared exactly; `key about N`: N is that value rounded to N's digits);
                          `key1/key2 = N`: the quotient of two lines
  A op B                  op one of = < > <= >= ≤ ≥ between two of those (`ratio 24/7 > 3`,
                          `mse 4 > paper_gap_bound 2`, `ratio 3 = e^ε`), each side an output
                          line or a number, at least one side a line; holds exactly
  f(N)                    an argument: N is the value of one of the command's own options
  key word                `ratio unbounded`: the line reads that word; `(word)` alone: a line
                          `word true`, or some line reading that word

Aliases for lines: e^ε exp_eps, α alpha, σ sigma, and `bound` for the one line ending in
`_bound` where the output has no line `bound`. A number that none of these ties to the output (a
constant of the paper, a line of Algorithm 2, another pair's levels) is listed as not shown by the
command; a snake_case word before a number that no output line has is a failure (a key the text
names and the command does not print). Every command gets a line saying what was compared, and
every number compared is also changed (one more in its last digit) and must then fail, so that no
comparison here passes whatever the text says.

Usage: run_recheck_commands.py CORBIN AUDIT_MD
"""

import re
import shlex
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

ALIASES = {"e^ε": "exp_eps", "α": "alpha", "σ": "sigma"}
OPERATORS = {"=": lambda a, b: a == b, "<": lambda a, b: a < b, ">": lambda a, b: a > b,
             "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "≤": lambda a, b: a <= b,
             "≥": lambda a, b: a >= b}
NUMBER = r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?:/[0-9]+)?"
TOKEN = re.compile(rf"(?P<number>{NUMBER})(?![A-Za-z0-9_])|(?P<op><=|>=|[=<>≤≥])|(?P<alias>e\^ε|[ασ])"
                   r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*(?:/[A-Za-z_][A-Za-z0-9_]*)?)(?P<call>\()?"
                   r"|(?P<clause>[,:;])|(?P<other>\S)")
KEY_LIKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def output_values(text):
    """The `key  value` lines of a command's text output (first word after the key)."""
    values = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            values.setdefault(parts[0], parts[1])
    return values


def exact(text):
    """A value as written (a fraction, an integer, a decimal) as a Fraction, or None."""
    try:
        return Fraction(text.replace("−", "-"))
    except (ValueError, ZeroDivisionError):
        return None


def option_values(argv):
    """{value: option} for every number among the command's option values (lists split at commas)."""
    values, option = {}, None
    for arg in argv:
        if arg.startswith("--"):
            option = arg
            continue
        for item in arg.split(","):
            if option is not None and exact(item) is not None:
                values.setdefault(exact(item), option)
    return values


def stated_text(line, end):
    """The text a command at line[:end] states: its parenthesis, or what follows `prints` or `:`
    up to the end of the clause."""
    rest = line[end:]
    stripped = rest.lstrip()
    if stripped.startswith("("):
        depth = 0
        for i, c in enumerate(stripped):
            depth += (c == "(") - (c == ")")
            if depth == 0:
                return stripped[1:i]
        return stripped[1:]
    m = re.match(r"\s*(?:prints\b|:)(.*?)(?:;|`|\.(?:\s|$)|$)", rest)
    return m.group(1) if m else ""


class Reading:
    """What one command's text states, compared with its output as it is read."""

    def __init__(self, values, inputs):
        self.values, self.inputs = values, inputs
        self.compared, self.failures, self.not_shown = [], [], []
        self.compared_spans = []  # (start, end) in the text of each number compared

    def line(self, word):
        """The output line a word of the text names, or None."""
        word = ALIASES.get(word, word)
        if word in self.values:
            return word
        if word == "bound":
            bounds = [key for key in self.values if key.endswith("_bound")]
            return bounds[0] if len(bounds) == 1 else None
        return None

    def value_of(self, operand):
        """(value as text, exact value or None) of ("line", key) or ("number", text) or
        ("quotient", (key1, key2))."""
        kind, what = operand
        if kind == "number":
            return what, exact(what)
        if kind == "line":
            return f"{what} {self.values[what]}", exact(self.values[what])
        top, bottom = (exact(self.values[k]) for k in what)
        value = top / bottom if top is not None and bottom not in (None, 0) else None
        return f"{what[0]}/{what[1]} {value}", value

    def equal(self, key, number, about):
        """The line `key` against a stated number (rounded to its digits when `about`)."""
        shown, stated = self.values[key], exact(number)
        value = exact(shown)
        if about and value is not None and stated is not None:
            digits = len(number.split(".")[1]) if "." in number else 0
            ok = round(value, digits) == stated
            self.note(ok, f"{key} ≈ {number}", f"{key} is {shown}, the audit says about {number}")
        else:
            ok = (value == stated) if value is not None and stated is not None else shown == number
            self.note(ok, f"{key} {number}", f"{key} is {shown}, the audit says {number}")

    def relation(self, left, op, right):
        (left_text, a), (right_text, b) = self.value_of(left), self.value_of(right)
        if a is None or b is None:
            self.note(False, "", f"{left_text} {op} {right_text}: not a number on both sides")
            return
        self.note(OPERATORS[op](a, b), f"{left_text} {op} {right_text}", f"not {left_text} {op} {right_text}")

    def note(self, ok, compared, failure):
        if ok:
            self.compared.append(compared)
        else:
            self.failures.append(failure)

    def read(self, text):
        # A clause ends at , : ; — each is read on its own (`mse 4 > paper_gap_bound 2: CorBinQ's MSE …`).
        previous, pending, about, key_before, last_word, call_depth = None, None, False, None, None, 0
        for m in TOKEN.finditer(text.replace("−", "-")):
            kind = m.lastgroup if m.lastgroup != "call" else "word"
            token = m.group(kind)
            if kind == "clause":
                previous, pending, about, key_before, last_word = None, None, False, None, None
            elif kind == "op":
                pending, key_before = token, None
            elif kind == "other":
                if token == ")" and call_depth:
                    call_depth -= 1
                elif token == "≈":
                    about = True
            elif kind == "number":
                before = len(self.compared)
                if call_depth:  # f(N): one of the command's own values
                    option = self.inputs.get(exact(token))
                    self.note(option is not None, f"{token} = {option}",
                              f"{token} (an argument in the text) is none of the command's option values")
                elif key_before is not None:
                    self.equal(key_before, token, about)
                    previous = ("line", key_before)
                elif pending is not None and previous is not None and previous[0] != "number":
                    self.relation(previous, pending, ("number", token))
                    previous = ("number", token)
                else:
                    if last_word is not None and KEY_LIKE.fullmatch(last_word):
                        self.failures.append(f"{last_word} {token}: the command prints no line {last_word}")
                    else:
                        self.not_shown.append(token)
                    previous = ("number", token)
                if len(self.compared) > before:
                    self.compared_spans.append(m.span(kind))
                pending, about, key_before, last_word = None, False, None, None
            else:  # a word or an alias
                if m.group("call"):
                    call_depth += 1
                    previous, pending, key_before = None, None, None
                    continue
                if token == "about":
                    about = True
                    continue
                last_word = token
                if kind == "word" and "/" in token and all(self.line(k) for k in token.split("/")):
                    operand = ("quotient", tuple(self.line(k) for k in token.split("/")))
                    key = None
                else:
                    key = self.line(token)
                    operand = ("line", key) if key else None
                if operand is None:
                    if key_before is not None and self.values[key_before] == token:  # `ratio unbounded`
                        self.compared.append(f"{key_before} {token}")
                        previous = ("line", key_before)
                        key_before = None
                        continue
                    previous, pending, key_before = None, None, None
                    continue
                if pending is not None and previous is not None:
                    self.relation(previous, pending, operand)
                previous, pending, key_before = operand, None, key
        return self


def changed(number):
    """A stated number made wrong: one more in its last written digit's place (3.545 -> 3.546, 24/7
    -> 25/7, -1 -> 0)."""
    number = number.replace("−", "-")
    head, slash, tail = number.partition("/")
    mantissa, e, exponent = head.partition("e") if "e" in head else head.partition("E")
    digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return str(Decimal(mantissa) + Decimal(1).scaleb(-digits)) + e + exponent + slash + tail


def uncaught_changes(text, values, inputs):
    """The numbers of `text` that are compared, but still pass when changed: a comparison that
    cannot fail (each should)."""
    reading = Reading(values, inputs).read(text)
    return [text[start:end] for start, end in reading.compared_spans
            if not Reading(values, inputs).read(text[:start] + changed(text[start:end]) + text[end:]).failures]


def main():
    if len(sys.argv) != 3:
        print("usage: run_recheck_commands.py CORBIN AUDIT_MD", file=sys.stderr)
        return 2
    corbin, audit = sys.argv[1], sys.argv[2]
    with open(audit, encoding="utf-8") as f:
        lines = [line for line in f if line.startswith("**Recheck.**")]
    if not lines:
        print(f"{audit}: no Recheck lines", file=sys.stderr)
        return 1
    ran = compared = failed = 0
    for line in lines:
        for m in re.finditer(r"`corbin ([^`]*)`", line):
            argv = [corbin] + shlex.split(m.group(1))
            done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
            ran += 1
            shown = " ".join(["corbin"] + argv[1:])
            if done.returncode != 0:
                failed += 1
                print(f"FAIL {shown}: exit {done.returncode}: {done.stderr.strip()}")
                continue
            values = output_values(done.stdout)
            said = stated_text(line, m.end()).strip()
            reading = Reading(values, option_values(argv[1:]))
            if re.fullmatch(r"[a-z_]+", said):  # "(unbounded)": a flag that is true, or a line's value
                reading.note(values.get(said, "true") == "true" and (said in values or said in values.values()),
                             said, f"no line reads {said}, as the audit says")
            else:
                reading.read(said)
                for number in uncaught_changes(said, values, reading.inputs):
                    reading.failures.append(f"{number} is compared, yet the text passes with {changed(number)} in "
                                            f"its place (this script's comparison cannot fail)")
            compared += len(reading.compared)
            failed += len(reading.failures)
            for failure in reading.failures:
                print(f"FAIL {shown}: {failure}")
            print(f"{shown}: compared {', '.join(reading.compared) or 'nothing (no value stated)'}"
                  + (f"; not shown by the command: {', '.join(reading.not_shown)}" if reading.not_shown else ""))
    print(f"{ran} recheck commands run, {compared} stated values compared, {failed} failures")
    return 1 if failed or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
