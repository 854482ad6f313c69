"""corbin.conform: a Python callable on trial against the exact law (docs/conform.md, "Python")."""

import math
import random
import sys
import time
from fractions import Fraction

import corbin


def ldpq_sampler(bias=0.0):
    """LDPQ from its exact law: P(+) = 1/2 + (w - c)/(2 r alpha), alpha = (e^eps + 1)/(e^eps - 1),
    plus `bias` (a faulty implementation when nonzero)."""

    def sample(request):
        assert request["mechanism"] == "ldpq"
        exp_eps, c, r = request["exp_eps"], request["center"], request["radius"]
        assert all(isinstance(x, Fraction) for x in (exp_eps, c, r, *request["inputs"]))
        alpha = (exp_eps + 1) / (exp_eps - 1)
        assert alpha == request["alpha"]
        (w,) = request["inputs"]
        q = min(1.0, float(Fraction(1, 2) + (w - c) / (2 * r * alpha)) + bias)
        rng = random.Random(request["seed"])
        draws = request["draws"]
        if request["outputs"]:
            outputs = ["+" if rng.random() < q else "-" for _ in range(draws)]
            return {"counts": {"+": outputs.count("+"), "-": outputs.count("-")}, "outputs": outputs}
        plus = sum(1 for _ in range(draws) if rng.random() < q)
        return {"counts": {"+": plus, "-": draws - plus}}

    return sample


def expect(exc_type, f, *words):
    try:
        f()
    except exc_type as e:
        for w in words:
            assert w in str(e), (w, str(e))
        return e
    raise AssertionError("no %s raised" % exc_type.__name__)


def main():
    t0 = time.time()

    # An exact sampler conforms.
    r = corbin.conform(ldpq_sampler(), mechanism="ldpq", grid="quick", draws=20000)
    assert r["conforms"], [t for t in r["tests"] if t["rejected"]]
    assert r["level"] == 1e-3 and r["settings"] == 5, r
    assert r["draws"] >= 5 * 20000, r
    assert not any(t["rejected"] for t in r["tests"])
    assert {"kind", "settings", "statistic", "p", "rejected", "detail"} <= set(r["tests"][0])
    assert any(t["kind"].startswith("independence") for t in r["tests"])
    standard = [l for l in r["laws"] if l["name"] == "standard"]
    assert standard and standard[0]["consistent"], r["laws"]
    assert r["privacy"] and all({"group", "client", "eps_lower", "eps_certified", "tested"} <= set(p)
                                for p in r["privacy"])
    for p in r["privacy"]:
        assert p["eps_lower"] <= p["eps_certified"] + 1e-12, p
    assert abs(r["privacy"][0]["eps_certified"] - math.log(3)) < 1e-12
    print("exact sampler conforms: %d tests, %d draws" % (len(r["tests"]), r["draws"]))

    # The same sampler with P(+) shifted by 0.05 departs.
    r = corbin.conform(ldpq_sampler(bias=0.05), mechanism="ldpq", grid="quick", draws=20000)
    assert not r["conforms"]
    assert any(t["rejected"] and t["kind"] == "law" for t in r["tests"]), r["tests"]
    assert not [l for l in r["laws"] if l["name"] == "standard"][0]["consistent"]
    print("biased sampler departs: %d tests reject" % sum(t["rejected"] for t in r["tests"]))

    # Wrong counts, unknown labels, a non-dict: ValueError (corbin.ProtocolError) saying what.
    def short(request):
        return {"counts": {"+": 1, "-": 0}}

    expect(ValueError, lambda: corbin.conform(short, mechanism="ldpq", draws=1000, independence=False),
           "counts add up to 1")
    expect(corbin.ProtocolError, lambda: corbin.conform(lambda q: {"counts": {"x": q["draws"]}},
                                                        mechanism="ldpq", draws=1000, independence=False),
           "'x'")
    expect(ValueError, lambda: corbin.conform(lambda q: [1, 2], mechanism="ldpq", draws=1000), "not a dict")
    expect(ValueError, lambda: corbin.conform(lambda q: {"counts": {"+": q["draws"], "-": 0}},
                                              mechanism="ldpq", draws=1000),
           "outputs in draw order")

    # An exception the callable raises propagates as itself.
    class Boom(Exception):
        pass

    def boom(request):
        raise Boom("sampler failed at %d" % request["id"])

    expect(Boom, lambda: corbin.conform(boom, mechanism="ldpq", draws=1000), "sampler failed at 1")

    # Bad arguments are ValueErrors naming the keyword.
    expect(ValueError, lambda: corbin.conform("builtin:gpu"), "sampler")
    expect(ValueError, lambda: corbin.conform(short, mechanism="ldpq", level=2), "level")
    expect(ValueError, lambda: corbin.conform(short, mechanism="ldpq", power=0), "power")
    expect(ValueError, lambda: corbin.conform(short, mechanism="ldpq", draws=0), "draws")
    expect(ValueError, lambda: corbin.conform(short, mechanism="ldpq", grid="huge"), "grid")
    expect(ValueError, lambda: corbin.conform(short, mechanism="ldpx"), "mechanism")
    expect(ValueError, lambda: corbin.conform(short, mechanism="ldpq", variant="corrected"), "variant")
    expect(TypeError, lambda: corbin.conform(42), "sampler")

    # corbin's own samplers conform.
    r = corbin.conform("builtin:cpu", grid="quick", draws=20000)
    assert r["conforms"], [t for t in r["tests"] if t["rejected"]]
    r = corbin.conform("builtin:exact", mechanism="pbm2", grid="quick", draws=20000)
    assert r["conforms"], [t for t in r["tests"] if t["rejected"]]
    r = corbin.conform("builtin:kernels", mechanism="ldpq", grid="quick", draws=20000)
    assert r["conforms"], [t for t in r["tests"] if t["rejected"]]
    expect(ValueError, lambda: corbin.conform("builtin:kernels", mechanism="rqm2"), "mechanism")
    expect(ValueError, lambda: corbin.conform("builtin:kernels", variant="as-printed"), "variant")
    print("builtin:cpu, builtin:kernels and builtin:exact conform")
    print("ok (%.2f s)" % (time.time() - t0))


if __name__ == "__main__":
    sys.exit(main())
