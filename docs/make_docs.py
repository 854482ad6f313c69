#!/usr/bin/python3
"""Rewrites the generated sections of docs/ from a corbin executable's --help, or checks them.

Each subcommand `corbin SUB` has a page docs/SUB.md: hand-written text (what the subcommand is for,
examples) and one generated section, the exact output of `corbin SUB --help` in a fenced block
between two marker lines

    <!-- BEGIN corbin SUB --help -->
    <!-- END corbin SUB --help -->

and docs/README.md holds `corbin --help` the same way. This script rewrites only what lies between
the markers; everything else on a page is left as it is.

    make_docs.py [CORBIN]               rewrite the sections from CORBIN (default build/analysis/corbin)
    make_docs.py --check [CORBIN]       write nothing; exit 1 naming each stale page

The check also fails for a subcommand without a page, a page whose subcommand `corbin --help` does
not list, and a relative link in README.md or docs/*.md to a file or a heading that does not exist.

`corbin fl` is the helper corbin-fl, built only with libtorch: when no corbin-fl lies beside CORBIN,
docs/fl.md is skipped (named on stderr), not failed, unless --require-fl is given (a build with
libtorch passes it, so that there a missing helper is an error).

Every program is started with an argument list (no shell) and with argv[0] "corbin", so that the
usage lines read `corbin ...` whatever the executable's path. Pages are replaced atomically.
Exit status: 0 up to date (or rewritten), 1 stale (--check), 2 bad usage or a corbin that failed.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

DOCS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(DOCS)
HELPER = "corbin-fl"  # what `corbin fl` execs, beside corbin (analysis/main.cpp)


class Failure(Exception):
    """A corbin that could not be run or printed what this script cannot read: exit status 2."""


def begin_marker(words):
    return f"<!-- BEGIN corbin {words}--help -->"


def end_marker(words):
    return f"<!-- END corbin {words}--help -->"


def run_help(corbin, args):
    """The stdout of `corbin ARGS --help`, run without a shell as argv[0] "corbin"."""
    try:
        done = subprocess.run(["corbin", *args, "--help"], executable=corbin, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Failure(f"{corbin}: {e}") from e
    if done.returncode != 0:
        raise Failure(f"corbin {' '.join(args + ['--help'])} exited {done.returncode}: "
                      f"{done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout.decode("utf-8")


def subcommands(top_help):
    """The subcommands listed under "Subcommands:" in `corbin --help`, in its order."""
    names, inside = [], False
    for line in top_help.splitlines():
        if line.strip() == "Subcommands:":
            inside = True
        elif inside and re.match(r"^  [a-z][a-z0-9-]*(\s|$)", line):
            names.append(line.split()[0])
        elif inside and line.strip():
            inside = False
    if not names:
        raise Failure("corbin --help lists no subcommands")
    return names


def block(words, text):
    """The generated section: markers around the output in a fence longer than any run of
    backquotes in it."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{begin_marker(words)}\n{fence}text\n{text.rstrip(chr(10))}\n{fence}\n{end_marker(words)}"


def replace_section(page, words, text):
    """PAGE with its section for WORDS replaced by TEXT's block; None when the markers are not
    there exactly once each, in order."""
    begin, end = begin_marker(words), end_marker(words)
    if page.count(begin) != 1 or page.count(end) != 1:
        return None
    start, stop = page.index(begin), page.index(end) + len(end)
    if stop < start:
        return None
    return page[:start] + block(words, text) + page[stop:]


def write_atomically(path, text):
    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".make_docs.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


# --- links -------------------------------------------------------------------------------------

