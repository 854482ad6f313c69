#include "corbin/privacy/worst_case/gaussian_pld.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/pld/threads.hpp"
#include "corbin/privacy/worst_case/dropout_mixture.hpp"
#include "corbin/privacy/worst_case/noise_sum.hpp"
#include "corbin/privacy/worst_case/survivors.hpp"

namespace corbin {
namespace {

/// The grids span this many standard deviations (of the shift pair's loss, of the remove pair's
/// outputs); beyond, the mass goes to +∞ (pessimistic) or is dropped, or for the remove pair
/// merged into the end cells (optimistic): Φ(−20) < 10^−88, below what a trim keeps
/// (PldLimits::tail).
constexpr int kSpread = 20;

/// A mass's lower end (a rounding of an enclosure may reach below 0).
double mass_down(const Real& x) { return std::max(0.0, to_double_down(x)); }

/// Φ(z) for z <= 0. Far out (z < −10, Φ < 10^−23) by the Mills ratio's bounds
/// φ(z)|z|/(z² + 1) <= Φ(z) <= φ(z)/|z|, one exponential, within 1 % of each other: MPFR's erfc
/// there works at about z²/(2 ln 2) more bits, and most edges have a tail that far out.
Interval far_cdf(const Interval& z) {
  if (!(upper_of(z) < -10)) return normal_cdf(z);
  const Interval x(-z);  // >= 10
  const Interval two_pi(interval_from(Rational(2)) * Interval(acos(interval_from(Rational(-1)))));
  const Interval density(exp(Interval(-(x * x) / 2)) / sqrt(two_pi));
  const Interval below(density * x / Interval(x * x + 1)), above(density / x);
  return interval_hull(lower_of(below), upper_of(above));
}

/// The standard normal's distribution at z as a Tail (continuous.hpp): Φ(−z) above 0, Φ(z)
/// at or below it.
Tail standard_tail(const Interval& z) {
  const bool upper = lower_of(z) > 0;
  return Tail{upper, far_cdf(upper ? Interval(-z) : z)};
}

/// N(mean, μ²)'s distribution at every grid point y_k, k in [first, last], as tails (Φ((y −
/// mean)/μ) up to 1/2, Φ(−(y − mean)/μ) beyond: continuous.hpp's Tail). One erfc a point, or
/// far out the Mills ratio's bounds (far_cdf).
class GridNormal {
 public:
  GridNormal(std::int64_t first, std::int64_t last, int scale, const Interval& mean, const Interval& mu)
      : first_(first) {
    for (std::int64_t k = first; k <= last; ++k) {
      tail_.push_back(standard_tail(Interval(Interval(interval_from(grid_point(scale, k)) - mean) / mu)));
    }
  }
  /// P(y_a < X <= y_b), a < b, enclosed.
  Interval mass(std::int64_t a, std::int64_t b) const { return mass_between(at(a), at(b)); }
  /// The tail at y_a.
  const Tail& at(std::int64_t a) const { return tail_[static_cast<std::size_t>(a - first_)]; }

