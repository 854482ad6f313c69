// `corbin sweep`: one quantity over a grid of parameters, as CSV, for researchers' own plots.
//
//   corbin sweep --quantity mse --eps 0.1:7:50 --bits 0,1,5 --w 0.3 --w2 -0.2 > mse.csv
//   corbin sweep --quantity law_mse --mechanism ldp,pbm2,rqm3 --exp-eps 3:9:4 --w 0,1/2 > lone.csv
//
// A grid is a list "a,b,c" or a range "a:b:k" (k points from a to b, both included; exact
// rational steps). The budget axis is --eps (certified intervals; the CSV has the midpoint and
// the enclosure) or --exp-eps / --alpha (exact; the CSV also has the exact "p/q").
// With --mechanism, the quantities are a registered room's own answers (fl/registry.hpp): its
// lone client's law and MSE at w, its PLDP ratio against the e^ε it claims, its bits on the wire.
// CorBinQ's PLDP ratio without --mechanism is CorBin-FL's room's too.

#include <algorithm>
#include <iostream>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "corbin/fl/coordinate.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/baselines.hpp"
#include "corbin/privacy/ucdp.hpp"
#include "corbin/utility/pair_mse.hpp"
#include "options.hpp"
#include "sweep.hpp"

namespace corbin::cli {
namespace {

/// Points of one axis, and of the whole grid: the CSV is built in memory and printed only when
/// complete (a bad value half-way must not leave half a file), so the total bounds its size
/// (about 120 bytes a row: 120 MB at the limit).
constexpr std::size_t kMaxGridPoints = 1'000'000;

/// "a,b,c" -> {"a", "b", "c"} (empty items kept: the parser refuses them by name).
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

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
  for (const std::string& item : split_list(text)) out.push_back(parse_rational(item, option));
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


/// A PLDP ratio's cells: "inf" where some output has probability 0 at one input and not at
/// another, exact where the room computed the ratio exactly.
std::string ratio_cells(const fl::PldpSummary& p) {
  if (p.unbounded) return "inf,,inf,inf";
  return p.ratio_exact ? cells(*p.ratio_exact) : cells(p.ratio);
}

/// The e^ε a room claims, or four empty cells for one that claims none (SignSGD).
std::string bound_cells(const fl::PldpSummary& p) {
  if (!p.claimed) return ",,,";
  return p.bound_exact ? cells(*p.bound_exact) : cells(p.bound);
}

/// The rooms --mechanism names, one or a list "a,b"; the registry names the known ones when it
/// has no such room.
std::vector<const fl::Mechanism*> parse_mechanisms(const std::string& text) {
  std::vector<const fl::Mechanism*> out;
  for (const std::string& name : split_list(text)) out.push_back(&fl::Registry::global().find(name));
  return out;
}

/// The setting of a room's per-coordinate questions at one grid point.
fl::CoordinateSetting setting(const Budget& budget, const Rational& c, const Rational& r, unsigned long bits,
                              Variant variant) {
  fl::CoordinateSetting s;
  s.budget = budget;
  s.center = c;
  s.radius = r;
  s.bits = static_cast<unsigned>(bits);
  s.variant = variant;
  return s;
}

}  // namespace

void write_sweep(const SweepArgs& a, std::ostream& out, bool progress) {
  const std::string& q = a.quantity;
  const bool by_mechanism = !a.mechanism.empty(), wire = q == "wire_bits";
  const int budgets = !a.eps.empty() + !a.exp_eps.empty() + !a.alpha.empty();
  if (wire && budgets != 0)
    throw invalid_argument("the budget axis", "given", "absent for wire_bits (a room's bits on the wire do not depend on ε)");
  if (!wire && budgets != 1)
    throw invalid_argument("the budget axis", "missing or repeated", "exactly one of --eps, --exp-eps, --alpha");
  const Budget::Kind kind = !a.eps.empty() ? Budget::Kind::eps : !a.exp_eps.empty() ? Budget::Kind::exp_eps : Budget::Kind::alpha;
  const char* budget_option = !a.eps.empty() ? "--eps" : !a.exp_eps.empty() ? "--exp-eps" : "--alpha";
  const auto budget_values = wire ? std::vector<Rational>{}
                                  : parse_grid(!a.eps.empty() ? a.eps : !a.exp_eps.empty() ? a.exp_eps : a.alpha, budget_option);
  const auto bits = parse_grid(a.bits, "--bits"), w1s = parse_grid(a.w, "--w"), w2s = parse_grid(a.w2, "--w2");
  const auto ns = parse_grid(a.n, "--n"), gammas = parse_grid(a.gamma, "--gamma"),
             deltas = parse_grid(a.delta, "--delta"), ms = parse_grid(a.m, "--m");
  const Rational c = parse_rational(a.center, "--center"), r = parse_rational(a.radius, "--radius");
  const Rational sensitivity = parse_rational(a.sensitivity, "--sensitivity");
  check_radius(r);
  const Variant variant = parse_variant(a.variant);
  const bool pair = q == "mse" || q == "mse_optimal" || q == "mse_ldp" || q == "gap" || q == "paper_gap_bound";
  const bool per_bits = q == "sup_gap" || (q == "pldp_ratio" && !by_mechanism);
  const bool ucdp = q == "eps_u_printed" || q == "eps_u_cpsgd" || q == "eps_u_cpsgd_consistent_units";
  const bool noise = q == "gaussian_sigma" || q == "laplace_scale";
  const bool per_mechanism = q == "law" || q == "law_mse" || wire || (q == "pldp_ratio" && by_mechanism);
  if (!pair && !per_bits && !ucdp && !noise && !per_mechanism)
    throw invalid_argument("--quantity", quote(q),
                           "one of mse, mse_optimal, mse_ldp, gap, paper_gap_bound, sup_gap, pldp_ratio, "
                           "eps_u_printed, eps_u_cpsgd, eps_u_cpsgd_consistent_units, gaussian_sigma, laplace_scale, "
                           "law, law_mse, wire_bits");
  if (by_mechanism && !per_mechanism)
    throw invalid_argument("--mechanism", quote(a.mechanism),
                           "absent for " + q + " (a mechanism's quantities are law, law_mse, pldp_ratio, wire_bits)");
  if (per_mechanism && !by_mechanism)
    throw invalid_argument("--mechanism", "missing",
                           "a registered mechanism for " + q + " (one of " + fl::Registry::global().names() + ")");
  if (noise && kind != Budget::Kind::eps)
    throw invalid_argument(budget_option, "given", "--eps for gaussian_sigma and laplace_scale (they take ε)");
  if (per_mechanism && deltas.size() != 1)
    throw invalid_argument("--delta", quote(a.delta), "one value for " + q + " (the setting's δ: the Gaussian's calibration)");
  const auto mechanisms = by_mechanism ? parse_mechanisms(a.mechanism) : std::vector<const fl::Mechanism*>{};
  // A mechanism's w axis (its lone client's input), and its bits axis: CorBinQ's d, which only the
  // rooms whose clients pair take (the others get an empty cell, and one row, not copies).
  const bool w_axis = q == "law" || q == "law_mse";
  const bool bits_axis = !wire && std::any_of(mechanisms.begin(), mechanisms.end(), [](const fl::Mechanism* m) {
    return m->pairing() != fl::Pairing::alone;
  });
  // Validate every axis, and the grid's size, before anything is computed (the product of the
  // axes' sizes, checked factor by factor so that it cannot overflow).
  std::vector<std::size_t> axes;
  if (!wire) axes.push_back(budget_values.size());
  if (pair) axes.insert(axes.end(), {bits.size(), w1s.size(), w2s.size()});
  if (per_bits) axes.push_back(bits.size());
  if (ucdp) axes.insert(axes.end(), {ns.size(), gammas.size(), deltas.size(), ms.size()});
  if (noise) axes.push_back(q == "laplace_scale" ? 1 : deltas.size());
  if (per_mechanism) axes.insert(axes.end(), {mechanisms.size(), bits_axis ? bits.size() : 1, w_axis ? w1s.size() : 1});
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
  if (pair || w_axis)
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
  if (per_mechanism) {
    csv << "mechanism";
    if (!wire) csv << "," << budget_option + 2;
    if (bits_axis) csv << ",bits";
    if (w_axis) csv << ",w";
    if (q == "law") csv << ",output";
  } else {
    csv << budget_option + 2;
    if (pair || per_bits) csv << ",bits";
    if (pair) csv << ",w,w2";
    if (ucdp) csv << ",n,gamma,delta,m";
    if (q == "gaussian_sigma") csv << ",delta";
  }
  csv << "," << q << "," << q << "_exact," << q << "_lower," << q << "_upper";
  if (per_mechanism && q == "pldp_ratio") csv << ",bound,bound_exact,bound_lower,bound_upper";
  csv << "\n";
  std::size_t done = 0;
  const auto tick = [&] {
    if (progress && ++done % 64 == 0) std::cerr << "\rcorbin sweep: " << done << "/" << total << std::flush;
  };
  for (const fl::Mechanism* m : mechanisms) {
    // A room that takes no budget answers once for the whole budget axis (an empty cell), one
    // whose clients do not pair once for the bits axis.
    const bool budget_cells = !wire && m->takes_budget(), paired = bits_axis && m->pairing() != fl::Pairing::alone;
    for (std::size_t i = 0; i < (budget_cells ? budget_values.size() : 1); ++i) {
      const Budget budget = wire ? fl::CoordinateSetting{}.budget : Budget::make(kind, budget_values[i]);
      for (std::size_t j = 0; j < (paired ? d_values.size() : 1); ++j) {
        fl::CoordinateSetting s = setting(budget, c, r, paired ? d_values[j] : fl::CoordinateSetting{}.bits, variant);
        s.delta = deltas.front();
        PrecisionScope scope(default_precision_bits(s.bits));
        std::string prefix = m->name();
        if (!wire) prefix += "," + (budget_cells ? to_decimal(Real(budget_values[i]), 17) : std::string());
        if (bits_axis) prefix += "," + (paired ? std::to_string(s.bits) : std::string());
        if (wire) {
          csv << prefix << "," << cells(Rational(BigInt(m->bits_per_coordinate()))) << "\n";
        } else if (q == "pldp_ratio") {
          const fl::PldpSummary p = fl::answered_pldp(*m, s, "pldp_ratio");
          csv << prefix << "," << ratio_cells(p) << "," << bound_cells(p) << "\n";
        }
        for (const Rational& w : w_axis ? w1s : std::vector<Rational>{}) {
          const std::string at = prefix + "," + to_decimal(Real(w), 17);
          if (q == "law") {
            for (const fl::Atom& atom : fl::answered_law(*m, s, w, "law"))
              csv << at << "," << to_decimal(Real(atom.value), 17) << "," << cells(atom.prob) << "\n";
          } else {
            const fl::LoneMse x = fl::answered_mse(*m, s, w, "law_mse");
            csv << at << "," << (x.exact ? cells(*x.exact) : cells(x.enclosure)) << "\n";
          }
          tick();
        }
        if (!w_axis) tick();
      }
    }
  }
  const fl::Mechanism& corbin = fl::Registry::global().find("corbin");
  for (const Rational& value : per_mechanism ? std::vector<Rational>{} : budget_values) {
    const Budget budget = Budget::make(kind, value);
    const auto emit_row = [&](const std::string& prefix, const std::string& value_cells) {
      csv << to_decimal(Real(value), 17) << prefix << "," << value_cells << "\n";
      tick();
    };
    if (pair || per_bits) {
      for (const unsigned long d : d_values) {
        if (q == "pldp_ratio") {
          // CorBin-FL's room: a CorBinQ client's ratio, at the precision d shared bits need.
          PrecisionScope scope(default_precision_bits(d));
          emit_row("," + std::to_string(d), ratio_cells(fl::answered_pldp(corbin, setting(budget, c, r, d, variant), "pldp_ratio")));
          continue;
        }
        with_alpha(budget, default_precision_bits(d), [&](const auto& alpha) {
          if (q == "sup_gap") {
            emit_row("," + std::to_string(d), cells(sup_gap(alpha, c, r, d).value));
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
  if (progress) std::cerr << "\rcorbin sweep: " << total << "/" << total << " rows\n";
  out << csv.str() << std::flush;
  if (!out) throw invalid_argument("standard output", "unwritable", "a stream the CSV can be written to");
}

}  // namespace corbin::cli
