"""The audit's grids, which a certificate names (common.cpp), and the consistency of rows across
certificates: counts over a grid are recounted point by point by the claims' modules."""
import math
from fractions import Fraction as F

from .report import short


# The audit's two grids (common.cpp Grid::paper and Grid::quick_grid), which a certificate names:
# the ε grid (e^ε rounded up to six decimals, exp_eps_of), d, n, and inputs w ∈ [c − r, c + r] at
# steps of r / input_steps.
GRIDS = {"paper": {"eps": (0.1, 0.3, 0.5, 1, 3, 5, 7), "bits": (0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 64),
                   "clients": (50, 100, 200, 500), "enumerate_up_to": 8, "optimise_up_to": 3, "input_steps": 8},
         "quick": {"eps": (0.5, 1, 5), "bits": (0, 1, 5), "clients": (50,), "enumerate_up_to": 5,
                   "optimise_up_to": 2, "input_steps": 4}}


def exp_eps_of(eps):
    """common.cpp exp_eps_near: ⌈e^eps · 10^6⌉ / 10^6, in doubles as there."""
    return F(math.ceil(math.exp(eps) * 1e6), 10 ** 6)


def grid_inputs(grid, c, r):
    """common inputs.hpp input_grid: c + r·k/steps for k = −steps, …, steps."""
    steps = GRIDS[grid]["input_steps"]
    return [c + r * F(k, steps) for k in range(-steps, steps + 1)]


def distinct(values):
    return list(dict.fromkeys(values))


def check_product(report, path, rows, axes):
    """rows are exactly the product of their distinct values along `axes`, the first axis
    outermost (the checks' nested loops), so that no row is missing, repeated or moved."""
    levels = [distinct(tuple(row[a] for a in axis) if isinstance(axis, tuple) else row[axis] for row in rows)
              for axis in axes]
    expected = [()]
    for level in levels:
        expected = [e + (v,) for e in expected for v in level]
    got = [tuple(tuple(row[a] for a in axis) if isinstance(axis, tuple) else row[axis] for axis in axes)
           for row in rows]
    report.expect(got == expected, path, f"the rows are not the full product of {', '.join(map(str, axes))} "
                                         f"({len(got)} rows, {len(expected)} in the product)")
    return levels


# check_c1.cpp's fixed models (the authors' MNIST model, ResNet-18) and shared bits.
C1_MODELS, C1_BITS = (421642, 11173962), (1, 5, 16)
# L1 looks at d <= 5 only (check_l1.cpp).
L1_MAX_BITS = 5


def recheck_grids(certs, reports):
    """Within a certificate: T1b's and L1's rows are e^ε × d and C1's m × d × n, each nested as
    its check loops (a deleted row shows). Across the audit: P1, T1b, T2b, T2c, R1 and L1 cover the
    same e^ε grid, L1 the d of T1b up to 5, C1 the same clients as T3's model sizes."""
    grids = {}
    if "T1b" in certs:
        rows = certs["T1b"]["data"]["rows"]
        exp_eps, bits = check_product(reports["T1b"], "data/rows", rows, ("exp_eps", "bits"))
        grids["T1b"], t1b_bits = exp_eps, bits
    if "L1" in certs:
        exp_eps, bits = check_product(reports["L1"], "data/rows", certs["L1"]["data"]["rows"], ("exp_eps", "bits"))
        grids["L1"] = exp_eps
        if "T1b" in certs:
            reports["L1"].equal("data/rows", bits, [d for d in t1b_bits if d <= L1_MAX_BITS], f"d grid {bits}")
    if "C1" in certs:
        rows = certs["C1"]["data"]["rows"]
        models, bits, clients = check_product(reports["C1"], "data/rows", rows, ("m", "d", "n"))
        reports["C1"].equal("data/rows", (tuple(models), tuple(bits)), (C1_MODELS, C1_BITS),
                            f"models {models} and d {bits}")
        if "T3" in certs:
            sizes = certs["T3"]["data"]["paper_model_sizes"]
            reports["C1"].equal("data/rows", clients, distinct(row["n"] for row in sizes),
                                f"clients {clients} (T3's model sizes use the grid's clients)")
    for claim, key in (("P1", "levels"), ("T2b", "rows"), ("T2c", "rows"), ("R1", "rows")):
        if claim in certs:
            grids[claim] = [row["exp_eps"] for row in certs[claim]["data"][key]]
    reference = next(iter(grids.items()), None)
    for claim, exp_eps in grids.items():
        reports[claim].expect([F(x) for x in exp_eps] == [F(x) for x in reference[1]], "data",
                              f"e^ε grid {short(exp_eps)} differs from {reference[0]}.json's {short(reference[1])}")