 private:
  std::int64_t first_;
  std::vector<Tail> tail_;
};

/// σ and the grid, as every builder here takes them.
void check_noise(const Real& sigma, const PldLimits& limits) {
  if (!(sigma > 0) || !isfinite(sigma)) throw invalid_argument("sigma", to_decimal(sigma, 6), "positive and finite");
  if (limits.max_cells < 16)
    throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
}

}  // namespace

GaussianPlds gaussian_sum_plds(const Real& sigma, const Rational& sensitivity, unsigned long n,
                               const PldLimits& limits) {
  check_noise(sigma, limits);
  if (sensitivity <= 0) throw invalid_argument("sensitivity", to_string(sensitivity), "positive");
  if (n < 1) throw invalid_argument("n", std::to_string(n), "at least 1");
  // 128 bits whatever the caller's: enough for every mass kept (the tails are taken as tails).
  PrecisionScope scope(128);
  const Interval mu(interval_from(sensitivity) / (interval_hull(sigma, sigma) * sqrt(interval_from(Rational(n)))));
  const Interval mean(mu * mu / 2);
  // The grid: about max_cells points of step 2^scale over mean ± kSpread·μ.
  const double span = to_double_up(upper_of(Interval(2 * kSpread * mu)));
  const int scale = static_cast<int>(std::ceil(std::log2(span / static_cast<double>(limits.max_cells - 2))));
  const auto point = [&](std::int64_t k) { return interval_from(grid_point(scale, k)); };
  const double h = std::ldexp(1.0, scale);
  const auto offset = static_cast<std::int64_t>(std::floor(to_double_down(lower_of(Interval(mean - kSpread * mu))) / h));
  const auto top = static_cast<std::int64_t>(std::ceil(to_double_up(upper_of(Interval(mean + kSpread * mu))) / h));
  const auto cells = static_cast<std::size_t>(top - offset + 1);
  const GridNormal p_law(offset, top, scale, mean, mu), q_law(offset, top, scale, Interval(-mean), mu);
  std::vector<Interval> e_minus;  // e^(−y_k), and e^(y_k) below
  for (std::int64_t k = offset; k <= top; ++k) e_minus.push_back(exp(Interval(-point(k))));
  UpperPld upper;
  upper.scale = scale;
  upper.offset = offset;
  upper.mass.assign(cells, 0.0);
  LowerPld lower;
  lower.scale = scale;
  lower.offset = offset;
  lower.p.assign(cells, 0.0);
  lower.t.assign(cells, 0.0);
  lower.y.assign(cells, 0.0);
  // Pessimistic: everything below the lowest point at it; each cell (y_(k−1), y_k] split onto its
  // two points keeping its P-mass and its Q-mass (= E_P[e^(−L)] there): the cell is a merge of the
  // split atoms, a post-processing, so the split dominates it, and to second order in the step.
  // Each part is taken at an upper end (more mass, or mass moved up in loss, only raises δ).
  upper.mass[0] = std::min(1.0, to_double_up(upper_of(p_law.at(offset).below())));
  for (std::size_t i = 1; i < cells; ++i) {
    const std::int64_t k = offset + static_cast<std::int64_t>(i);
    add_split(upper, k - 1, k, p_law.mass(k - 1, k), q_law.mass(k - 1, k), e_minus[i - 1], e_minus[i]);
  }
  upper.infinite = to_double_up(upper_of(p_law.at(top).above()));
  // Optimistic: [y_k, y_(k+1)) merged (the same cells, closed on the other side: the law has no
  // atoms), the top cell taking everything above; its t is Q's mass times e^(y_k).
  for (std::size_t i = 0; i < cells; ++i) {
    const std::int64_t k = offset + static_cast<std::int64_t>(i);
    const bool last = i + 1 == cells;
    const Interval p = last ? p_law.at(k).above() : p_law.mass(k, k + 1);
    const Interval q = last ? q_law.at(k).above() : q_law.mass(k, k + 1);
    lower.p[i] = mass_down(lower_of(p));
    lower.t[i] = to_double_up(upper_of(Interval(q / e_minus[i])));
    lower.y[i] = (static_cast<double>(k) + 0.5) * h;
  }
  return {upper, lower};
}

Accountant gaussian_sum_accountant(const Real& sigma, const Rational& sensitivity, unsigned long n,
                                   const PldLimits& limits) {
  const GaussianPlds plds = gaussian_sum_plds(sigma, sensitivity, n, limits);
  return shift_pair_accountant(plds.upper, plds.lower, n, "N(0, sigma^2)", limits);
}

namespace {

/// The remove-one pair's working precision: its masses are differences of tails (never of
/// values near 1), its losses a quadratic; four tails an edge at 128 bits took seconds.
constexpr unsigned kRemoveBits = 64;

/// The remove-one pair in units of σ (the header): the loss as a function of ρ = |y − y*|, and
/// both laws' tails at y* ± ρ.
class RemovePair {
 public:
  RemovePair(const Interval& a, unsigned long n)
      : curvature_(interval_from(Rational(BigInt(1), BigInt(2) * BigInt(n) * BigInt(n - 1)))),
        centre_(Interval(-a * interval_from(Rational(BigInt(n - 1))))),
        mean_p_(a),
        sd_p_(sqrt(interval_from(Rational(BigInt(n))))),
        sd_q_(sqrt(interval_from(Rational(BigInt(n - 1))))) {
    const Interval ratio = interval_from(Rational(BigInt(n), BigInt(n - 1)));
    l_min_ = Interval(Interval(-(a * a) / 2) - Interval(log(ratio) / 2));
    l_min_double_ = nearest_double(l_min_);
    curvature_double_ = 1.0 / (2.0 * static_cast<double>(n) * static_cast<double>(n - 1));
  }

