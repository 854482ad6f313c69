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
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>

#include "commands.hpp"
#include "corbin/fl/coordinate.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/privacy/formulas/ucdp.hpp"
#include "corbin/utility/pair_mse.hpp"
#include "options.hpp"
#include "sweep.hpp"

namespace corbin::cli {
namespace {

/// Points of one axis, and of the whole grid: the CSV is built in memory and printed only when
/// complete (a bad value half-way must not leave half a file), so the total bounds its size
/// (about 120 bytes a row: 120 MB at the limit).
constexpr std::size_t kMaxGridPoints = 1'000'000;

/// "a:b:k:log": k points from a to b, equally spaced in log, each but the ends rounded to 6
/// significant digits and then exact as printed (a grid value is an exact input, and a decimal
/// a person can read). 0 < a < b, both within double's range.
std::vector<Rational> parse_log_grid(const std::string& text, const std::string& range, const char* option) {
  const auto colon = range.find(':'), second = range.find(':', colon + 1);
  if (colon == std::string::npos || second == std::string::npos)
    throw invalid_argument(option, quote(text), "a list a,b,c, a range a:b:k or a log range a:b:k:log");
  const Rational a = parse_rational(range.substr(0, colon), option);
  const Rational b = parse_rational(range.substr(colon + 1, second - colon - 1), option);
  const unsigned long k = parse_count(range.substr(second + 1), option, kMaxGridPoints, 2);
  const double la = std::log(to_double(a)), lb = std::log(to_double(b));
  if (!(a > 0) || !(a < b) || !std::isfinite(la) || !std::isfinite(lb))
    throw invalid_argument(option, quote(text), "a log range a:b:k:log with 0 < a < b, both in [1e-300, 1e300], k >= 2");
  std::vector<Rational> out = {a};
  for (unsigned long i = 1; i + 1 < k; ++i) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%.6g",
                  std::exp(la + (lb - la) * static_cast<double>(i) / static_cast<double>(k - 1)));
    const Rational x = parse_rational(digits, option);
    if (x > out.back() && x < b) out.push_back(x);  // rounding may merge close points: kept once
  }
  out.push_back(b);
  return out;
}

