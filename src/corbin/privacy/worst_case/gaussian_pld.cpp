#include "corbin/privacy/worst_case/gaussian_pld.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/worst_case/noise_sum.hpp"

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

/// The shift pair's grid and both laws' distributions at its points (the header): about
/// max_cells points of step 2^scale over mean ± kSpread·μ, under P the loss N(μ²/2, μ²) and under
/// Q N(−μ²/2, μ²), at the caller's precision (128 bits: the tails are taken as tails).
struct ShiftGrid {
  int scale;
  std::int64_t offset, top;
  GridNormal p_law, q_law;
  std::vector<Interval> e_minus;  ///< e^(−y_k)
};
ShiftGrid shift_grid(const Real& sigma, const Rational& sensitivity, unsigned long n, const PldLimits& limits) {
  check_noise(sigma, limits);
  if (sensitivity <= 0) throw invalid_argument("sensitivity", to_string(sensitivity), "positive");
  if (n < 1) throw invalid_argument("n", std::to_string(n), "at least 1");
  const Interval mu(interval_from(sensitivity) / (interval_hull(sigma, sigma) * sqrt(interval_from(Rational(n)))));
  const Interval mean(mu * mu / 2);
  const double span = to_double_up(upper_of(Interval(2 * kSpread * mu)));
  const int scale = static_cast<int>(std::ceil(std::log2(span / static_cast<double>(limits.max_cells - 2))));
  const double h = std::ldexp(1.0, scale);
  const auto offset = static_cast<std::int64_t>(std::floor(to_double_down(lower_of(Interval(mean - kSpread * mu))) / h));
  const auto top = static_cast<std::int64_t>(std::ceil(to_double_up(upper_of(Interval(mean + kSpread * mu))) / h));
  std::vector<Interval> e_minus;
  for (std::int64_t k = offset; k <= top; ++k) e_minus.push_back(exp(Interval(-interval_from(grid_point(scale, k)))));
  return {scale,
          offset,
          top,
          GridNormal(offset, top, scale, mean, mu),
          GridNormal(offset, top, scale, Interval(-mean), mu),
          std::move(e_minus)};
}

}  // namespace

GaussianPlds gaussian_sum_plds(const Real& sigma, const Rational& sensitivity, unsigned long n,
                               const PldLimits& limits) {
  PrecisionScope scope(128);
  const ShiftGrid g = shift_grid(sigma, sensitivity, n, limits);
  const std::int64_t offset = g.offset;
  const auto cells = static_cast<std::size_t>(g.top - offset + 1);
  const double h = std::ldexp(1.0, g.scale);
  UpperPld upper;
  upper.scale = g.scale;
  upper.offset = offset;
  upper.mass.assign(cells, 0.0);
  LowerPld lower;
  lower.scale = g.scale;
  lower.offset = offset;
  lower.p.assign(cells, 0.0);
  lower.t.assign(cells, 0.0);
  lower.y.assign(cells, 0.0);
  // Pessimistic: everything below the lowest point at it; each cell (y_(k−1), y_k] split onto its
  // two points keeping its P-mass and its Q-mass (= E_P[e^(−L)] there): the cell is a merge of the
  // split atoms, a post-processing, so the split dominates it, and to second order in the step.
  // Each part is taken at an upper end (more mass, or mass moved up in loss, only raises δ).
  upper.mass[0] = std::min(1.0, to_double_up(upper_of(g.p_law.at(offset).below())));
  for (std::size_t i = 1; i < cells; ++i) {
    const std::int64_t k = offset + static_cast<std::int64_t>(i);
    add_split(upper, k - 1, k, g.p_law.mass(k - 1, k), g.q_law.mass(k - 1, k), g.e_minus[i - 1], g.e_minus[i]);
  }
  upper.infinite = to_double_up(upper_of(g.p_law.at(g.top).above()));
  // Optimistic: [y_k, y_(k+1)) merged (the same cells, closed on the other side: the law has no
  // atoms), the top cell taking everything above; its t is Q's mass times e^(y_k).
  for (std::size_t i = 0; i < cells; ++i) {
    const std::int64_t k = offset + static_cast<std::int64_t>(i);
    const bool last = i + 1 == cells;
    const Interval p = last ? g.p_law.at(k).above() : g.p_law.mass(k, k + 1);
    const Interval q = last ? g.q_law.at(k).above() : g.q_law.mass(k, k + 1);
    lower.p[i] = mass_down(lower_of(p));
    lower.t[i] = to_double_up(upper_of(Interval(q / g.e_minus[i])));
    lower.y[i] = (static_cast<double>(k) + 0.5) * h;
  }
  return {upper, lower};
}