  /// L at y* ± ρ, enclosed.
  Interval loss(const Rational& rho) const {
    const Interval r = interval_from(rho);
    return Interval(l_min_ + Interval(r * r) * curvature_);
  }
  const Interval& l_min() const { return l_min_; }
  double l_min_double() const { return l_min_double_; }
  /// ρ(ℓ) in double, for ℓ > L_min.
  double approx_rho(double level) const { return std::sqrt((level - l_min_double_) / curvature_double_); }
  /// P's (p) or Q's tail at y* + side·ρ: Φ as a Tail (continuous.hpp), ρ = ∞ the law's end.
  Tail tail(const std::optional<Rational>& rho, int side, bool p) const {
    if (!rho) return Tail{side > 0, interval_from(Rational(0))};
    const Interval y(centre_ + interval_from(side > 0 ? *rho : Rational(-*rho)));
    return standard_tail(Interval(Interval(y - (p ? mean_p_ : interval_from(Rational(0)))) / (p ? sd_p_ : sd_q_)));
  }
  /// Where P's (p) or Q's mass lies: ρ within kSpread standard deviations of its centre.
  std::pair<double, double> rho_range(bool p) const {
    const double mean = std::fabs(nearest_double(Interval((p ? mean_p_ : interval_from(Rational(0))) - centre_)));
    const double sd = nearest_double(p ? sd_p_ : sd_q_);
    return {std::max(0.0, mean - kSpread * sd), mean + kSpread * sd};
  }
  double approx_loss(double rho) const { return l_min_double_ + rho * rho * curvature_double_; }