/// "a,b,c", "a:b:k" or "a:b:k:log".
std::vector<Rational> parse_grid(const std::string& text, const char* option) {
  constexpr std::string_view kLog = ":log";
  if (text.size() > kLog.size() && text.compare(text.size() - kLog.size(), kLog.size(), kLog) == 0)
    return parse_log_grid(text, text.substr(0, text.size() - kLog.size()), option);
  std::vector<Rational> out;
  const auto colon = text.find(':');
  if (colon != std::string::npos) {
    const auto second = text.find(':', colon + 1);
    if (second == std::string::npos)
      throw invalid_argument(option, quote(text), "a list a,b,c, a range a:b:k or a log range a:b:k:log");
    const Rational a = parse_rational(text.substr(0, colon), option);
    const Rational b = parse_rational(text.substr(colon + 1, second - colon - 1), option);
    const unsigned long k = parse_count(text.substr(second + 1), option, kMaxGridPoints, 1);  // its points
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

/// A value as the check needs it: exact, or its enclosure's ends as exact rationals (read inside
/// the precision scope that computed it, so that no copy can round them inward).
Enclosed enclosed(const Rational& x) { return {x, interval_from(x), x, x, false}; }
Enclosed enclosed(const Interval& x) {
  return {std::nullopt, x, to_rational(lower_of(x)), to_rational(upper_of(x)), false};
}
Enclosed enclosed(const fl::MseValue& x) { return x.exact ? enclosed(*x.exact) : enclosed(x.enclosure); }
Enclosed unbounded_value() {
  Enclosed e;
  e.unbounded = true;
  return e;
}
Enclosed ratio_of(const fl::PldpSummary& p) {
  if (p.unbounded) return unbounded_value();
  return p.ratio_exact ? enclosed(*p.ratio_exact) : enclosed(p.ratio);
}

/// The sweep's options, parsed and validated: every axis of the grid, and what the quantity takes.
struct Plan {
  std::string q;
  bool by_mechanism = false, wire = false, pair = false, per_bits = false, ucdp = false, noise = false,
       per_mechanism = false, w_axis = false, bits_axis = false, aggregate = false;
  /// Whether the grid has a budget axis: not for wire_bits, nor for rooms none of which takes a
  /// budget (CQ, vanilla, SignSGD).
  bool budgeted = true;
  Budget::Kind kind = Budget::Kind::exp_eps;
  const char* budget_option = "--exp-eps";
  std::vector<Rational> budget_values, w1s, w2s, gammas, deltas;
  std::vector<Rational> weights;  ///< aggregate_mse's inputs; empty: the worst case over inputs
  std::vector<unsigned long> d_values, n_values, m_values;
  Rational c, r, sensitivity;
  Variant variant = Variant::corrected;
  std::vector<const fl::Mechanism*> mechanisms;
  std::size_t total = 1;
};

/// One point of the grid.
struct Point {
  Rational budget_value;  ///< ε, e^ε or α as given (the noise quantities take ε itself)
  Budget budget = fl::CoordinateSetting{}.budget;
  unsigned long d = fl::CoordinateSetting{}.bits, n = 0, m = 0;
  Rational w1, w2, gamma, delta;
  const fl::Mechanism* mechanism = nullptr;
};

/// Whether some room of the plan reads `parameter` of its setting (Mechanism::reads: each room
/// declares what it reads, so that e.g. δ is the Gaussian's alone).
bool some_room_reads(const Plan& p, fl::SettingParameter parameter) {
  return std::any_of(p.mechanisms.begin(), p.mechanisms.end(),
                     [&](const fl::Mechanism* m) { return m->reads(parameter); });
}

/// The setting parameter an option of a mechanism's quantity sets, if it is one that some rooms
/// do not read.
std::optional<fl::SettingParameter> setting_parameter(const std::string& option) {
  if (option == "--bits") return fl::SettingParameter::bits;
  if (option == "--variant") return fl::SettingParameter::variant;
  if (option == "--gamma") return fl::SettingParameter::gamma;
  if (option == "--delta") return fl::SettingParameter::delta;
  return std::nullopt;
}

/// Whether the plan's quantity reads `option` (one the user gave).
bool plan_uses(const Plan& p, const SweepArgs& a, const std::string& option) {
  const std::string& q = p.q;
  const bool setting = p.per_mechanism && !p.wire;  // a mechanism's setting: c, r, d, variant, γ, δ
  // CorBinQ's d and variant, AugCorBin-FL's γ, the Gaussian's δ: read where some room reads them.
  const auto read = [&](fl::SettingParameter parameter) { return setting && some_room_reads(p, parameter); };
  if (option == "--bits") return p.pair || p.per_bits || read(fl::SettingParameter::bits);
  if (option == "--w") return p.pair || q == "law" || q == "law_mse";
  if (option == "--w2") return p.pair;
  if (option == "--center") return p.pair || p.per_bits || setting;
  if (option == "--radius") return p.pair || p.per_bits || setting || p.ucdp || (p.noise && a.sensitivity.empty());
  if (option == "--variant")
    return p.pair || (q == "pldp_ratio" && !p.by_mechanism) || read(fl::SettingParameter::variant);
  if (option == "--n") return p.ucdp || (p.aggregate && a.weights.empty());  // n is the inputs' count
  if (option == "--gamma") return p.ucdp || (p.aggregate && read(fl::SettingParameter::gamma));
  if (option == "--weights") return p.aggregate;
  if (option == "--m") return p.ucdp;
  if (option == "--delta") return p.ucdp || q == "gaussian_sigma" || read(fl::SettingParameter::delta);
  if (option == "--sensitivity") return p.noise;
  return true;  // the quantity, the mechanism and the budget are checked in make_plan
}

/// The rule an unread option breaks: a room's setting parameter that none of the rooms asked
/// reads is named with the rooms, any other with the quantity.
std::string unused_rule(const Plan& p, const SweepArgs& a, const std::string& option, const std::string& quantity) {
  if (p.per_mechanism && !p.wire && setting_parameter(option))
    return "absent for --mechanism " + a.mechanism + ", which " +
           (p.mechanisms.size() == 1 ? "does" : "do") + " not read it";
  return "absent for " + quantity + ", which does not use it";
}

/// Parses and validates every option before anything is computed (bad input names its option).
Plan make_plan(const SweepArgs& a) {
  Plan p;
  const std::string& q = p.q = a.quantity;
  p.by_mechanism = !a.mechanism.empty();
  p.wire = q == "wire_bits";
  const bool by_mechanism = p.by_mechanism, wire = p.wire;
  const int budgets = !a.eps.empty() + !a.exp_eps.empty() + !a.alpha.empty();
  p.mechanisms = by_mechanism ? parse_mechanisms(a.mechanism) : std::vector<const fl::Mechanism*>{};
  const bool some_budget = std::any_of(p.mechanisms.begin(), p.mechanisms.end(),
                                       [](const fl::Mechanism* m) { return m->takes_budget(); });
  p.budgeted = !wire && (!by_mechanism || some_budget);
  if (wire && budgets != 0)
    throw invalid_argument("the budget axis", "given", "absent for wire_bits (a room's bits on the wire do not depend on ε)");
  if (!wire && !p.budgeted && budgets != 0)
    throw invalid_argument("the budget axis", "given", "absent for " + a.mechanism + ", which takes no budget");
  if (p.budgeted && budgets != 1)
    throw invalid_argument("the budget axis", "missing or repeated", "exactly one of --eps, --exp-eps, --alpha");
  p.kind = !a.eps.empty() ? Budget::Kind::eps : !a.exp_eps.empty() ? Budget::Kind::exp_eps : Budget::Kind::alpha;
  p.budget_option = !a.eps.empty() ? "--eps" : !a.exp_eps.empty() ? "--exp-eps" : "--alpha";
  const char* budget_option = p.budget_option;
  p.budget_values = !p.budgeted ? std::vector<Rational>{}
                         : parse_grid(!a.eps.empty() ? a.eps : !a.exp_eps.empty() ? a.exp_eps : a.alpha, budget_option);
  const auto bits = parse_grid(a.bits, "--bits"), ns = parse_grid(a.n, "--n"), ms = parse_grid(a.m, "--m");
  p.w1s = parse_grid(a.w, "--w");
  p.w2s = parse_grid(a.w2, "--w2");
  p.gammas = parse_grid(a.gamma, "--gamma");
  p.deltas = parse_grid(a.delta, "--delta");
  p.c = parse_rational(a.center, "--center");
  p.r = parse_rational(a.radius, "--radius");
  check_radius(p.r);
  // The noise's sensitivity follows the range, as law_mse's Gaussian does: 2r unless given.
  p.sensitivity = a.sensitivity.empty() ? Rational(2) * p.r : parse_rational(a.sensitivity, "--sensitivity");
  p.variant = parse_variant(a.variant);
  const bool pair = p.pair = q == "mse" || q == "mse_optimal" || q == "mse_ldp" || q == "gap" || q == "paper_gap_bound";
  const bool per_bits = p.per_bits = q == "sup_gap" || (q == "pldp_ratio" && !by_mechanism);
  const bool ucdp = p.ucdp = q == "eps_u_printed" || q == "eps_u_cpsgd" || q == "eps_u_cpsgd_consistent_units";
  const bool noise = p.noise = q == "gaussian_sigma" || q == "laplace_scale";
  const bool aggregate = p.aggregate = q == "aggregate_mse";
  const bool per_mechanism = p.per_mechanism =
      q == "law" || q == "law_mse" || wire || aggregate || (q == "pldp_ratio" && by_mechanism);
  if (!pair && !per_bits && !ucdp && !noise && !per_mechanism)
    throw invalid_argument("--quantity", quote(q),
                           "one of mse, mse_optimal, mse_ldp, gap, paper_gap_bound, sup_gap, pldp_ratio, "
                           "eps_u_printed, eps_u_cpsgd, eps_u_cpsgd_consistent_units, gaussian_sigma, laplace_scale, "
                           "law, law_mse, aggregate_mse, wire_bits");
  if (by_mechanism && !per_mechanism)
    throw invalid_argument("--mechanism", quote(a.mechanism),
                           "absent for " + q + " (a mechanism's quantities are law, law_mse, aggregate_mse, pldp_ratio, "
                           "wire_bits)");
  if (per_mechanism && !by_mechanism)
    throw invalid_argument("--mechanism", "missing",
                           "a registered mechanism for " + q + " (one of " + fl::Registry::global().names() + ")");
  if (noise && p.kind != Budget::Kind::eps)
    throw invalid_argument(budget_option, "given", "--eps for gaussian_sigma and laplace_scale (they take ε)");
  if (aggregate && a.given.count("--weights") > 0 && a.given.count("--n") > 0)
    throw invalid_argument("--n", "given", "absent with --weights (n is the inputs' count)");
  // A mechanism's w axis (its lone client's input), and its bits axis: CorBinQ's d, which only the
  // rooms whose clients pair take (the others get an empty cell, and one row, not copies).
  p.w_axis = q == "law" || q == "law_mse";
  p.bits_axis = !wire && some_room_reads(p, fl::SettingParameter::bits);
  // Every option given must be one this quantity reads: an ignored option (`--n` for law_mse,
  // `--radius` where the sensitivity is given) would answer another question than the one asked.
  for (const std::string& option : a.given)
    if (!plan_uses(p, a, option)) throw invalid_argument(option, "given", unused_rule(p, a, option, q));
  if (per_mechanism && p.deltas.size() != 1)
    throw invalid_argument("--delta", quote(a.delta), "one value for " + q + " (the setting's δ: the Gaussian's calibration)");
  if (aggregate && p.gammas.size() != 1)
    throw invalid_argument("--gamma", quote(a.gamma), "one value for aggregate_mse (AugCorBin-FL's LDPQ share)");
  if (aggregate) fl::check_gamma(p.gammas.front());
  // Validate every axis, and the grid's size, before anything is computed (the product of the
  // axes' sizes, checked factor by factor so that it cannot overflow).
  std::vector<std::size_t> axes;
  if (p.budgeted) axes.push_back(p.budget_values.size());
  if (pair) axes.insert(axes.end(), {bits.size(), p.w1s.size(), p.w2s.size()});
  if (per_bits) axes.push_back(bits.size());
  if (ucdp) axes.insert(axes.end(), {ns.size(), p.gammas.size(), p.deltas.size(), ms.size()});
  if (noise) axes.push_back(q == "laplace_scale" ? 1 : p.deltas.size());
  if (per_mechanism)
    axes.insert(axes.end(), {p.mechanisms.size(), p.bits_axis ? bits.size() : 1, p.w_axis ? p.w1s.size() : 1,
                             aggregate ? ns.size() : 1});
  for (const std::size_t axis : axes) {
    if (axis > kMaxGridPoints / p.total)
      throw invalid_argument("the grid", "larger than " + std::to_string(kMaxGridPoints) + " points in all",
                             "at most " + std::to_string(kMaxGridPoints) + " points (the product of the axes' sizes)");
    p.total *= axis;
  }
  for (const Rational& x : bits) p.d_values.push_back(as_count(x, "--bits", kMaxBits));
  for (const Rational& x : ns) {
    p.n_values.push_back(as_count(x, "--n", 1ul << 40));
    if (p.n_values.back() == 0) throw invalid_argument("--n", "0", "at least 1 client");
  }
  for (const Rational& x : ms) p.m_values.push_back(as_count(x, "--m", 1ul << 40));
  if (aggregate && (!a.weights.empty() || a.given.count("--weights") > 0)) {
    // One set of inputs; n is their count.
    if (a.weights.empty()) throw invalid_argument("--weights", "empty", "at least one client's input");
    p.weights = parse_grid(a.weights, "--weights");
    for (const fl::Mechanism* m : p.mechanisms) fl::check_input_count(*m, p.weights);
    for (const Rational& w : p.weights) check_weight("--weights", w, p.c, p.r);
    p.n_values = {p.weights.size()};
  }
  if (pair || p.w_axis)
    for (const Rational& w1 : p.w1s) check_weight("--w", w1, p.c, p.r);
  if (pair)
    for (const Rational& w2 : p.w2s) check_weight("--w2", w2, p.c, p.r);
  for (const Rational& value : p.budget_values) {
    const Budget budget = Budget::make(p.kind, value);
    if (ucdp)
      for (const unsigned long n : p.n_values)
        for (const Rational& gamma : p.gammas)
          for (const Rational& delta : p.deltas)
            for (const unsigned long m : p.m_values) check_ucdp_setting({m, n, gamma, delta, p.r, budget});
    if (noise)
      for (const Rational& delta : p.deltas) check_calibration(value, delta, p.sensitivity);
  }
  return p;
}

/// The quantity at one point: the one dispatch that the sweep and the check share. `claimed`
/// receives a room's claimed e^ε for its pldp_ratio (nothing for a room that claims none). The
/// law (a distribution, not a number) is the sweep's alone.
Enclosed evaluate(const Plan& p, const Point& x, std::optional<Enclosed>* claimed = nullptr) {
  const std::string& q = p.q;
  if (x.mechanism != nullptr) {
    const fl::Mechanism& m = *x.mechanism;
    fl::CoordinateSetting s = setting(x.budget, p.c, p.r, x.d, p.variant);
    s.delta = x.delta;
    PrecisionScope scope(x.budget.precision_bits(s.bits));
    if (p.wire) return enclosed(Rational(BigInt(m.bits_per_coordinate())));
    if (p.aggregate) {
      // The worst case over every client's input, or the value at the given inputs, with the
      // room's own pairing (CorBin-FL's pairs, AugCorBin-FL's ⌊γn⌋ lone clients first; at given
      // inputs over the server's random order too): none where the room does not know it.
      s.gamma = p.gammas.front();
      const std::optional<fl::MseValue> value =
          p.weights.empty() ? fl::worst_aggregate(m, s, x.n) : m.aggregate_mse_at(s, p.weights);
      if (!value) {
        Enclosed none;
        none.unknown = true;
        return none;
      }
      return enclosed(*value);
    }
    if (q == "pldp_ratio") {
      const fl::PldpSummary summary = fl::answered_pldp(m, s, "pldp_ratio");
      if (claimed != nullptr && summary.claimed)
        *claimed = summary.bound_exact ? enclosed(*summary.bound_exact) : enclosed(summary.bound);
      return ratio_of(summary);
    }
    return enclosed(fl::answered_mse(m, s, x.w1, "law_mse"));
  }
  if (q == "pldp_ratio") {
    // CorBin-FL's room: a CorBinQ client's ratio, at the precision d shared bits need.
    PrecisionScope scope(x.budget.precision_bits(x.d));
    return ratio_of(fl::answered_pldp(fl::Registry::global().find("corbin"),
                                      setting(x.budget, p.c, p.r, x.d, p.variant), "pldp_ratio"));
  }
  Enclosed out;
  if (p.pair || p.per_bits) {
    with_alpha(x.budget, x.budget.precision_bits(x.d), [&](const auto& alpha) {
      if (q == "sup_gap") {
        out = enclosed(sup_gap(alpha, p.c, p.r, x.d).value);
        return;
      }
      const auto u = pair_utility(alpha, p.c, p.r, x.w1, x.w2, x.d, p.variant);
      out = enclosed(q == "mse" ? u.mse : q == "mse_optimal" ? u.mse_optimal : q == "mse_ldp" ? u.mse_ldp
                     : q == "gap" ? u.gap : u.paper_gap_bound);
    });
    return out;
  }
  if (p.ucdp) {
    PrecisionScope scope(128);
    const UcdpSetting s{x.m, x.n, x.gamma, x.delta, p.r, x.budget};
    return enclosed((q == "eps_u_printed" ? theorem3_printed(s) : theorem3_cpsgd(s, q == "eps_u_cpsgd_consistent_units")).eps_u);
  }
  PrecisionScope scope(256);
  if (q == "laplace_scale") return enclosed(laplace_scale(x.budget_value, p.sensitivity));
  const Real sigma = agm_sigma(x.budget_value, x.delta, p.sensitivity);
  return enclosed(interval_hull(sigma, sigma));
}

/// A value's CSV cells: decimal, exact (or empty), lower, upper; "inf" for an unbounded ratio.
std::string cells(const Enclosed& x) {
  if (x.unknown) return ",,,";
  if (x.unbounded) return "inf,,inf,inf";
  return x.exact ? cells(*x.exact) : cells(x.enclosure);
}

}  // namespace

Enclosed evaluate_at(const SweepArgs& args) {
  const Plan p = make_plan(args);
  if (p.q == "law")
    throw invalid_argument("--quantity", quote(p.q), "a number (law is a distribution: `corbin sweep` prints it)");
  if (p.total != 1 || p.mechanisms.size() > 1 || p.w1s.size() > 1 || p.w2s.size() > 1 || p.d_values.size() > 1 ||
      p.n_values.size() > 1 || p.m_values.size() > 1 || p.gammas.size() > 1 || p.deltas.size() > 1)
    throw invalid_argument("the parameters", "a grid", "one value each (a single point)");
  Point x;
  x.w1 = p.w1s.front();
  x.w2 = p.w2s.front();
  x.gamma = p.gammas.front();
  x.delta = p.deltas.front();
  x.n = p.n_values.front();
  x.m = p.m_values.front();
  x.mechanism = p.mechanisms.empty() ? nullptr : p.mechanisms.front();
  const bool paired = x.mechanism == nullptr || x.mechanism->pairing() != fl::Pairing::alone;
  if (paired) x.d = p.d_values.front();
  if (p.budgeted) {
    x.budget_value = p.budget_values.front();
    x.budget = Budget::make(p.kind, x.budget_value);
  }
  const Enclosed value = evaluate(p, x);
  if (value.unknown)
    throw invalid_argument("--mechanism", quote(x.mechanism->name()),
                           "one whose " + p.q + " is known (its room answers none)");
  return value;
}

namespace {

/// One parameter the quantity read that is no axis of the grid: a column of its own, right before
/// the value columns, so that every row records the setting it was computed at (r, γ, δ, the
/// variant, …, exact; the axes are columns already). A room's own parameter is empty in the rows of the
/// rooms that do not read it, as the bits column is.
struct ParameterColumn {
  std::string name, cell;
  std::optional<fl::SettingParameter> room_reads;  ///< per mechanism: empty where the room does not read it
};

std::vector<ParameterColumn> parameter_columns(const Plan& p, const SweepArgs& a) {
  // Exact ("1/3", not 0.33333333333333333): a row's setting given back to the sweep or the module
  // reproduces the row (⌊γn⌋ at γ = 1/3, n = 3 is 1; at the decimal it would be 0).
  const auto exact = [](const Rational& x) { return to_string(x); };
  // The axes among these: γ and δ for Theorem 3's ε_u, δ for the Gaussian's σ.
  const bool gamma_axis = p.ucdp, delta_axis = p.ucdp || p.q == "gaussian_sigma";
  std::string weights = a.weights;  // as given (a list or a range), one cell: commas as spaces
  std::replace(weights.begin(), weights.end(), ',', ' ');
  const std::vector<ParameterColumn> all = {
      {"center", exact(p.c), std::nullopt},
      {"radius", exact(p.r), std::nullopt},
      {"variant", to_string(p.variant), fl::SettingParameter::variant},
      {"gamma", gamma_axis ? "" : exact(p.gammas.front()), fl::SettingParameter::gamma},
      {"delta", delta_axis ? "" : exact(p.deltas.front()), fl::SettingParameter::delta},
      {"sensitivity", exact(p.sensitivity), std::nullopt},
      {"weights", weights, std::nullopt}};
  std::vector<ParameterColumn> out;
  for (ParameterColumn column : all) {
    if ((column.name == "gamma" && gamma_axis) || (column.name == "delta" && delta_axis)) continue;
    if (column.name == "weights" && p.weights.empty()) continue;  // the worst case: n is the axis
    if (!plan_uses(p, a, "--" + column.name)) continue;
    if (!p.per_mechanism) column.room_reads.reset();  // one question, one setting
    out.push_back(std::move(column));
  }
  return out;
}

/// The parameter cells of a row of room `m` (null: not a mechanism's quantity), each after a comma.
std::string parameter_cells(const std::vector<ParameterColumn>& columns, const fl::Mechanism* m) {
  std::string cells;
  for (const ParameterColumn& c : columns)
    cells += "," + (m != nullptr && c.room_reads && !m->reads(*c.room_reads) ? std::string() : c.cell);
  return cells;
}

}  // namespace

SweepHeader sweep_points(const SweepArgs& a, const std::function<bool(std::size_t)>& want,
                         const std::function<void(std::size_t, const std::string&)>& emit, bool progress) {
  const Plan p = make_plan(a);
  const std::string& q = p.q;
  const bool w_axis = p.w_axis, bits_axis = p.bits_axis, per_mechanism = p.per_mechanism;
  const std::vector<ParameterColumn> parameters = parameter_columns(p, a);
  std::ostringstream header;
  if (per_mechanism) {
    header << "mechanism";
    if (p.budgeted) header << "," << p.budget_option + 2;
    if (bits_axis) header << ",bits";
    if (w_axis) header << ",w";
    if (p.aggregate) header << ",n";
    if (q == "law") header << ",output";
  } else {
    header << p.budget_option + 2;
    if (p.pair || p.per_bits) header << ",bits";
    if (p.pair) header << ",w,w2";
    if (p.ucdp) header << ",n,gamma,delta,m";
    if (q == "gaussian_sigma") header << ",delta";
  }
  for (const ParameterColumn& c : parameters) header << "," << c.name;
  header << "," << q << "," << q << "_exact," << q << "_lower," << q << "_upper";
  if (per_mechanism && q == "pldp_ratio") header << ",bound,bound_exact,bound_lower,bound_upper";
  header << "\n";
  // Every grid point in the CSV's order, numbered; `rows` computes its line(s) only where wanted.
  std::size_t point = 0;
  const auto at_point = [&](const auto& rows) {
    if (want(point)) emit(point, rows());
    ++point;
    if (progress && point % 64 == 0) std::cerr << "\rcorbin sweep: " << point << "/" << p.total << std::flush;
  };
  for (const fl::Mechanism* m : p.mechanisms) {
    // A room that takes no budget answers once for the whole budget axis (an empty cell), one
    // whose clients do not pair once for the bits axis.
    const bool budget_cells = p.budgeted && m->takes_budget(), paired = bits_axis && m->reads(fl::SettingParameter::bits);
    for (std::size_t i = 0; i < (budget_cells ? p.budget_values.size() : 1); ++i) {
      Point x;
      x.mechanism = m;
      x.delta = p.deltas.front();
      if (p.budgeted) {
        x.budget_value = p.budget_values[i];
        x.budget = Budget::make(p.kind, x.budget_value);
      }
      for (std::size_t j = 0; j < (paired ? p.d_values.size() : 1); ++j) {
        x.d = paired ? p.d_values[j] : fl::CoordinateSetting{}.bits;
        std::string prefix = m->name();
        if (p.budgeted) prefix += "," + (budget_cells ? to_decimal(Real(p.budget_values[i]), 17) : std::string());
        if (bits_axis) prefix += "," + (paired ? std::to_string(x.d) : std::string());
        const std::string recorded = parameter_cells(parameters, m);
        for (const unsigned long n : p.aggregate ? p.n_values : std::vector<unsigned long>{})
          at_point([&] {
            x.n = n;
            return prefix + "," + std::to_string(n) + recorded + "," + cells(evaluate(p, x)) + "\n";
          });
        if (!w_axis && !p.aggregate)
          at_point([&] {
            std::optional<Enclosed> claimed;
            std::string row = prefix + recorded + "," + cells(evaluate(p, x, &claimed));
            if (q == "pldp_ratio") row += "," + (claimed ? cells(*claimed) : std::string(",,,"));
            return row + "\n";
          });
        for (const Rational& w : w_axis ? p.w1s : std::vector<Rational>{})
          at_point([&] {
            const std::string at = prefix + "," + to_decimal(Real(w), 17);
            std::string rows;
            if (q == "law") {
              fl::CoordinateSetting s = setting(x.budget, p.c, p.r, x.d, p.variant);
              s.delta = x.delta;
              PrecisionScope scope(x.budget.precision_bits(s.bits));
              for (const fl::Atom& atom : fl::answered_law(*m, s, w, "law"))
                rows += at + "," + to_decimal(Real(atom.value), 17) + recorded + "," + cells(atom.prob) + "\n";
            } else {
              x.w1 = w;
              rows = at + recorded + "," + cells(evaluate(p, x)) + "\n";
            }
            return rows;
          });
      }
    }
  }
  for (const Rational& value : per_mechanism ? std::vector<Rational>{} : p.budget_values) {
    Point x;
    x.budget_value = value;
    x.budget = Budget::make(p.kind, value);
    const std::string recorded = parameter_cells(parameters, nullptr);
    const auto emit_row = [&](const std::string& prefix) {
      at_point([&] { return to_decimal(Real(value), 17) + prefix + recorded + "," + cells(evaluate(p, x)) + "\n"; });
    };
    if (p.pair || p.per_bits) {
      for (const unsigned long d : p.d_values) {
        x.d = d;
        if (!p.pair) {
          emit_row("," + std::to_string(d));
          continue;
        }
        for (const Rational& w1 : p.w1s)
          for (const Rational& w2 : p.w2s) {
            x.w1 = w1;
            x.w2 = w2;
            emit_row("," + std::to_string(d) + "," + to_decimal(Real(w1), 17) + "," + to_decimal(Real(w2), 17));
          }
      }
    } else if (p.ucdp) {
      for (const unsigned long n : p.n_values)
        for (const Rational& gamma : p.gammas)
          for (const Rational& delta : p.deltas)
            for (const unsigned long m : p.m_values) {
              x.n = n;
              x.gamma = gamma;
              x.delta = delta;
              x.m = m;
              emit_row("," + std::to_string(n) + "," + to_decimal(Real(gamma), 17) + "," +
                       to_decimal(Real(delta), 17) + "," + std::to_string(m));
            }
    } else {
      for (const Rational& delta : p.deltas) {
        x.delta = delta;
        if (q == "laplace_scale") {
          emit_row("");
          break;
        }
        emit_row("," + to_decimal(Real(delta), 17));
      }
    }
  }
  if (progress) std::cerr << "\rcorbin sweep: " << p.total << "/" << p.total << " rows\n";
  return {header.str(), point, parameters.size()};
}

namespace {

std::string joined_fields(const std::vector<std::string>& f, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) out += (i > from ? "," : "") + f[i];
  return out;
}

/// Several quantities on the same axes: each one's CSV, computed as alone (no option checked
/// there), then side by side behind the axes' columns. An option given must be read by at least
/// one of them; the axes (every row's leading cells) must be the same, else the quantities
/// answer on different grids and are refused together.
std::string several_quantities(const SweepArgs& a, const std::vector<std::string>& qs, bool progress) {
  for (std::size_t i = 0; i < qs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (qs[i] == qs[j]) throw invalid_argument("--quantity", quote(a.quantity), "each quantity once");
  std::vector<Plan> plans;
  for (const std::string& q : qs) {
    SweepArgs one = a;
    one.quantity = q;
    one.given.clear();
    plans.push_back(make_plan(one));
    if (q == "law")
      throw invalid_argument("--quantity", quote(a.quantity), "law alone (a distribution: rows per output, not one per point)");
  }
  for (const std::string& option : a.given)
    if (std::none_of(plans.begin(), plans.end(), [&](const Plan& p) { return plan_uses(p, a, option); }))
      throw invalid_argument(option, "given", "absent for " + a.quantity + ", none of which uses it");
  std::vector<std::string> axes;  // each row's leading cells, the first quantity's
  std::string header, header_axes;
  std::vector<std::vector<std::string>> values;  // per row, the quantities' cells joined
  // The parameters any of them read (the union, in the order first met), each row's cells by name:
  // quantities on the same axes may read different parameters (pldp_ratio the variant, sup_gap not).
  std::vector<std::string> parameter_names;
  std::vector<std::map<std::string, std::string>> parameter_cells;
  for (std::size_t k = 0; k < qs.size(); ++k) {
    SweepArgs one = a;
    one.quantity = qs[k];
    one.given.clear();
    std::vector<std::string> rows;
    const SweepHeader h = sweep_points(
        one, [](std::size_t) { return true; },
        [&](std::size_t, const std::string& line) { rows.push_back(line.substr(0, line.size() - 1)); }, progress);
    const Plan& p = plans[k];
    const std::size_t value_columns = p.per_mechanism && p.q == "pldp_ratio" ? 8 : 4;
    // A CSV line's fields: the sweep's cells are numbers and names, never quoted.
    const std::vector<std::string> head = split_list(h.header.substr(0, h.header.size() - 1));
    const std::size_t lead = head.size() - value_columns, axes_end = lead - h.parameters;
    const std::string head_axes = joined_fields(head, 0, axes_end);
    if (k == 0) {
      header_axes = head_axes;
      values.resize(rows.size());
      parameter_cells.resize(rows.size());
    } else if (head_axes != header_axes || rows.size() != axes.size()) {
      throw invalid_argument("--quantity", quote(a.quantity),
                             "quantities on the same axes (" + qs[0] + ": " + header_axes + "; " + qs[k] + ": " +
                                 head_axes + ")");
    }
    for (std::size_t c = axes_end; c < lead; ++c)
      if (std::find(parameter_names.begin(), parameter_names.end(), head[c]) == parameter_names.end())
        parameter_names.push_back(head[c]);
    header += "," + joined_fields(head, lead, head.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const std::vector<std::string> f = split_list(rows[r]);
      const std::string row_axes = joined_fields(f, 0, axes_end);
      if (k == 0)
        axes.push_back(row_axes);
      else if (row_axes != axes[r])
        throw invalid_argument("--quantity", quote(a.quantity), "quantities on the same axes (row " +
                                                                    std::to_string(r + 1) + ": " + axes[r] + " against " +
                                                                    row_axes + ")");
      for (std::size_t c = axes_end; c < lead; ++c) parameter_cells[r].emplace(head[c], f[c]);
      values[r].push_back(joined_fields(f, lead, f.size()));
    }
  }
  header = header_axes + (parameter_names.empty() ? "" : "," + joined_fields(parameter_names, 0, parameter_names.size())) +
           header;
  for (std::size_t r = 0; r < axes.size(); ++r)
    for (const std::string& name : parameter_names) axes[r] += "," + parameter_cells[r][name];
  std::string csv = header + "\n";
  for (std::size_t r = 0; r < axes.size(); ++r) {
    csv += axes[r];
    for (const std::string& v : values[r]) csv += "," + v;
    csv += "\n";
  }
  return csv;
}

}  // namespace

void write_sweep(const SweepArgs& a, std::ostream& out, bool progress) {
  const std::vector<std::string> qs = split_list(a.quantity);
  std::string csv;
  if (qs.size() > 1) {
    csv = several_quantities(a, qs, progress);
  } else {
    const SweepHeader h = sweep_points(
        a, [](std::size_t) { return true; }, [&](std::size_t, const std::string& rows) { csv += rows; }, progress);
    csv = h.header + csv;
  }
  out << csv << std::flush;
  if (!out) throw invalid_argument("standard output", "unwritable", "a stream the CSV can be written to");
}

}  // namespace corbin::cli