PiecesOnGrid gaussian_shift_pieces(const Real& sigma, const Rational& sensitivity, unsigned long n,
                                   const PldLimits& limits) {
  const ShiftGrid g = shift_grid(sigma, sensitivity, n, limits);
  const Real infinity(std::numeric_limits<double>::infinity());
  const auto y = [&](std::int64_t k) { return Real(std::ldexp(static_cast<double>(k), g.scale)); };  // exact
  // The cells (y_(k−1), y_k], the losses below the lowest point and above the highest apart.
  PiecesOnGrid out;
  out.grid = LossSpan{g.scale, g.offset, g.top};
  out.pieces.push_back({Real(-infinity), y(g.offset), g.p_law.at(g.offset).below(), g.q_law.at(g.offset).below()});
  for (std::int64_t k = g.offset + 1; k <= g.top; ++k)
    out.pieces.push_back({y(k - 1), y(k), g.p_law.mass(k - 1, k), g.q_law.mass(k - 1, k)});
  out.pieces.push_back({y(g.top), infinity, g.p_law.at(g.top).above(), g.q_law.at(g.top).above()});
  return out;
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
PiecesOnGrid remove_pieces(const RemovePair& pair, bool forward, const PldLimits& limits) {
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
  return {std::move(pieces), grid};
}

}  // namespace

RemovePieces gaussian_remove_pieces(const Real& sigma, const Rational& shift, unsigned long n,
                                    const PldLimits& limits) {
  check_noise(sigma, limits);
  if (shift <= 0) throw invalid_argument("shift", to_string(shift), "positive");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2 (client 1 and another)");
  PrecisionScope scope(kRemoveBits);
  const Interval a(interval_from(shift) / interval_hull(sigma, sigma));
  if (!(upper_of(a) <= kMaxRemoveShift))
    throw invalid_argument("shift", to_string(shift), "at most " + std::to_string(kMaxRemoveShift) + " σ");
  const RemovePair pair(a, n);
  return both_orders([&](bool forward) { return remove_pieces(pair, forward, limits); }, limits);
}

GaussianRemovePlds gaussian_remove_plds(const Real& sigma, const Rational& shift, unsigned long n,
                                        const PldLimits& limits) {
  return remove_plds(gaussian_remove_pieces(sigma, shift, n, limits));
}

Accountant gaussian_remove_accountant(const Real& sigma, const Rational& shift, unsigned long n,
                                      const std::string& input, const PldLimits& limits) {
  return remove_pair_accountant(gaussian_remove_plds(sigma, shift, n, limits), n, input, "N(0, sigma^2)", limits);
}

Accountant gaussian_remove_dropout_accountant(const Real& sigma, const Rational& center, const Rational& radius,
                                              unsigned long n, const Rational& p, std::uint64_t m,
                                              const PldLimits& limits) {
  PrecisionScope scope(kRemoveBits);  // held by the threads (gaussian_remove_plds's own)
  const Interval s(interval_hull(sigma, sigma));
  // k clients' noise in units of σ (or of σ√m, the m coordinates added): N(0, k).
  const NoiseLaw normal{
      [](unsigned long k, const Interval& z) {
        return standard_tail(Interval(z / sqrt(interval_from(Rational(BigInt(k))))));
      },
      [](unsigned long k) { return 12 * std::sqrt(static_cast<double>(k)); }, [](unsigned long) { return 1.0; }};
  // One coordinate; with m >= 2, also all m added (every input the same in each: one
  // coordinate's release at inputs m·x and noise m·σ² a client).
  std::vector<BinnedView> views{{Interval(interval_from(Rational(1)) / s), 1, normal}};
  if (m > 1) views.push_back({Interval(sqrt(interval_from(Rational(BigInt(m)))) / s), m, normal});
  return noise_remove_dropout_accountant(
      [&](unsigned long k) { return gaussian_remove_pieces(sigma, abs(center) + radius, k, limits); },
      [&](unsigned long k) { return gaussian_shift_pieces(Real(lower_of(Interval(interval_hull(sigma, sigma) / sqrt(interval_from(Rational(BigInt(m))))))), 2 * radius, k, limits); },
      views, center,
      radius, n, p, m, "N(0, sigma^2)", limits);
}

}  // namespace corbin
