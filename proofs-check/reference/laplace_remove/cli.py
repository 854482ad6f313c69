"""The corbin CLI as a black box, and the options every part takes.

The binary is the one the environment variable CORBIN names; without it, build/analysis/corbin
under the repository root (this folder is proofs-check/reference/laplace_remove, three levels
below the root)."""
import argparse
import json
import os
import subprocess
import sys

import mpmath as mp

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..'))
CORBIN = os.environ.get('CORBIN') or os.path.join(ROOT, 'build', 'analysis', 'corbin')
BASE = ['account', '--mechanism', 'laplace', '--neighbours', 'remove', '--json']


def corbin(args):
    """Run `corbin account --mechanism laplace --neighbours remove --json ARGS`; its JSON, with
    _cmd (the command line, the binary named `corbin`) and _stderr; or {_error, _cmd}."""
    args = [str(a) for a in args]
    shown = ' '.join(['corbin'] + BASE + args)
    try:
        r = subprocess.run([CORBIN] + BASE + args, capture_output=True, text=True)
    except OSError as e:
        sys.exit('cannot run the corbin CLI %r (%s); set CORBIN to the binary' % (CORBIN, e))
    if r.returncode != 0:
        return {'_error': r.stderr.strip()[:500], '_cmd': shown}
    try:
        d = json.loads(r.stdout)
    except ValueError as e:
        return {'_error': 'not JSON (%s): %s' % (e, r.stdout[:300]), '_cmd': shown}
    d['_cmd'] = shown
    d['_stderr'] = r.stderr.strip()
    return d


def num(s):
    """A CLI number (decimal string, 'a/b' or 'infinite') as an mpf; None if absent."""
    if s is None:
        return None
    if s == 'infinite':
        return mp.inf
    if isinstance(s, str) and '/' in s:
        a, b = s.split('/')
        return mp.mpf(a) / mp.mpf(b)
    return mp.mpf(s)


class _Tee:
    """stdout to the terminal and to NAME.out in the output directory."""

    def __init__(self, path, stream):
        self.f = open(path, 'w')
        self.stream = stream

    def write(self, s):
        self.stream.write(s)
        self.f.write(s)

    def flush(self):
        self.stream.flush()
        self.f.flush()


def options(name, doc):
    """Parse --quick and --out DIR; make DIR; copy stdout into DIR/NAME.out."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument('--quick', action='store_true', help='a small subset through the same code paths (CI)')
    ap.add_argument('--out', default='.', help='directory for the outputs (default: the current directory)')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    sys.stdout = _Tee(os.path.join(a.out, name + '.out'), sys.stdout)
    return a


def finish(name, out_dir, rows, viol, extra=None):
    """Write DIR/NAME.json, print VIOLATIONS k, exit 1 if k > 0."""
    d = dict(rows=rows, violations=viol)
    if extra:
        d.update(extra)
    with open(os.path.join(out_dir, name + '.json'), 'w') as f:
        json.dump(d, f, indent=1, default=str)
    print('VIOLATIONS', len(viol), flush=True)
    sys.exit(1 if viol else 0)