 private:
  static double nearest_double(const Interval& x) { return midpoint_of(x).convert_to<double>(); }
  Interval curvature_, centre_, mean_p_, sd_p_, sd_q_, l_min_;
  double l_min_double_ = 0, curvature_double_ = 0;
};

/// An edge of the partition in ρ (none: ∞), with L there enclosed and both laws' tails on
/// both sides of y*.
struct RhoEdge {
  std::optional<Rational> rho;
  Interval loss;
  Tail p_right, p_left, q_right, q_left;
};

/// The PLDs of P against Q (forward) or Q against P, whose loss is −L under Q.
ContinuousPlds remove_plds(const RemovePair& pair, bool forward, const PldLimits& limits) {
  const double sign = forward ? 1.0 : -1.0;
  const auto [rho_lo, rho_hi] = pair.rho_range(forward);
  const double l0 = sign * pair.approx_loss(rho_lo), l1 = sign * pair.approx_loss(rho_hi);
  const LossSpan grid = loss_span(std::min(l0, l1), std::max(l0, l1), 1e-12, limits.max_cells);
  const int scale = grid.scale;
  const double h = grid.step();
  const std::int64_t offset = grid.offset, top = grid.top;

  const auto edge = [&](const std::optional<Rational>& rho, const Interval& loss) {
    return RhoEdge{rho, loss, pair.tail(rho, 1, true), pair.tail(rho, -1, true), pair.tail(rho, 1, false),
                   pair.tail(rho, -1, false)};
  };
  // Two edges about each grid point's crossing, in increasing ρ: the lower one's L certified on
  // the near side of the level, the upper one's on the far side, so every piece between them has
  // its losses within one cell (L rises with ρ; the sliver between the two has its own range).
  std::vector<std::pair<double, std::int64_t>> crossings;  // ρ, grid index
  for (std::int64_t k = offset; k <= top; ++k) {
    const double level = sign * static_cast<double>(k) * h;
    if (level > pair.l_min_double()) crossings.emplace_back(pair.approx_rho(level), k);
  }
  std::sort(crossings.begin(), crossings.end());
  std::vector<RhoEdge> edges{edge(Rational(0), pair.l_min())};
  double last = 0;
  for (const auto& [rho, k] : crossings) {
    const Rational point = grid_point(scale, k);
    const Interval y(interval_from(forward ? point : Rational(-point)));  // the level in L
    double xi = std::max(rho * 0x1p-40, 1e-300);
    for (int attempt = 0; attempt < 5; ++attempt, xi *= 256) {
      const double below = rho - xi, above = rho + xi;
      if (!(below > last)) break;
      const Rational r0 = to_rational(below), r1 = to_rational(above);
      const Interval a = pair.loss(r0), b = pair.loss(r1);
      if (!(upper_of(a) <= lower_of(y) && lower_of(b) >= upper_of(y))) continue;
      edges.push_back(edge(r0, a));
      edges.push_back(edge(r1, b));
      last = above;
      break;
    }
  }
  edges.push_back(edge(std::nullopt, Interval(interval_from(Rational(0)))));

  std::vector<LossPiece> pieces;
  const Real infinity(std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    const RhoEdge &a = edges[i], &b = edges[i + 1];
    const Interval p(mass_between(a.p_right, b.p_right) + mass_between(b.p_left, a.p_left));
    const Interval q(mass_between(a.q_right, b.q_right) + mass_between(b.q_left, a.q_left));
    const Real l_lo = lower_of(a.loss), l_hi = b.rho ? upper_of(b.loss) : infinity;
    if (forward)
      pieces.push_back({l_lo, l_hi, p, q});
    else
      pieces.push_back({Real(-l_hi), Real(-l_lo), q, p});
  }
  return continuous_plds(pieces, scale, offset, top);
}

}  // namespace

GaussianRemovePlds gaussian_remove_plds(const Real& sigma, const Rational& shift, unsigned long n,
                                        const PldLimits& limits) {
  check_noise(sigma, limits);
  if (shift <= 0) throw invalid_argument("shift", to_string(shift), "positive");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2 (client 1 and another)");
  PrecisionScope scope(kRemoveBits);
  const Interval a(interval_from(shift) / interval_hull(sigma, sigma));
  if (!(upper_of(a) <= kMaxRemoveShift))
    throw invalid_argument("shift", to_string(shift), "at most " + std::to_string(kMaxRemoveShift) + " σ");
  const RemovePair pair(a, n);
  GaussianRemovePlds out;
  const unsigned threads = thread_count(2, limits.threads);
  run_on_threads(threads, [&](unsigned t) {
    // Each order's edges on a thread of its own, or both on this one.
    if (t == 0) out.forward = remove_plds(pair, true, limits);
    if (t == 1 || threads == 1) out.backward = remove_plds(pair, false, limits);
  });
  return out;
}

namespace {

Accountant remove_accountant(const GaussianRemovePlds& plds, unsigned long n, const std::string& input,
                             const PldLimits& limits) {
  AttainedBy by;
  ConfigurationWords w;
  w.client_1 = "client 1 at " + input;
  w.replaced_by = "client 1 removed";
  w.inputs = input + " | removed";
  w.others_ldpq = "the other " + std::to_string(n - 1) + " clients anywhere (both sums move alike)";
  w.others_pairs = "N(0, sigma^2) noise on each client's input; the release is their sum";
  by.parts.push_back(w);
  by.repeats.push_back(1);
  by.reversed.push_back(false);
  return Accountant::from_plds(plds.forward.upper, plds.backward.upper, plds.forward.lower, plds.backward.lower,
                               by, limits);
}

}  // namespace

Accountant gaussian_remove_accountant(const Real& sigma, const Rational& shift, unsigned long n,
                                      const std::string& input, const PldLimits& limits) {
  return remove_accountant(gaussian_remove_plds(sigma, shift, n, limits), n, input, limits);
}

namespace {

/// Binomial terms left out of the binned lower end (their mass added to the enclosures).
constexpr double kNegligibleTerm = 1e-30;
/// The binned lower end is computed where its normal laws times its bins are at most this (each
/// a tail at 64 bits); past it the round has its upper end alone.
constexpr std::size_t kMaxBinnedTails = std::size_t(1) << 20;

/// A normal law in units of σ with its weight in a mixture.
struct Component {
  Interval weight, mean, sd;
};

Tail normal_tail(const Component& c, const std::optional<Rational>& y, bool plus_infinity) {
  if (!y) return Tail{plus_infinity, interval_from(Rational(0))};
  return standard_tail(Interval(Interval(interval_from(*y) - c.mean) / c.sd));
}

/// The binned release of the sum alone (the header), both orders' optimistic PLDs.
/// `summed` coordinates added together (1: one coordinate): each client's inputs all at its one
/// value, their sum is one coordinate's release with the inputs and the shift times `summed` and
/// the noise's variance too, a post-processing of the round's m coordinates.
std::optional<AttainedPlds> binned_remove_lower(const Interval& sigma, const Rational& x1, const Rational& v,
                                               unsigned long n, const Rational& p, std::uint64_t summed,
                                               const std::string& v_words, const std::string& x1_words,
                                               const PldLimits& limits) {
  const Interval pi(interval_from(p)), survive(interval_from(Rational(1 - p)));
  // In units of the summed noise's σ√summed: the inputs times summed, over it.
  const Interval root(sqrt(interval_from(Rational(BigInt(summed)))));
  const Interval a1(interval_from(x1) * root / sigma), av(interval_from(v) * root / sigma);
  // b_k = C(n − 1, k)(1 − p)^k p^(n − 1 − k), by the ratio of successive terms; those kept.
  std::vector<std::pair<unsigned long, Interval>> terms;
  Interval left_out(interval_from(Rational(0)));
  Interval b(pow(pi, static_cast<long>(n - 1)));
  const Interval ratio(survive / pi);
  for (unsigned long k = 0; k < n; ++k) {
    if (k > 0) b = Interval(b * ratio * interval_from(Rational(BigInt(n - k), BigInt(k))));
    if (upper_of(b) < kNegligibleTerm)
      left_out = Interval(left_out + b);
    else
      terms.emplace_back(k, b);
    if (2 * terms.size() * std::min<std::size_t>(1024, limits.max_cells) > kMaxBinnedTails) return std::nullopt;
  }
  // With client 1 (k others surviving): N(x1 + kv, k + 1); without client 1, or client 1
  // dropped: N(kv, k), k >= 1; k = 0 the atom at 0.
  std::vector<Component> with, without;
  Interval atom_without(interval_from(Rational(0)));
  for (const auto& [k, weight] : terms) {
    const Interval kk(interval_from(Rational(BigInt(k))));
    with.push_back({weight, Interval(a1 + kk * av), sqrt(Interval(kk + 1))});
    if (k == 0)
      atom_without = weight;
    else
      without.push_back({weight, Interval(kk * av), sqrt(kk)});
  }
  const std::size_t bins = std::min<std::size_t>(1024, limits.max_cells);
  if ((with.size() + without.size()) * bins > kMaxBinnedTails) return std::nullopt;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto* list : {&with, &without})
    for (const Component& c : *list) {
      const double mean = midpoint_of(c.mean).convert_to<double>(), sd = midpoint_of(c.sd).convert_to<double>();
      lo = std::min(lo, mean - 12 * sd);
      hi = std::max(hi, mean + 12 * sd);
    }
  // The bins' edges, ∞ at both ends.
  std::vector<std::optional<Rational>> edges{std::nullopt};
  for (std::size_t i = 0; i <= bins; ++i)
    edges.emplace_back(to_rational(lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(bins)));
  edges.emplace_back(std::nullopt);
  const auto tails = [&](const std::vector<Component>& list, std::size_t e) {
    std::vector<Tail> out;
    for (const Component& c : list) out.push_back(normal_tail(c, edges[e], e + 1 == edges.size()));
    return out;
  };
  // Each bin's masses in the world with client 1 (P) and without (Q): P = (1 − p)·Σ b_k N(x1 +
  // kv, k + 1) + p·(Σ_(k>=1) b_k N(kv, k) + b_0·atom), Q = Σ_(k>=1) b_k N(kv, k) + b_0·atom.
  const Interval slack(interval_hull(Real(0), upper_of(left_out)));  // the terms left out
  std::vector<std::pair<Interval, Interval>> masses;                 // P, Q
  std::vector<Tail> with_before = tails(with, 0), without_before = tails(without, 0);
  for (std::size_t e = 1; e < edges.size(); ++e) {
    const std::vector<Tail> with_now = tails(with, e), without_now = tails(without, e);
    Interval m_with(interval_from(Rational(0))), m_without(interval_from(Rational(0)));
    for (std::size_t i = 0; i < with.size(); ++i)
      m_with = Interval(m_with + with[i].weight * mass_between(with_before[i], with_now[i]));
    for (std::size_t i = 0; i < without.size(); ++i)
      m_without = Interval(m_without + without[i].weight * mass_between(without_before[i], without_now[i]));
    masses.emplace_back(Interval(survive * m_with + pi * m_without + slack), Interval(m_without + slack));
    with_before = with_now;
    without_before = without_now;
  }
  // The atom at 0: p·b_0 against b_0, exactly in ratio p.
  masses.emplace_back(Interval(pi * atom_without + slack), Interval(atom_without + slack));