def slug(heading):
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to '-'."""
    text = re.sub(r"<[^>]+>", "", heading)                     # inline HTML
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)       # [text](link) -> text
    text = text.strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path):
    """Every anchor of a Markdown file: its headings' (outside fenced blocks; repeats get -1, -2,
    ...) and explicit <a id="..."> / <a name="...">."""
    found, seen, fence = set(), {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            opening = re.match(r"^\s*(`{3,}|~{3,})", line)
            if opening:
                mark = opening.group(1)
                if fence is None:
                    fence = mark
                elif mark[0] == fence[0] and len(mark) >= len(fence):
                    fence = None
                continue
            if fence is not None:
                continue
            heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if heading:
                base = slug(heading.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line))
    return found


def link_problems(pages):
    """Relative links in PAGES whose file or heading does not exist, as messages."""
    problems, cache = [], {}
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"(?ms)^\s*(`{3,}|~{3,}).*?^\s*\1`*\s*$", "", text)  # fenced blocks
        text = re.sub(r"(?m)^(    |\t).*$", "", text)                     # indented code
        text = re.sub(r"`[^`\n]*`", "", text)                               # inline code
        for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, mailto:, ...
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part else page
            where = os.path.relpath(page, ROOT)
            if not os.path.exists(dest):
                problems.append(f"{where}: link to {target}: no file {os.path.relpath(dest, ROOT)}")
                continue
            if anchor and dest.endswith(".md"):
                if dest not in cache:
                    cache[dest] = anchors(dest)
                if anchor not in cache[dest]:
                    problems.append(f"{where}: link to {target}: {os.path.relpath(dest, ROOT)} has no heading #{anchor}")
    return problems


# --- main --------------------------------------------------------------------------------------

def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corbin", nargs="?", default=os.path.join(ROOT, "build", "analysis", "corbin"),
                        help="the corbin executable (default: build/analysis/corbin)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 naming each stale page")
    parser.add_argument("--require-fl", action="store_true",
                        help=f"fail, not skip, docs/fl.md when {HELPER} is not beside corbin")
    args = parser.parse_args(argv)
    corbin = os.path.abspath(args.corbin)
    if not (os.path.isfile(corbin) and os.access(corbin, os.X_OK)):
        print(f"make_docs: {args.corbin} is not an executable", file=sys.stderr)
        return 2

    try:
        top = run_help(corbin, [])
        names = subcommands(top)
        # (page, words in the markers, the --help output); None: skipped, with why
        sections = [(os.path.join(DOCS, "README.md"), "", top)]
        skipped = []
        helper = os.path.join(os.path.dirname(os.path.realpath(corbin)), HELPER)
        for name in names:
            page = os.path.join(DOCS, f"{name}.md")
            if name == "fl" and not os.path.exists(helper):
                if args.require_fl:
                    raise Failure(f"{helper} is missing, and --require-fl was given")
                skipped.append(f"docs/fl.md: skipped: {helper} is absent (corbin built without libtorch)")
                continue
            sections.append((page, f"{name} ", run_help(corbin, [name])))
    except Failure as e:
        print(f"make_docs: {e}", file=sys.stderr)
        return 2

    stale = []  # (page, why)
    for page, words, text in sections:
        where = os.path.relpath(page, ROOT)
        if not os.path.exists(page):
            stale.append((where, f"missing: `corbin {words}--help` has no page (write one with the markers "
                                 f"{begin_marker(words)} and {end_marker(words)})"))
            continue
        with open(page, encoding="utf-8", newline="") as f:
            old = f.read()
        new = replace_section(old, words, text)
        if new is None:
            stale.append((where, f"lacks the markers {begin_marker(words)} ... {end_marker(words)} "
                                 "(once each, in order)"))
        elif new != old:
            if args.check:
                diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(), f"{where} (now)",
                                                 f"{where} (from corbin {words}--help)", n=1, lineterm=""))
                stale.append((where, f"`corbin {words}--help` has changed:\n" + "\n".join(diff[:40])))
            else:
                write_atomically(page, new)
                print(f"make_docs: rewrote {where}")

    # A page with markers for a subcommand corbin does not have.
    known = {f"{n}.md" for n in names} | {"README.md"}
    for entry in sorted(os.listdir(DOCS)):
        if entry.endswith(".md") and entry not in known:
            with open(os.path.join(DOCS, entry), encoding="utf-8") as f:
                found = re.search(r"<!-- BEGIN corbin ([a-z0-9-]+) --help -->", f.read())
            if found:
                stale.append((f"docs/{entry}", f"has a section for `corbin {found.group(1)}`, "
                                               "which `corbin --help` does not list"))

    pages = [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(DOCS, e) for e in os.listdir(DOCS) if e.endswith(".md"))
    broken = link_problems(pages)

    for line in skipped:
        print(f"make_docs: {line}", file=sys.stderr)
    for where, why in stale:
        print(f"make_docs: {where}: {why}", file=sys.stderr)
    for line in broken:
        print(f"make_docs: {line}", file=sys.stderr)
    if stale or broken:
        if args.check and stale:
            print(f"make_docs: regenerate with: /usr/bin/python3 docs/make_docs.py {args.corbin}", file=sys.stderr)
        return 1
    if args.check:
        print(f"make_docs: {len(sections)} generated sections up to date"
              + (f", {len(skipped)} skipped" if skipped else "") + "; links resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
