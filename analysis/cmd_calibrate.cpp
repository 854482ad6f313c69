// `corbin calibrate gaussian|laplace`: the noise of the paper's baselines for (ε, δ) at a given
// sensitivity, with the MSE each adds per coordinate.

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/quantizer/budget.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct CalibrateArgs {
  std::string mechanism, eps, delta = "1e-5", sensitivity = "2";
  bool json = false;
};

Interval point(const Real& x) { return interval_hull(x, x); }

void run_calibrate(const CalibrateArgs& a) {
  const Rational eps = parse_rational(a.eps, "--eps");
  const Rational delta = parse_rational(a.delta, "--delta");
  const Rational sensitivity = parse_rational(a.sensitivity, "--sensitivity");
  check_calibration(eps, delta, sensitivity);
  PrecisionScope scope(256);
  Json out = Json::object();
  out["mechanism"] = a.mechanism;
  put(out, "eps", eps);
  put(out, "sensitivity", sensitivity);
  if (a.mechanism == "gaussian") {
    put(out, "delta", delta);
    const Real sigma = agm_sigma(eps, delta, sensitivity);
    put(out, "sigma", point(sigma));
    put(out, "delta_at_sigma", point(agm_delta(sigma, eps, sensitivity)));
    put(out, "mse", point(Real(sigma * sigma)));
    const ClassicSigma classic = classic_gaussian_sigma(eps, delta, sensitivity);
    put(out, "sigma_classic", point(classic.sigma));
    out["sigma_classic_valid"] = classic.valid;  // the classic bound needs ε < 1
  } else if (a.mechanism == "laplace") {
    const Rational b = laplace_scale(eps, sensitivity);
    put(out, "scale", b);
    put(out, "mse", Rational(2 * b * b));
  } else {
    throw invalid_argument("mechanism", quote(a.mechanism), "gaussian or laplace");
  }
  // LDPQ at the same ε as a PLDP budget, with r = Δ/2 (the paper's Δ = 2r): its largest MSE,
  // at w = c, is (rα)² with α = (e^ε + 1)/(e^ε − 1).
  // Past Budget::kMaxAlphaEps no α is made from ε (its 1.44ε bits; beyond kMaxEps e^ε leaves
  // MPFR's range): the noise's scale alone is printed.
  if (eps <= Budget::kMaxAlphaEps) {
    const Interval alpha = Budget::make(Budget::Kind::eps, eps).alpha_interval();
    const Interval level = Interval(interval_from(Rational(sensitivity / 2)) * alpha);
    put(out, "ldpq_mse_max_same_eps", Interval(level * level));
  } else {
    out["ldpq_mse_max_same_eps"] = nullptr;
  }
  emit(std::cout, out, a.json);
}

}  // namespace

void add_calibrate(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  auto* cmd = app.add_subcommand("calibrate", "noise of the Gaussian (analytic) or Laplace baseline");
  cmd->add_option("mechanism", args->mechanism, "gaussian | laplace")->required();
  cmd->add_option("--eps", args->eps, "ε > 0")->required();
  cmd->add_option("--delta", args->delta, "δ in (0, 1) (gaussian; default 1e-5)");
  cmd->add_option("--sensitivity", args->sensitivity, "sensitivity Δ > 0 (default 2 = 2r at r = 1)");
  cmd->add_flag("--json", args->json, "one JSON object on stdout");
  cmd->callback([args] { run_calibrate(*args); });
}

}  // namespace corbin::cli