  const auto plds = [&](bool forward) {
    std::vector<LossPiece> pieces;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    const Real infinity(std::numeric_limits<double>::infinity());
    for (const auto& [mp, mq] : masses) {
      const Interval& a = forward ? mp : mq;
      const Interval& c = forward ? mq : mp;
      const Real a_lo = std::max(Real(0), Real(lower_of(a))), c_lo = std::max(Real(0), Real(lower_of(c)));
      if (!(upper_of(a) > 0)) continue;
      // The bin's loss enclosed (only its lower end places it: the optimistic PLD alone is kept).
      const Real l_lo = a_lo > 0 ? lower_of(Interval(log(interval_hull(a_lo, a_lo)) - log(Interval(upper_of(c)))))
                                 : Real(-infinity);
      const Real l_hi = c_lo > 0 ? upper_of(Interval(log(Interval(upper_of(a))) - log(interval_hull(c_lo, c_lo))))
                                 : infinity;
      pieces.push_back({l_lo, l_hi, a, c});
      if (isfinite(l_lo) && a_lo > 1e-300) {
        low = std::min(low, l_lo.convert_to<double>());
        high = std::max(high, l_lo.convert_to<double>());
      }
    }
    if (!(low <= high)) low = high = 0;
    const LossSpan grid = loss_span(low, high, 1e-12, limits.max_cells);
    return continuous_plds(pieces, grid.scale, grid.offset, grid.top).lower;
  };
  ConfigurationWords w;
  w.client_1 = "client 1 at " + x1_words;
  w.replaced_by = "client 1 removed";
  w.inputs = x1_words + " | removed";
  w.others_ldpq = "the other " + std::to_string(n - 1) + " clients at " + v_words;
  w.others_pairs = "N(0, sigma^2) noise on each survivor's input; the sum seen through " + std::to_string(bins) +
                   " bins of its value" +
                   (summed == 1 ? std::string(" (one coordinate)")
                                : ", added over the round's " + std::to_string(summed) + " coordinates");
  w.dropout = dropout_said(p, Neighbour::remove_one);
  return AttainedPlds{plds(true), plds(false), w};
}

}  // namespace

