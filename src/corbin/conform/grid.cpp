#include "corbin/conform/grid.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin::conform {
namespace {

/// A threshold position u = index + frac with frac in [0, 1]; frac = 1 is the limit from the left
/// of index + 1. `exact` is an attainable position for it (the limit replaced by index + 63/64).
struct Position {
  std::int64_t index;
  double frac;
  Rational exact;
};

/// Cell probabilities ("++", "+-", "-+", "--") of CorBinQ in double from threshold positions, for
/// the search only (the chosen inputs' laws are recomputed exactly). Mirrors corbinq.hpp's step
/// functions: Q1 says "+" on [0, a1) and with t1 at a1; Q2 says "−" on [0, a2) and with t2 at a2
/// (as printed: with f2 on [a2, a1]); the reference code's tie probability is 1 at index 2^d − 1.
std::array<double, 4> cell_law(const Position& u, const Position& v, std::int64_t two_d,
                               const std::string& law) {
  const bool reference = law == "reference-code";
  const double t1 = reference && u.index == two_d - 1 ? 1.0 : u.frac;
  const double t2 = reference && v.index == two_d - 1 ? 1.0 : v.frac;
  struct Piece {
    double begin, end, value;
  };
  const auto a1 = static_cast<double>(u.index), a2 = static_cast<double>(v.index);
  const std::array<Piece, 2> q1{{{0, a1, 1}, {a1, a1 + 1, t1}}};
  std::array<Piece, 2> q2{{{0, a2, 1}, {a2, a2 + 1, t2}}};
  if (law == "as-printed") q2[1] = {a2, std::max(a2, a1 + 1), v.frac};
  double s1 = 0, s2 = 0, s12 = 0;
  for (const Piece& p : q1) s1 += (p.end - p.begin) * p.value;
  for (const Piece& p : q2) s2 += std::max(0.0, p.end - p.begin) * p.value;
  for (const Piece& p : q1)
    for (const Piece& q : q2)
      s12 += std::max(0.0, std::min(p.end, q.end) - std::max(p.begin, q.begin)) * p.value * q.value;
  if (law == "shared-coin" && u.index == v.index && u.index < two_d)
    s12 += std::min(t1, t2) - t1 * t2;
  const auto d = static_cast<double>(two_d);
  return {(s1 - s12) / d, s12 / d, (d - s1 - s2 + s12) / d, (s2 - s12) / d};
}

/// The candidate positions in [lo, hi] (see grid.hpp): ends, integers, midpoints, left limits;
/// all of them when exhaustive, else those within 16 cells of the ends and of the centre.
std::vector<Position> candidates(const Rational& lo, const Rational& hi, std::int64_t two_d,
                                 bool exhaustive) {
  const auto first = static_cast<std::int64_t>(floor_of(lo).convert_to<long long>());
  const auto last = static_cast<std::int64_t>(floor_of(hi).convert_to<long long>());
  const auto near = [&](std::int64_t k) {
    constexpr std::int64_t kReach = 16;
    return exhaustive || k - first <= kReach || last - k <= kReach ||
           std::llabs(k - two_d / 2) <= kReach;
  };
  const auto position = [](const Rational& x) {
    const auto index = static_cast<std::int64_t>(floor_of(x).convert_to<long long>());
    return Position{index, to_double(Rational(x - index)), x};
  };
  std::vector<Position> out{position(lo), position(hi)};
  for (std::int64_t k = first; k <= last; ++k) {
    if (!near(k)) continue;
    const Rational integer(k), mid(Rational(2 * k + 1, 2)), below(Rational(64 * k - 1, 64));
    if (integer > lo && integer < hi) out.push_back(Position{k, 0, integer});
    if (mid > lo && mid < hi) out.push_back(Position{k, 0.5, mid});
    if (integer > lo && below > lo) out.push_back(Position{k - 1, 1, below});
  }
  return out;
}

Rational input_from_u(const Group& g, const Rational& alpha, const Rational& u,
                      const Rational& two_d) {
  return g.center + g.radius * alpha * (2 * u / two_d - 1);
}
Rational input_from_v(const Group& g, const Rational& alpha, const Rational& v,
                      const Rational& two_d) {
  return g.center - g.radius * alpha * (2 * v / two_d - 1);
}

Setting make_setting(const Group& g, std::vector<Rational> inputs, std::string purpose) {
  return Setting{g.mechanism,       g.exp_eps,           g.bits, g.center, g.radius,
                 std::move(inputs), {std::move(purpose)}};
}

void add(std::vector<Setting>& out, Setting s) {
  for (Setting& t : out)
    if (t.inputs == s.inputs) {
      for (const std::string& p : s.purposes)
        if (std::find(t.purposes.begin(), t.purposes.end(), p) == t.purposes.end())
          t.purposes.push_back(p);
      return;
    }
  out.push_back(std::move(s));
}

std::string short_decimal(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
}

}  // namespace

void check_group(const Group& g) {
  Setting s{g.mechanism, g.exp_eps, g.bits,
            g.center,    g.radius,  std::vector<Rational>(g.mechanism.clients(), g.center),
            {}};
  check_setting(s);
}

