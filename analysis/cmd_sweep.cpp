// `corbin sweep`: one quantity over a grid of parameters, as CSV, for researchers' own plots.
//
//   corbin sweep --quantity mse --eps 0.1:7:50 --bits 0,1,5 --w 0.3 --w2 -0.2 > mse.csv
//
// A grid is a list "a,b,c" or a range "a:b:k" (k points from a to b, both included; exact
// rational steps). The budget axis is --eps (certified intervals; the CSV has the midpoint and
// the enclosure) or --exp-eps / --alpha (exact; the CSV also has the exact "p/q").

#include <unistd.h>

#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/baselines.hpp"
#include "corbin/privacy/pldp.hpp"
#include "corbin/privacy/ucdp.hpp"
#include "corbin/utility/pair_mse.hpp"
#include "options.hpp"

namespace corbin::cli {
namespace {

/// Points of one axis, and of the whole grid: the CSV is built in memory and printed only when
/// complete (a bad value half-way must not leave half a file), so the total bounds its size
/// (about 120 bytes a row: 120 MB at the limit).
constexpr std::size_t kMaxGridPoints = 1'000'000;

struct SweepArgs {
  std::string quantity, eps, exp_eps, alpha, bits = "5", w = "0", w2 = "0", center = "0", radius = "1",
                                                variant = "corrected", n = "50", gamma = "1/2",
                                                delta = "1e-5", m = "1", sensitivity = "2";
};

/// "a,b,c" or "a:b:k".
std::vector<Rational> parse_grid(const std::string& text, const char* option) {
  std::vector<Rational> out;
  const auto colon = text.find(':');
  if (colon != std::string::npos) {
    const auto second = text.find(':', colon + 1);
    if (second == std::string::npos)
      throw invalid_argument(option, quote(text), "a list a,b,c or a range a:b:k");
    const Rational a = parse_rational(text.substr(0, colon), option);
    const Rational b = parse_rational(text.substr(colon + 1, second - colon - 1), option);
    const unsigned long k = parse_count(text.substr(second + 1), option, kMaxGridPoints);
    if (k < 1) throw invalid_argument(option, quote(text), "a range with at least one point");
    for (unsigned long i = 0; i < k; ++i)
      out.push_back(k == 1 ? a : Rational(a + (b - a) * Rational(BigInt(i), BigInt(k - 1))));
    return out;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    out.push_back(parse_rational(text.substr(start, comma - start), option));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

/// An integer grid value in [0, limit], checked before any conversion (2^64 + 1 must not wrap to 1).
unsigned long as_count(const Rational& x, const char* option, unsigned long limit) {
  if (denominator(x) != 1 || x < 0 || x > Rational(BigInt(limit)))
    throw invalid_argument(option, to_string(x), "an integer in [0, " + std::to_string(limit) + "]");
  return numerator(x).convert_to<unsigned long>();
}

/// A value as CSV cells: decimal, exact (or empty), lower, upper.
std::string cells(const Rational& x) {
  const std::string d = to_decimal(Real(x), 17);
  return d + "," + to_string(x) + "," + d + "," + d;
}
std::string cells(const Interval& x) {
  return to_decimal(midpoint_of(x), 17) + ",," + to_decimal(lower_of(x), 17) + "," + to_decimal(upper_of(x), 17);
}

void run_sweep(const SweepArgs& a) {
  const int budgets = !a.eps.empty() + !a.exp_eps.empty() + !a.alpha.empty();
  if (budgets != 1) throw invalid_argument("the budget axis", "missing or repeated", "exactly one of --eps, --exp-eps, --alpha");
  const Budget::Kind kind = !a.eps.empty() ? Budget::Kind::eps : !a.exp_eps.empty() ? Budget::Kind::exp_eps : Budget::Kind::alpha;
  const char* budget_option = !a.eps.empty() ? "--eps" : !a.exp_eps.empty() ? "--exp-eps" : "--alpha";
  const auto budget_values = parse_grid(!a.eps.empty() ? a.eps : !a.exp_eps.empty() ? a.exp_eps : a.alpha, budget_option);
  const auto bits = parse_grid(a.bits, "--bits"), w1s = parse_grid(a.w, "--w"), w2s = parse_grid(a.w2, "--w2");
  const auto ns = parse_grid(a.n, "--n"), gammas = parse_grid(a.gamma, "--gamma"),
             deltas = parse_grid(a.delta, "--delta"), ms = parse_grid(a.m, "--m");
  const Rational c = parse_rational(a.center, "--center"), r = parse_rational(a.radius, "--radius");
  const Rational sensitivity = parse_rational(a.sensitivity, "--sensitivity");
  check_radius(r);
  const Variant variant = parse_variant(a.variant);
  const std::string& q = a.quantity;
  const bool pair = q == "mse" || q == "mse_optimal" || q == "mse_ldp" || q == "gap" || q == "paper_gap_bound";
  const bool per_bits = q == "sup_gap" || q == "pldp_ratio";
  const bool ucdp = q == "eps_u_printed" || q == "eps_u_cpsgd" || q == "eps_u_cpsgd_consistent_units";
  const bool noise = q == "gaussian_sigma" || q == "laplace_scale";
  if (!pair && !per_bits && !ucdp && !noise)
    throw invalid_argument("--quantity", quote(q),
                           "one of mse, mse_optimal, mse_ldp, gap, paper_gap_bound, sup_gap, pldp_ratio, "
                           "eps_u_printed, eps_u_cpsgd, eps_u_cpsgd_consistent_units, gaussian_sigma, laplace_scale");
  if (noise && kind != Budget::Kind::eps)
    throw invalid_argument(budget_option, "given", "--eps for gaussian_sigma and laplace_scale (they take ε)");
  // Validate every axis, and the grid's size, before anything is computed (the product of the
  // axes' sizes, checked factor by factor so that it cannot overflow).
  std::vector<std::size_t> axes{budget_values.size()};
  if (pair) axes.insert(axes.end(), {bits.size(), w1s.size(), w2s.size()});
  if (per_bits) axes.push_back(bits.size());
  if (ucdp) axes.insert(axes.end(), {ns.size(), gammas.size(), deltas.size(), ms.size()});
  if (noise) axes.push_back(q == "laplace_scale" ? 1 : deltas.size());
  std::size_t total = 1;
  for (const std::size_t axis : axes) {
    if (axis > kMaxGridPoints / total)
      throw invalid_argument("the grid", "larger than " + std::to_string(kMaxGridPoints) + " points in all",
                             "at most " + std::to_string(kMaxGridPoints) + " points (the product of the axes' sizes)");
    total *= axis;
  }
  std::vector<unsigned long> d_values, n_values, m_values;
  for (const Rational& x : bits) d_values.push_back(as_count(x, "--bits", kMaxBits));
  for (const Rational& x : ns) n_values.push_back(as_count(x, "--n", 1ul << 40));
  for (const Rational& x : ms) m_values.push_back(as_count(x, "--m", 1ul << 40));
  if (pair)
    for (const Rational& w1 : w1s) check_weight("--w", w1, c, r);
  if (pair)
    for (const Rational& w2 : w2s) check_weight("--w2", w2, c, r);
  for (const Rational& value : budget_values) {
    const Budget budget = Budget::make(kind, value);
    if (ucdp)
      for (const unsigned long n : n_values)
        for (const Rational& gamma : gammas)
          for (const Rational& delta : deltas)
            for (const unsigned long m : m_values) check_ucdp_setting({m, n, gamma, delta, r, budget});
    if (noise)
      for (const Rational& delta : deltas) check_calibration(value, delta, sensitivity);
  }
  std::ostringstream csv;
  csv << budget_option + 2;
  if (pair || per_bits) csv << ",bits";
  if (pair) csv << ",w,w2";
  if (ucdp) csv << ",n,gamma,delta,m";
  if (q == "gaussian_sigma") csv << ",delta";
  csv << "," << q << "," << q << "_exact," << q << "_lower," << q << "_upper\n";
  const bool tty = isatty(2);
  std::size_t done = 0;
  for (const Rational& value : budget_values) {
    const Budget budget = Budget::make(kind, value);
    const auto emit_row = [&](const std::string& prefix, const std::string& value_cells) {
      csv << to_decimal(Real(value), 17) << prefix << "," << value_cells << "\n";
      if (tty && ++done % 64 == 0) std::cerr << "\rcorbin sweep: " << done << "/" << total << std::flush;
    };
    if (pair || per_bits) {
      for (const unsigned long d : d_values) {
        with_alpha(budget, default_precision_bits(d), [&](const auto& alpha) {
          if (per_bits) {
            if (q == "sup_gap") {
              emit_row("," + std::to_string(d), cells(sup_gap(alpha, c, r, d).value));
            } else {
              const auto p = corbinq_pldp(alpha, c, r, d, variant);
              emit_row("," + std::to_string(d), p.unbounded ? std::string("inf,,inf,inf") : cells(p.ratio));
            }
            return;
          }
          for (const Rational& w1 : w1s)
            for (const Rational& w2 : w2s) {
              const auto u = pair_utility(alpha, c, r, w1, w2, d, variant);
              const auto& x = q == "mse" ? u.mse : q == "mse_optimal" ? u.mse_optimal : q == "mse_ldp" ? u.mse_ldp
                              : q == "gap" ? u.gap : u.paper_gap_bound;
              emit_row("," + std::to_string(d) + "," + to_decimal(Real(w1), 17) + "," + to_decimal(Real(w2), 17), cells(x));
            }
        });
      }
    } else if (ucdp) {
      PrecisionScope scope(128);
      for (const unsigned long n : n_values)
        for (const Rational& gamma : gammas)
          for (const Rational& delta : deltas)
            for (const unsigned long m : m_values) {
              const UcdpSetting s{m, n, gamma, delta, r, budget};
              const UcdpFormula f = q == "eps_u_printed" ? theorem3_printed(s)
                                                         : theorem3_cpsgd(s, q == "eps_u_cpsgd_consistent_units");
              emit_row("," + std::to_string(n) + "," + to_decimal(Real(gamma), 17) + "," +
                           to_decimal(Real(delta), 17) + "," + std::to_string(m),
                       cells(f.eps_u));
            }
    } else {
      PrecisionScope scope(256);
      for (const Rational& delta : deltas) {
        if (q == "laplace_scale") {
          emit_row("", cells(laplace_scale(value, sensitivity)));
          break;
        }
        const Real sigma = agm_sigma(value, delta, sensitivity);
        emit_row("," + to_decimal(Real(delta), 17), cells(interval_hull(sigma, sigma)));
      }
    }
  }
  if (tty) std::cerr << "\rcorbin sweep: " << total << "/" << total << " rows\n";
  std::cout << csv.str() << std::flush;
  if (!std::cout) throw invalid_argument("standard output", "unwritable", "a stream the CSV can be written to");
}

}  // namespace

void add_sweep(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  auto* cmd = app.add_subcommand("sweep", "CSV of one quantity over a grid of parameters");
  cmd->add_option("--quantity", args->quantity,
                  "mse | mse_optimal | mse_ldp | gap | paper_gap_bound | sup_gap | pldp_ratio | eps_u_printed | "
                  "eps_u_cpsgd | eps_u_cpsgd_consistent_units | gaussian_sigma | laplace_scale")
      ->required();
  cmd->add_option("--eps", args->eps, "grid of ε (a,b,c or a:b:k)");
  cmd->add_option("--exp-eps", args->exp_eps, "grid of e^ε (exact)");
  cmd->add_option("--alpha", args->alpha, "grid of α (exact)");
  cmd->add_option("--bits", args->bits, "grid of d (default 5)");
  cmd->add_option("--w", args->w, "grid of the leader's weight (default 0)");
  cmd->add_option("--w2", args->w2, "grid of the follower's weight (default 0)");
  cmd->add_option("--center", args->center, "center c (default 0)");
  cmd->add_option("--radius", args->radius, "radius r (default 1)");
  cmd->add_option("--variant", args->variant, "CorBinQ variant (default corrected)");
  cmd->add_option("--n", args->n, "grid of n (UCDP quantities; default 50)");
  cmd->add_option("--gamma", args->gamma, "grid of γ (default 1/2)");
  cmd->add_option("--delta", args->delta, "grid of δ (default 1e-5)");
  cmd->add_option("--m", args->m, "grid of m (default 1)");
  cmd->add_option("--sensitivity", args->sensitivity, "sensitivity for the noise quantities (default 2)");
  cmd->callback([args] { run_sweep(*args); });
}

}  // namespace corbin::cli