Accountant gaussian_remove_dropout_accountant(const Real& sigma, const Rational& center, const Rational& radius,
                                              unsigned long n, const Rational& p, std::uint64_t m,
                                              const PldLimits& limits) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2");
  if (m < 1) throw invalid_argument("m", "0", "at least 1");
  if (radius <= 0) throw invalid_argument("radius", to_string(radius), "positive");
  const bool above = center >= 0;
  const Rational x1 = above ? Rational(center + radius) : Rational(center - radius);
  const std::string x1_words = above ? "c + r" : "c - r";
  // Above: the labelled mixture over who survived (the header), each population's PLDs built on
  // threads of their own.
  const std::vector<SurvivorPopulation> parts = lone_survivor_populations(n, p);
  std::vector<unsigned long> sizes;  // the survivors, client 1 among them
  for (const SurvivorPopulation& s : parts)
    if (s.counts.ldpq >= 2) sizes.push_back(s.counts.ldpq);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::vector<GaussianRemovePlds> plds(sizes.size());
  const unsigned threads = thread_count(sizes.size(), limits.threads);
  {
    PrecisionScope scope(kRemoveBits);  // held by the threads (gaussian_remove_plds's own)
    run_on_threads(threads, [&](unsigned t) {
      for (std::size_t i = t; i < sizes.size(); i += threads)
        plds[i] = gaussian_remove_plds(sigma, abs(x1), sizes[i], limits);
    });
  }
  std::map<unsigned long, Accountant> built;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const Accountant one = remove_accountant(plds[i], sizes[i], x1_words, limits).upper_only();
    built.emplace(sizes[i], m == 1 ? one : one.coordinates(m));
  }
  // Client 1 the only survivor: its noisy input against nothing released (0).
  const Accountant alone =
      Accountant::from_laws({Rational(1), Rational(0)}, {Rational(0), Rational(1)}, limits).upper_only();
  built.emplace(1, m == 1 ? alone : alone.coordinates(m));
  const Accountant upper = mixed_over_survivors(
      p, parts, [&](const SurvivorPopulation& s) { return built.at(s.counts.ldpq); }, m, limits);
  // Below: the sum alone, through bins, the others at each input in turn.
  PrecisionScope scope(kRemoveBits);
  const Interval s(interval_hull(sigma, sigma));
  std::vector<std::pair<Rational, std::string>> others{{Rational(center - radius), "c - r"},
                                                       {Rational(center + radius), "c + r"}};
  if (center - radius < 0 && center + radius > 0) others.emplace_back(Rational(0), "0");
  // With m >= 2 coordinates, one coordinate, and all m added (every input the same in each).
  std::vector<std::uint64_t> sums{1};
  if (m > 1) sums.push_back(m);
  const std::size_t tries = others.size() * sums.size();
  std::vector<std::optional<AttainedPlds>> found(tries);
  const unsigned workers = thread_count(tries, limits.threads);
  run_on_threads(workers, [&](unsigned t) {
    for (std::size_t i = t; i < tries; i += workers) {
      const auto& [v, words] = others[i % others.size()];
      found[i] = binned_remove_lower(s, x1, v, n, p, sums[i / others.size()], words, x1_words, limits);
    }
  });
  std::vector<AttainedPlds> lowers;
  for (const auto& lower : found)
    if (lower) lowers.push_back(*lower);
  return lowers.empty() ? upper : upper.with_attained_plds(lowers);
}

}  // namespace corbin