std::vector<Group> grid_groups(const Mechanism& m, GridSize size) {
  const bool quick = size == GridSize::quick;
  std::vector<Rational> budgets;
  if (m.kind == Kind::pbm && m.m == 2)
    budgets = quick ? std::vector<Rational>{9} : std::vector<Rational>{4, 9};
  else
    budgets = quick ? std::vector<Rational>{3} : std::vector<Rational>{3, 9};
  std::vector<unsigned> bits{0};
  if (m.kind == Kind::corbinq)
    bits = quick ? std::vector<unsigned>{1, 2, 3} : std::vector<unsigned>{1, 2, 3, 5, 8};
  std::vector<std::pair<Rational, Rational>> geometries{{0, 1}};
  if (!quick) geometries.emplace_back(1000, Rational(1, 1000));
  std::vector<Group> out;
  for (const auto& [c, r] : geometries)
    for (const Rational& e : budgets)
      for (unsigned d : bits) out.push_back(Group{m, e, d, c, r});
  return out;
}

MaxTv max_tv_inputs(const Group& g, const std::string& a, const std::string& b) {
  check_group(g);
  if (g.mechanism.kind != Kind::corbinq)
    throw invalid_argument("mechanism", g.mechanism.name(),
                           "corbinq for a largest-TV pair of inputs");
  for (const std::string& law : {a, b})
    if (!is_fault_model(law)) check_variant(g.mechanism, law);
  const Rational alpha = alpha_of(g.exp_eps);
  const auto two_d = static_cast<std::int64_t>(std::int64_t{1} << g.bits);
  const Rational d(two_d);
  // u = 2^d q1 and v = 2^d (1 − q2) both range over [2^d q(c − r), 2^d q(c + r)].
  const Rational lo = d * ldpq_q(alpha, g.center, g.radius, Rational(g.center - g.radius));
  const Rational hi = d * ldpq_q(alpha, g.center, g.radius, Rational(g.center + g.radius));
  const bool exhaustive = g.bits <= kExhaustiveBits;
  const std::vector<Position> cand = candidates(lo, hi, two_d, exhaustive);
  double best = -1;
  std::size_t bi = 0, bj = 0;
  for (std::size_t i = 0; i < cand.size(); ++i)
    for (std::size_t j = 0; j < cand.size(); ++j) {
      const auto p = cell_law(cand[i], cand[j], two_d, a), q = cell_law(cand[i], cand[j], two_d, b);
      double tv = 0;
      for (int k = 0; k < 4; ++k) tv += std::abs(p[k] - q[k]);
      tv /= 2;
      if (tv > best * (1 + 1e-12) + 1e-300) {
        best = tv;
        bi = i;
        bj = j;
      }
    }
  MaxTv out;
  out.inputs = {input_from_u(g, alpha, cand[bi].exact, d),
                input_from_v(g, alpha, cand[bj].exact, d)};
  out.supremum = std::max(0.0, best);
  out.exhaustive = exhaustive;
  Setting s = make_setting(g, out.inputs, "");
  out.tv = total_variation(exact_law(s, a), exact_law(s, b));
  return out;
}

std::vector<Setting> choose_settings(const Group& g, const std::string& variant) {
  check_group(g);
  check_variant(g.mechanism, variant);
  const Rational c = g.center, r = g.radius, lo(c - r), hi(c + r);
  std::vector<Setting> out;
  if (g.mechanism.kind != Kind::corbinq) {
    add(out, make_setting(g, {lo}, "end c − r"));
    add(out, make_setting(g, {Rational(c - r / 2)}, "interior c − r/2"));
    add(out, make_setting(g, {c}, "centre"));
    add(out, make_setting(g, {Rational(c + r / 3)}, "interior c + r/3"));
    add(out, make_setting(g, {hi}, "end c + r"));
    return out;
  }
  for (const Rational& w1 : {lo, hi})
    for (const Rational& w2 : {lo, hi}) add(out, make_setting(g, {w1, w2}, "ends"));
  add(out, make_setting(g, {c, c}, "centre"));
  add(out, make_setting(g, {Rational(c + r / 3), Rational(c + r / 3)}, "equal inputs"));
  // The top cell: threshold index 2^d − 1 exactly (q1 = 1 − 2^−d, or q2 = 2^−d), when reachable.
  const Rational alpha = alpha_of(g.exp_eps), d(pow2(g.bits));
  const Rational top(d - 1);
  if (top <= d * ldpq_q(alpha, c, r, hi)) {
    const Rational w1 = input_from_u(g, alpha, top, d), w2 = input_from_v(g, alpha, top, d);
    add(out, make_setting(g, {w1, c}, "top-cell boundary (u = 2^d − 1)"));
    add(out, make_setting(g, {c, w2}, "top-cell boundary (v = 2^d − 1)"));
    add(out, make_setting(g, {w1, w2}, "top-cell boundary (u = v = 2^d − 1)"));
  }
  std::vector<std::string> others;
  for (const std::string& v : variants_of(g.mechanism))
    if (v != variant) others.push_back(v);
  for (const std::string& f : fault_models_of(g.mechanism, variant)) others.push_back(f);
  for (const std::string& other : others) {
    const MaxTv m = max_tv_inputs(g, variant, other);
    if (m.tv == 0) continue;  // indistinguishable in this group: nothing to place
    add(out, make_setting(g, m.inputs,
                          "max TV vs " + other + " (" + short_decimal(to_double(m.tv)) +
                              (m.exhaustive ? "" : ", search not exhaustive") + ")"));
  }
  return out;
}

std::vector<Setting> grid_settings(const Mechanism& m, GridSize size, const std::string& variant) {
  std::vector<Setting> out;
  for (const Group& g : grid_groups(m, size))
    for (Setting& s : choose_settings(g, variant)) out.push_back(std::move(s));
  return out;
}

}  // namespace corbin::conform
