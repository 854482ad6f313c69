"""G1 (the Gaussian baseline's PLDP, check_g1.cpp): its witnesses' exact log density ratios."""
from .exact import rat
from .readings import recheck_witnessed
from .schema import RADIUS_POSITIVE, WITNESS, list_of, obj, put, rational, rational_where


WITNESS_SCHEMAS = {
    "gaussian_ratio": obj({**put("eps", spec=rational_where(lambda e: e > 0, "ε > 0")),
                           **put("sigma", spec=rational_where(lambda s: s > 0, "σ > 0")), "center": rational,
                           "radius": RADIUS_POSITIVE, **put("y", "log_density_ratio")}),
}


DATA = {
    "G1": obj({"witnesses": list_of(WITNESS)}),
}


def witness_gaussian(report, w, path):
    """Gaussian noise σ on inputs c + r and c − r: log density ratio at y, ((y − c + r)² − (y − c − r)²)/(2σ²)."""
    c, r, sigma, y, e = rat(w["center"]), rat(w["radius"]), rat(w["sigma"]), rat(w["y"]), rat(w["eps"])
    report.expect(sigma > 0 and r > 0, path, "σ and r must be positive")
    log_ratio = ((y - (c - r)) ** 2 - (y - (c + r)) ** 2) / (2 * sigma * sigma)
    report.equal(f"{path}/log_density_ratio", rat(w["log_density_ratio"]), log_ratio, w["log_density_ratio"])
    return log_ratio > e


WITNESS_RECHECKS = {"gaussian_ratio": witness_gaussian}
RECHECKS = {"G1": recheck_witnessed}
