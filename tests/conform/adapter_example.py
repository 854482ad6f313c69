#!/usr/bin/env python3
"""A corbin conform adapter around someone else's quantizer (docs/conform.md):
   corbin conform --mechanism ldpq --sampler /usr/bin/python3 adapter_example.py"""
import json, random, sys
from fractions import Fraction

def their_ldpq(w, c, r, alpha, rng):  # the code on trial: LDPQ as someone else wrote it
    q = 0.5 + (w - c) / (2 * r * alpha)
    return c + r * alpha if rng.random() < q else c - r * alpha

for line in sys.stdin:  # one JSON request per line; one JSON answer per line
    req = json.loads(line)
    c, r, alpha = (float(Fraction(req[k])) for k in ("center", "radius", "alpha"))
    w, rng = float(Fraction(req["inputs"][0])), random.Random(int(req["seed"]))
    outs = ["+" if their_ldpq(w, c, r, alpha, rng) > c else "-" for _ in range(req["draws"])]
    print(json.dumps({"id": req["id"], "outputs": outs}), flush=True)
