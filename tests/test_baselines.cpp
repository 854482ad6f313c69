// The authors' repository's baselines PBM, RQM and SignSGD (quantizer/pbm.hpp, rqm.hpp,
// signsgd.hpp) and B1 (quantizer/baseline_identity.hpp). Expected values are worked by hand from
// the formulas in REFERENCES.md; the running example is c = 0, r = 1, e^ε = 9 (α = 5/4), where
// PBM's θ is 2/5 (m = 1) and 1/4 (m = 2) and RQM's D is 1/4 (m = 2) and 1/2 (m = 3, q = 1/2).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "corbin/quantizer/baseline_identity.hpp"
#include "corbin/quantizer/keystream.hpp"
#include "corbin/quantizer/pbm.hpp"
#include "corbin/quantizer/rqm.hpp"
#include "corbin/quantizer/signsgd.hpp"

using namespace corbin;

namespace {

const Rational kZero(0), kOne(1), kNine(9), kHalf(1, 2);

Rational q_(long a, long b = 1) { return Rational(a, b); }

/// The atoms' probabilities, in output order.
std::vector<Rational> probs(const ScalarLaw<Rational>& law) {
  std::vector<Rational> p;
  for (const auto& a : law.atoms) p.push_back(a.prob);
  return p;
}
std::vector<Rational> values(const ScalarLaw<Rational>& law) {
  std::vector<Rational> v;
  for (const auto& a : law.atoms) v.push_back(a.value);
  return v;
}

/// PBM by brute force: all 2^m outcomes of the m coins (shares nothing with pbm_law but the
/// decoding rule ŵ = c + (r/θ)(Z/m − 1/2)).
ScalarLaw<Rational> pbm_enumerated(const Rational& theta, unsigned m, const Rational& c,
                                   const Rational& r, const Rational& w) {
  const Rational p = kHalf + theta * (w - c) / r;
  ScalarLaw<Rational> law;
  for (unsigned k = 0; k <= m; ++k)
    law.atoms.push_back({Rational(c + (r / theta) * (Rational(k, m) - kHalf)), kZero});
  for (unsigned mask = 0; mask < (1u << m); ++mask) {
    Rational prob = 1;
    unsigned z = 0;
    for (unsigned j = 0; j < m; ++j) {
      const bool success = mask >> j & 1u;
      prob *= success ? p : Rational(1 - p);
      z += success;
    }
    law.atoms[z].prob += prob;
  }
  return law;
}

/// RQM by RQM.py's own procedure: levels B_i = c − X + 2iX/(m − 1), each interior level kept
/// with probability q, then randomized rounding between the kept levels around w found as
/// searchsorted(side = "right") − 1, clamped to a valid bracket (RQM.py, _bracket).
ScalarLaw<Rational> rqm_enumerated(unsigned m, const Rational& q, const Rational& d,
                                   const Rational& c, const Rational& r, const Rational& w) {
  const Rational x_max = r * (1 + d);
  std::vector<Rational> level(m);
  for (unsigned i = 0; i < m; ++i) level[i] = c - x_max + 2 * x_max * i / (m - 1);
  ScalarLaw<Rational> law;
  for (unsigned i = 0; i < m; ++i) law.atoms.push_back({level[i], kZero});
  const unsigned interior = m - 2;
  for (unsigned mask = 0; mask < (1u << interior); ++mask) {
    Rational weight = 1;
    std::vector<unsigned> kept{0};
    for (unsigned j = 0; j < interior; ++j) {
      const bool keep = mask >> j & 1u;
      weight *= keep ? q : Rational(1 - q);
      if (keep) kept.push_back(j + 1);
    }
    kept.push_back(m - 1);
    std::size_t jdx = 0;  // number of kept levels <= w, minus one
    for (std::size_t i = 0; i < kept.size(); ++i)
      if (level[kept[i]] <= w) jdx = i;
    jdx = std::min(jdx, kept.size() - 2);
    const unsigned a = kept[jdx], b = kept[jdx + 1];
    const Rational up = (w - level[a]) / (level[b] - level[a]);
    law.atoms[b].prob += weight * up;
    law.atoms[a].prob += weight * (1 - up);
  }
  return law;
}

/// The PLDP supremum over a grid of 2·steps + 1 inputs, by brute force.
struct GridPldp {
  bool unbounded = false;
  Rational ratio = 0;
};
GridPldp grid_pldp(const std::function<ScalarLaw<Rational>(const Rational&)>& law,
                   const Rational& c, const Rational& r, int steps = 32) {
  std::vector<ScalarLaw<Rational>> laws;
  for (int j = -steps; j <= steps; ++j) laws.push_back(law(Rational(c + r * j / steps)));
  GridPldp g;
  for (std::size_t o = 0; o < laws[0].atoms.size(); ++o) {
    Rational hi = laws[0].atoms[o].prob, lo = hi;
    for (const auto& l : laws) {
      hi = std::max(hi, l.atoms[o].prob);
      lo = std::min(lo, l.atoms[o].prob);
    }
    if (hi == 0) continue;
    if (lo == 0) g.unbounded = true;
    else g.ratio = std::max(g.ratio, Rational(hi / lo));
  }
  return g;
}

/// The invalid_argument's parameter, and that its message speaks no command-line option.
std::string parameter_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const invalid_argument& e) {
    CHECK(std::string(e.what()).find("--") == std::string::npos);
    return e.parameter();
  }
  return "(no error)";
}

/// Pearson's statistic of `count` outputs against a law, by output index (`levels` are the
/// sampler's decoded values); an output of probability 0 must never appear.
double chi_square(const std::vector<float>& out, const std::vector<double>& levels,
                  const ScalarLaw<Rational>& law) {
  std::vector<double> counts(levels.size(), 0.0);
  for (float v : out)
    for (std::size_t k = 0; k < levels.size(); ++k)
      if (v == static_cast<float>(levels[k])) counts[k] += 1;
  double total = 0, chi2 = 0;
  for (double c : counts) total += c;
  CHECK(total == static_cast<double>(out.size()));  // every output is one of the levels
  for (std::size_t k = 0; k < levels.size(); ++k) {
    const double e = to_double(law.atoms[k].prob) * total;
    if (e > 0) chi2 += (counts[k] - e) * (counts[k] - e) / e;
    else CHECK(counts[k] == 0);
  }
  return chi2;
}

// Pearson's chi-square at significance 0.001: 1 and 2 degrees of freedom.
constexpr double kChi2Df1 = 10.83, kChi2Df2 = 13.82;

}  // namespace

TEST_CASE("baselines: PBM m = 1 at e^eps = 9: law, moments and PLDP worked by hand", "[baselines][unit]") {
  const Rational theta = pbm_theta_exact(kNine, 1);
  CHECK(theta == q_(2, 5));  // (9 − 1)/(2·10)
  // w = 1/2: p = 1/2 + (2/5)(1/2) = 7/10; levels ±r/(2θ) = ±5/4 = ±rα.
  const auto law = pbm_law(theta, 1, kZero, kOne, kHalf);
  CHECK(values(law) == std::vector<Rational>{q_(-5, 4), q_(5, 4)});
  CHECK(probs(law) == std::vector<Rational>{q_(3, 10), q_(7, 10)});
  CHECK(law.mean() == kHalf);
  CHECK(law.bias(kHalf) == 0);
  CHECK(law.second_moment() == q_(25, 16));
  CHECK(law.mse(kHalf) == q_(21, 16));
  CHECK(pbm_mse(theta, 1, kZero, kOne, kHalf) == q_(21, 16));  // r²p(1 − p)/(mθ²) = (21/100)/(4/25)
  // Ratio (9/10)/(1/10) = 9 = e^ε for the output c − 5/4 between w = −1 and w = 1.
  const auto pldp = pbm_pldp(theta, 1, kZero, kOne, kNine);
  CHECK_FALSE(pldp.unbounded);
  CHECK(pldp.ratio == 9);
  CHECK(pldp.output == 0);
  CHECK(pldp.output_value == q_(-5, 4));
  CHECK(pldp.w_high == -1);
  CHECK(pldp.w_low == 1);
  CHECK(pldp.meets == Meets::yes);
  // Calibrated for e^ε = 8 instead, the same θ overshoots it.
  CHECK(pbm_pldp(theta, 1, kZero, kOne, Rational(8)).meets == Meets::no);
}

TEST_CASE("baselines: PBM m = 2 at e^eps = 9: law, moments and PLDP worked by hand", "[baselines][unit]") {
  const Rational theta = pbm_theta_exact(kNine, 2);
  CHECK(theta == q_(1, 4));  // s = 3: (3 − 1)/(2·4)
  // Levels c + (r/θ)(k/2 − 1/2) = −2, 0, 2; w = 1/2: p = 5/8.
  const auto law = pbm_law(theta, 2, kZero, kOne, kHalf);
  CHECK(values(law) == std::vector<Rational>{q_(-2), q_(0), q_(2)});
  CHECK(probs(law) == std::vector<Rational>{q_(9, 64), q_(15, 32), q_(25, 64)});
  CHECK(law.total() == 1);
  CHECK(law.mean() == kHalf);
  CHECK(law.second_moment() == q_(17, 8));
  CHECK(law.mse(kHalf) == q_(15, 8));
  CHECK(pbm_mse(theta, 2, kZero, kOne, kHalf) == q_(15, 8));
  // Z = 0: ((3/4)/(1/4))² = 9 = e^ε; Z = 1: (1/2)/(3/8) = 4/3 only.
  const auto pldp = pbm_pldp(theta, 2, kZero, kOne, kNine);
  CHECK(pldp.ratio == 9);
  CHECK(pldp.output == 0);
  CHECK(pldp.w_high == -1);
  CHECK(pldp.w_low == 1);
  CHECK(pldp.meets == Meets::yes);
  // Shifted and scaled range: c = 1, r = 1/2 keeps the ratio and moves the levels.
  const auto shifted = pbm_law(theta, 2, kOne, kHalf, kOne);
  CHECK(values(shifted) == std::vector<Rational>{q_(0), q_(1), q_(2)});
  CHECK(probs(shifted) == std::vector<Rational>{q_(1, 4), q_(1, 2), q_(1, 4)});
  CHECK(pbm_pldp(theta, 2, kOne, kHalf, kNine).ratio == 9);
}

TEST_CASE("baselines: PBM's law equals its enumeration, and its PLDP candidates hold the grid's extremes",
          "[baselines][unit]") {
  // m = 3 at e^ε = 8 (s = 2, θ = 1/6) as well: the calibration is exact for every m.
  struct Case {
    Rational exp_eps;
    unsigned m;
    Rational c, r;
  };
  for (const Case& k : {Case{kNine, 1, kZero, kOne}, Case{kNine, 2, q_(1, 2), q_(1, 4)},
                        Case{Rational(8), 3, q_(-1), q_(3)}, Case{q_(25, 9), 2, kZero, kOne}}) {
    const Rational theta = pbm_theta_exact(k.exp_eps, k.m);
    for (int j = -8; j <= 8; ++j) {
      const Rational w = k.c + k.r * j / 8;
      const auto law = pbm_law(theta, k.m, k.c, k.r, w);
      const auto enumerated = pbm_enumerated(theta, k.m, k.c, k.r, w);
      CHECK(values(law) == values(enumerated));
      CHECK(probs(law) == probs(enumerated));
      CHECK(law.mean() == w);
      CHECK(law.mse(w) == pbm_mse(theta, k.m, k.c, k.r, w));
    }
    const auto pldp = pbm_pldp(theta, k.m, k.c, k.r, k.exp_eps);
    const auto grid = grid_pldp([&](const Rational& w) { return pbm_law(theta, k.m, k.c, k.r, w); },
                                k.c, k.r);
    CHECK_FALSE(grid.unbounded);
    CHECK(pldp.ratio == grid.ratio);
    CHECK(pldp.ratio == k.exp_eps);
    CHECK(pldp.meets == Meets::yes);
  }
}

TEST_CASE("baselines: RQM at e^eps = 9: laws, moments and PLDP worked by hand", "[baselines][unit]") {
  // m = 2: D = 2/(9 − 1) = 1/4, X = 5/4 = rα; w = 1/2: up with (1/2 + 5/4)/(5/2) = 7/10.
  const Rational d2 = rqm_delta_ratio(kNine, 2, kHalf);
  CHECK(d2 == q_(1, 4));
  const auto law2 = rqm_law(2, kHalf, d2, kZero, kOne, kHalf);
  CHECK(values(law2) == std::vector<Rational>{q_(-5, 4), q_(5, 4)});
  CHECK(probs(law2) == std::vector<Rational>{q_(3, 10), q_(7, 10)});
  CHECK(rqm_mse(2, kHalf, d2, kZero, kOne, kHalf) == q_(21, 16));
  const auto pldp2 = rqm_pldp(2, kHalf, d2, kZero, kOne, kNine);
  CHECK(pldp2.ratio == 9);
  CHECK(pldp2.meets == Meets::yes);

  // m = 3, q = 1/2: D = 2/((1/2)·8) = 1/2, X = 3/2; w = 1/2 (x >= 0):
  // P0 = (1/2)(1)/3 = 1/6, P1 = (1/2)(1)/(3/2) = 1/3, P2 = (1/2)(2)/3 + (1/2)(1/2)/(3/2) = 1/2.
  const Rational d3 = rqm_delta_ratio(kNine, 3, kHalf);
  CHECK(d3 == kHalf);
  const auto law3 = rqm_law(3, kHalf, d3, kZero, kOne, kHalf);
  CHECK(values(law3) == std::vector<Rational>{q_(-3, 2), q_(0), q_(3, 2)});
  CHECK(probs(law3) == std::vector<Rational>{q_(1, 6), q_(1, 3), q_(1, 2)});
  CHECK(law3.mean() == kHalf);
  CHECK(law3.second_moment() == q_(3, 2));
  CHECK(law3.mse(kHalf) == q_(5, 4));
  CHECK(rqm_mse(3, kHalf, d3, kZero, kOne, kHalf) == q_(5, 4));  // X² − qX(X − |x|) − x²
  // The mirror input w = −1/2 mirrors the law.
  CHECK(probs(rqm_law(3, kHalf, d3, kZero, kOne, -kHalf)) ==
        std::vector<Rational>{q_(1, 2), q_(1, 3), q_(1, 6)});
  // P0(−1) = 5/12 + 1/3 = 3/4 against P0(1) = 1/12: 9 = e^ε; P1: q/(1/6) = 3 = X/(X − r).
  const auto pldp3 = rqm_pldp(3, kHalf, d3, kZero, kOne, kNine);
  CHECK(pldp3.ratio == 9);
  CHECK(pldp3.output == 0);
  CHECK(pldp3.w_high == -1);
  CHECK(pldp3.w_low == 1);
  CHECK(pldp3.meets == Meets::yes);
  // A larger q with the same D breaks the budget: the calibration depends on q.
  CHECK(rqm_pldp(3, q_(3, 5), d3, kZero, kOne, kNine).meets == Meets::no);
}

TEST_CASE("baselines: RQM's law equals RQM.py's procedure, and its PLDP candidates hold the grid's extremes",
          "[baselines][unit]") {
  struct Case {
    Rational exp_eps;
    unsigned m;
    Rational q, c, r;
  };
  for (const Case& k : {Case{kNine, 2, kHalf, kZero, kOne}, Case{kNine, 3, kHalf, kZero, kOne},
                        Case{Rational(4), 3, q_(3, 10), q_(1, 2), q_(1, 4)},
                        Case{q_(11, 10), 3, q_(9, 10), q_(-2), q_(5)},
                        Case{Rational(3), 3, kZero, kZero, kOne}}) {
    const Rational d = rqm_delta_ratio(k.exp_eps, k.m, k.q);
    for (int j = -8; j <= 8; ++j) {
      const Rational w = k.c + k.r * j / 8;
      const auto law = rqm_law(k.m, k.q, d, k.c, k.r, w);
      const auto enumerated = rqm_enumerated(k.m, k.q, d, k.c, k.r, w);
      CHECK(values(law) == values(enumerated));
      CHECK(probs(law) == probs(enumerated));
      CHECK(law.mean() == w);
      CHECK(law.mse(w) == rqm_mse(k.m, k.q, d, k.c, k.r, w));
    }
    const auto pldp = rqm_pldp(k.m, k.q, d, k.c, k.r, k.exp_eps);
    const auto grid = grid_pldp([&](const Rational& w) { return rqm_law(k.m, k.q, d, k.c, k.r, w); },
                                k.c, k.r);
    CHECK_FALSE(grid.unbounded);
    CHECK(pldp.ratio == grid.ratio);
    // The code's calibration compares x = ±r only (rqm_local_pure_dp_eps); it is the supremum.
    const auto at_hi = rqm_law(k.m, k.q, d, k.c, k.r, Rational(k.c + k.r));
    const auto at_lo = rqm_law(k.m, k.q, d, k.c, k.r, Rational(k.c - k.r));
    Rational ends = 0;
    for (std::size_t o = 0; o < at_hi.atoms.size(); ++o)
      if (at_hi.atoms[o].prob > 0 && at_lo.atoms[o].prob > 0)
        ends = std::max({ends, Rational(at_hi.atoms[o].prob / at_lo.atoms[o].prob),
                         Rational(at_lo.atoms[o].prob / at_hi.atoms[o].prob)});
    CHECK(ends == k.exp_eps);
    CHECK(pldp.ratio == k.exp_eps);
  }
}

TEST_CASE("baselines: SignSGD: the sign with probability 1, its error, and a ratio of 1 or unbounded",
          "[baselines][unit]") {
  const auto law = signsgd_law(kZero, kOne, kHalf);
  CHECK(values(law) == std::vector<Rational>{q_(-1), q_(0), q_(1)});
  CHECK(probs(law) == std::vector<Rational>{q_(0), q_(0), q_(1)});
  CHECK(law.mean() == 1);
  CHECK(law.bias(kHalf) == kHalf);
  CHECK(law.mse(kHalf) == q_(1, 4));
  CHECK(signsgd_mse(kZero, kOne, q_(-1, 4)) == q_(9, 16));  // (−1 + 1/4)²
  CHECK(probs(signsgd_law(kZero, kOne, kZero)) == std::vector<Rational>{q_(0), q_(1), q_(0)});
  // [−1, 1]: +1 has probability 1 at v = 1 and 0 at v = −1.
  const auto both = signsgd_pldp(kZero, kOne);
  CHECK(both.unbounded);
  CHECK(both.meets == Meets::not_claimed);
  CHECK(both.output_value == -1);  // the first output found unbounded: −1 at v = −1, never at v = 1
  CHECK(both.w_high == -1);
  CHECK(both.w_low == 1);
  // [1/4, 3/4]: always +1, nothing is revealed (ratio 1), though no ε is claimed.
  const auto positive = signsgd_pldp(kHalf, q_(1, 4));
  CHECK_FALSE(positive.unbounded);
  CHECK(positive.ratio == 1);
  CHECK(positive.output_value == 1);
  // [0, 2]: v = 0 is the only input sending 0.
  const auto edge = signsgd_pldp(kOne, kOne);
  CHECK(edge.unbounded);
  CHECK(edge.w_low == 2);
  CHECK(edge.w_high == 0);
  CHECK(grid_pldp([](const Rational& v) { return signsgd_law(kZero, kOne, v); }, kZero, kOne).unbounded);
  CHECK(signsgd_sample(-0.0, 123) == 0.0);
  CHECK(signsgd_sample(-3.5, 0) == -1.0);
  std::vector<float> v{0.25f, -1e-30f, 0.0f, 7.0f}, out(4);
  signsgd_sample(v.data(), out.data(), v.size());
  CHECK(out == std::vector<float>{1.0f, -1.0f, 0.0f, 1.0f});
}

TEST_CASE("baselines: wire bits as the authors' code sends them", "[baselines][unit]") {
  const auto pbm1 = pbm_wire_bits(1), pbm2 = pbm_wire_bits(2);
  CHECK((pbm1.claimed == 1 && pbm1.lossless == 1 && pbm1.simulated == 32));
  CHECK((pbm2.claimed == 2 && pbm2.lossless == 2 && pbm2.simulated == 32));
  CHECK(pbm_wire_bits(3).lossless == 2);  // 4 outputs
  const auto rqm2 = rqm_wire_bits(2), rqm3 = rqm_wire_bits(3);
  CHECK((rqm2.claimed == 1 && rqm2.lossless == 1 && rqm2.simulated == 32));
  CHECK((rqm3.claimed == 2 && rqm3.lossless == 2 && rqm3.simulated == 32));
  const auto sign = signsgd_wire_bits();
  CHECK((sign.claimed == 1 && sign.lossless == 2 && sign.simulated == 32));  // torch.sign(0) = 0
}

TEST_CASE("baselines: B1 at e^eps = 9, c = 0, r = 1, q = 1/2: PBM m = 1 and RQM m = 2 are LDPQ",
          "[baselines][unit]") {
  const auto results = b1_relation(kNine, kZero, kOne, kHalf);
  REQUIRE(results.size() == 5);
  const ScalarLaw<Rational> ldpq_at_c{{{q_(-5, 4), kHalf}, {q_(5, 4), kHalf}}};
  // PBM (m = 1): same as LDPQ.
  CHECK(results[0].mechanism == "PBM (m = 1)");
  CHECK(results[0].same_as_ldpq);
  CHECK(results[0].verdict() == "same as LDPQ");
  CHECK(same_law(results[0].baseline, ldpq_at_c));
  // PBM (m = 2): distinct at w = 0, {−2: 1/4, 0: 1/2, 2: 1/4} against {±5/4: 1/2}.
  CHECK(results[1].mechanism == "PBM (m = 2)");
  CHECK_FALSE(results[1].same_as_ldpq);
  CHECK(results[1].witness == 0);
  CHECK(to_string(results[1].baseline) == "{-2: 1/4, 0: 1/2, 2: 1/4}");
  CHECK(to_string(results[1].ldpq) == "{-5/4: 1/2, 5/4: 1/2}");
  CHECK(results[1].describe() ==
        "PBM (m = 2): distinct — at w = 0 it gives {-2: 1/4, 0: 1/2, 2: 1/4}, LDPQ gives {-5/4: 1/2, 5/4: 1/2}");
  // RQM (m = 2): same.
  CHECK(results[2].mechanism == "RQM (m = 2)");
  CHECK(results[2].same_as_ldpq);
  // RQM (m = 3, q = 1/2): distinct at w = 0, {−3/2: 1/4, 0: 1/2, 3/2: 1/4}.
  CHECK(results[3].mechanism == "RQM (m = 3, q = 1/2)");
  CHECK_FALSE(results[3].same_as_ldpq);
  CHECK(results[3].witness == 0);
  CHECK(to_string(results[3].baseline) == "{-3/2: 1/4, 0: 1/2, 3/2: 1/4}");
  // SignSGD: distinct at w = 0, {0: 1}.
  CHECK(results[4].mechanism == "SignSGD");
  CHECK_FALSE(results[4].same_as_ldpq);
  CHECK(results[4].witness == 0);
  CHECK(to_string(results[4].baseline) == "{0: 1}");
}

TEST_CASE("baselines: B1 on another range and budget, and RQM m = 3 with q = 0 collapsing to LDPQ",
          "[baselines][unit]") {
  // c = 1/2, r = 1/4, e^ε = 4 (α = 5/3, rα = 5/12), q = 3/10.
  const auto results = b1_relation(Rational(4), kHalf, q_(1, 4), q_(3, 10));
  CHECK(results[0].same_as_ldpq);
  CHECK(results[2].same_as_ldpq);
  CHECK(to_string(results[0].ldpq) == "{1/12: 1/2, 11/12: 1/2}");
  CHECK_FALSE(results[1].same_as_ldpq);  // θ = 1/6: levels −1/4, 1/2, 5/4
  CHECK(to_string(results[1].baseline) == "{-1/4: 1/4, 1/2: 1/2, 5/4: 1/4}");
  CHECK_FALSE(results[3].same_as_ldpq);  // D = 20/21, X = 41/84
  CHECK(to_string(results[3].baseline) == "{1/84: 7/20, 1/2: 3/10, 83/84: 7/20}");
  CHECK_FALSE(results[4].same_as_ldpq);
  CHECK(results[4].witness == kHalf);
  CHECK(to_string(results[4].baseline) == "{1: 1}");
  // q = 0: the middle level is never kept and D = 2/(e^ε − 1), so m = 3 is m = 2 is LDPQ.
  const auto no_middle = b1_relation(Rational(4), kHalf, q_(1, 4), kZero);
  CHECK(no_middle[3].mechanism == "RQM (m = 3, q = 0)");
  CHECK(no_middle[3].same_as_ldpq);
}

TEST_CASE("baselines: B1's comparison finds a difference that vanishes at c and at both ends", "[baselines][unit]") {
  // LDPQ at α = 5/4 with t(w) = w(w − 1)(w + 1)/8 moved from − to +: equal at 0, ±1 only.
  const Rational alpha = q_(5, 4);
  const auto cubic = [&](const Rational& w) {
    auto law = ldpq_law(alpha, kZero, kOne, w);
    const Rational t = w * (w - 1) * (w + 1) / 8;
    law.atoms[0].prob -= t;
    law.atoms[1].prob += t;
    return law;
  };
  const auto r = b1_compare("cubic", cubic, 3, {}, alpha, kZero, kOne);
  CHECK_FALSE(r.same_as_ldpq);
  CHECK(r.witness != 0);
  CHECK(r.witness != 1);
  CHECK(r.witness != -1);
  CHECK_FALSE(same_law(r.baseline, r.ldpq));
  // And LDPQ against itself is the same, compared at c, both ends and 2 interior points.
  const auto self = b1_compare("LDPQ", [&](const Rational& w) { return ldpq_law(alpha, kZero, kOne, w); },
                               1, {}, alpha, kZero, kOne);
  CHECK(self.same_as_ldpq);
  CHECK(self.compared.size() == 5);
  CHECK(self.compared.front().w == 0);  // c first, then both ends and the interior points
  CHECK(self.compared[1].w == -1);
  CHECK(self.compared[2].w == 1);
  CHECK(self.compared[3].w == q_(-1, 3));
  CHECK(self.compared[4].w == q_(1, 3));
  CHECK(r.compared.back().w == r.witness);
  CHECK_FALSE(same_law(r.compared.back().baseline, r.compared.back().ldpq));
}

TEST_CASE("baselines: with eps given, the enclosures hold the calibrated values and the ratio meets e^eps",
          "[baselines][unit]") {
  PrecisionScope scope(128);
  const Rational eps(1);
  const double e = std::exp(1.0);
  // A double's few ulps: the enclosures are 128-bit tight, the reference is a double.
  const double tolerance = 16 * DBL_EPSILON;
  const Interval theta1 = pbm_theta_interval(eps, 1), theta2 = pbm_theta_interval(eps, 2);
  CHECK(std::abs(NumTraits<Interval>::approx(theta1) - 0.5 * std::tanh(0.5)) < tolerance);
  CHECK(std::abs(NumTraits<Interval>::approx(theta2) - 0.5 * std::tanh(0.25)) < tolerance);
  for (const auto& [theta, m] : {std::pair{theta1, 1u}, std::pair{theta2, 2u}}) {
    const auto pldp = pbm_pldp(theta, m, kZero, kOne, exp_eps_interval(eps));
    CHECK(std::abs(NumTraits<Interval>::approx(pldp.ratio) - e) < tolerance * e);
    // Equal by construction: the enclosures overlap and cannot certify <=.
    CHECK(pldp.meets == Meets::undecided);
    CHECK(lower_of(pldp.ratio) <= upper_of(pldp.bound));
  }
  const Interval d3 = rqm_delta_ratio_interval(eps, 3, kHalf);
  CHECK(std::abs(NumTraits<Interval>::approx(d3) - 4 / (e - 1)) < tolerance * 4);
  const auto rqm = rqm_pldp(3, kHalf, d3, kZero, kOne, exp_eps_interval(eps));
  CHECK(std::abs(NumTraits<Interval>::approx(rqm.ratio) - e) < tolerance * e);
  // A budget well below the ratio is certified as not met.
  CHECK(rqm_pldp(3, kHalf, d3, kZero, kOne, exp_eps_interval(Rational(9, 10))).meets == Meets::no);
  // The law's enclosure: PBM m = 1 at w = 1/2 is LDPQ's, 1/2 + (tanh(1/2)/2)(1/2) up.
  const auto law = pbm_law(theta1, 1, kZero, kOne, kHalf);
  CHECK(std::abs(NumTraits<Interval>::approx(law.atoms[1].prob) - (0.5 + 0.25 * std::tanh(0.5))) < tolerance);
  CHECK(std::abs(NumTraits<Interval>::approx(law.atoms[1].value) - 1 / std::tanh(0.5)) < tolerance * 4);
}

TEMPLATE_TEST_CASE("baselines: closed-form MSE equals the law's moments, and the output is unbiased", "[baselines][unit]",
                   Rational, double) {
  using N = NumTraits<TestType>;
  // Named tolerance: the double path rounds each of a few dozen operations once, at values O(10).
  const double tolerance = N::kExact ? 0.0 : 256 * DBL_EPSILON;
  const TestType theta = N::from(q_(1, 4)), d = N::from(q_(1, 2));
  for (int j = -4; j <= 4; ++j) {
    const Rational w = q_(j, 4);
    const TestType wt = N::from(w);
    for (unsigned m : {1u, 2u}) {
      const auto law = pbm_law(theta, m, kZero, kOne, w);
      CHECK(std::abs(N::approx(TestType(law.total() - 1))) <= tolerance);
      CHECK(std::abs(N::approx(law.bias(wt))) <= tolerance);
      CHECK(std::abs(N::approx(TestType(law.mse(wt) - pbm_mse(theta, m, kZero, kOne, w)))) <= tolerance * 16);
    }
    for (unsigned m : {2u, 3u}) {
      const auto law = rqm_law(m, kHalf, d, kZero, kOne, w);
      CHECK(std::abs(N::approx(TestType(law.total() - 1))) <= tolerance);
      CHECK(std::abs(N::approx(law.bias(wt))) <= tolerance);
      CHECK(std::abs(N::approx(TestType(law.mse(wt) - rqm_mse(m, kHalf, d, kZero, kOne, w)))) <= tolerance * 16);
    }
  }
}

TEST_CASE("baselines: the samplers' fixed-point laws stay inside the exact ranges and budgets", "[baselines][unit]") {
  constexpr double kTwo32 = 4294967296.0;
  const PbmSampler pbm1(pbm_theta_exact(kNine, 1), 1, kZero, kOne, derive_key(1, "pbm"), 0);
  // p in [1/10, 9/10]: n in [ceil(2^32/10), floor(9·2^32/10)].
  CHECK(pbm1.n_lo() == 429496730u);
  CHECK(pbm1.n_hi() == 3865470566u);
  CHECK(pbm1.fixed_p(0.0) == 2147483648u);
  CHECK(pbm1.fixed_p(5.0) == pbm1.n_hi());  // clipped as torch.clamp does
  CHECK(pbm1.fixed_p(-5.0) == pbm1.n_lo());
  CHECK(pbm1.levels() == std::vector<double>{-1.25, 1.25});
  // The realised ratio n_hi/n_lo stays at or below e^ε = 9.
  const auto hi = pbm1.fixed_point_law(1.0), lo = pbm1.fixed_point_law(-1.0);
  CHECK(hi.atoms[1].prob / lo.atoms[1].prob <= 9);
  CHECK(lo.atoms[0].prob / hi.atoms[0].prob <= 9);
  // Every realised probability is within 2^-31 of the exact law's (round to nearest, m <= 2).
  const Rational slack(BigInt(1), pow2(31));
  for (double w : {-1.0, -0.3, 0.0, 0.5, 1.0}) {
    const Rational wr = to_rational(w);
    const PbmSampler pbm2(pbm_theta_exact(kNine, 2), 2, kZero, kOne, derive_key(2, "pbm"), 0);
    const auto exact2 = pbm_law(pbm_theta_exact(kNine, 2), 2, kZero, kOne, wr);
    const auto fixed2 = pbm2.fixed_point_law(w);
    for (std::size_t k = 0; k < 3; ++k) {
      CHECK(fixed2.atoms[k].value == exact2.atoms[k].value);
      CHECK(abs(Rational(fixed2.atoms[k].prob - exact2.atoms[k].prob)) <= slack);
    }
    const RqmSampler rqm3(3, kHalf, kHalf, kZero, kOne, derive_key(3, "rqm"), 0);
    const auto exact3 = rqm_law(3, kHalf, kHalf, kZero, kOne, wr);
    const auto fixed3 = rqm3.fixed_point_law(w);
    for (std::size_t k = 0; k < 3; ++k) CHECK(abs(Rational(fixed3.atoms[k].prob - exact3.atoms[k].prob)) <= slack);
  }
  // RQM m = 3 keeps the middle level with floor(2^32 q)/2^32 <= q (rounded toward privacy), and
  // its realised laws at c − r, c, c + r (where every extreme sits) meet e^ε = 9.
  for (const Rational& q : {kHalf, q_(3, 10)}) {
    const Rational d = rqm_delta_ratio(kNine, 3, q);
    const RqmSampler s(3, q, d, kZero, kOne, derive_key(4, "rqm"), 0);
    CHECK(static_cast<double>(s.n_keep()) <= to_double(q) * kTwo32);
    std::vector<Rational> inputs{q_(-1), q_(0), q_(1)};
    std::vector<ScalarLaw<Rational>> laws{s.fixed_point_law(-1.0), s.fixed_point_law(0.0), s.fixed_point_law(1.0)};
    const auto pldp = pldp_over_inputs(inputs, laws);
    CHECK_FALSE(pldp.unbounded);
    CHECK(pldp.ratio <= 9);
    CHECK(pldp.ratio > Rational(8999, 1000));
  }
}

TEST_CASE("baselines: the samplers realise their fixed-point laws (chi-square, fixed key)", "[baselines][unit]") {
  const std::size_t n = std::size_t{1} << 20;
  const float w_value = 0.3f;
  std::vector<float> w(n, w_value), out(n);
  const PbmSampler pbm1(pbm_theta_exact(kNine, 1), 1, kZero, kOne, derive_key(21, "pbm1"), 0);
  pbm1.sample(w.data(), out.data(), n);
  CHECK(chi_square(out, pbm1.levels(), pbm1.fixed_point_law(w_value)) < kChi2Df1);
  const PbmSampler pbm2(pbm_theta_exact(kNine, 2), 2, kZero, kOne, derive_key(22, "pbm2"), 0);
  pbm2.sample(w.data(), out.data(), n);
  CHECK(chi_square(out, pbm2.levels(), pbm2.fixed_point_law(w_value)) < kChi2Df2);
  const RqmSampler rqm2(2, kHalf, q_(1, 4), kZero, kOne, derive_key(23, "rqm2"), 0);
  rqm2.sample(w.data(), out.data(), n);
  CHECK(chi_square(out, rqm2.levels(), rqm2.fixed_point_law(w_value)) < kChi2Df1);
  const RqmSampler rqm3(3, kHalf, kHalf, kZero, kOne, derive_key(24, "rqm3"), 0);
  for (float x : {0.3f, -0.3f}) {  // both kept branches
    std::fill(w.begin(), w.end(), x);
    rqm3.sample(w.data(), out.data(), n);
    CHECK(chi_square(out, rqm3.levels(), rqm3.fixed_point_law(x)) < kChi2Df2);
  }
  // A wrong law is rejected: the exact law at another input.
  std::fill(w.begin(), w.end(), w_value);
  pbm1.sample(w.data(), out.data(), n);
  CHECK(chi_square(out, pbm1.levels(), pbm1.fixed_point_law(0.31)) > kChi2Df1);
}

TEST_CASE("baselines: the samplers draw coordinate i from word i of its chunk's keystream", "[baselines][unit]") {
  const std::size_t n = 2 * kBaselineChunk + 7;
  std::vector<float> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<float>(i % 41) / 20.0f - 1.0f;
  const Key key = derive_key(9, "pbm-words");
  const PbmSampler pbm(pbm_theta_exact(kNine, 2), 2, kZero, kOne, key, 5);
  const RqmSampler rqm(3, kHalf, kHalf, kZero, kOne, key, 5);
  std::vector<float> a(n), b(n);
  pbm.sample(w.data(), a.data(), n);
  rqm.sample(w.data(), b.data(), n);
  for (std::size_t i : {std::size_t{0}, std::size_t{1}, kBaselineChunk - 1, kBaselineChunk + 3, n - 1}) {
    const std::uint64_t chunk = i / kBaselineChunk, index = i % kBaselineChunk;
    std::vector<std::uint8_t> bytes(8 * (index + 1));
    reference_keystream(key, 5, chunk, bytes.data(), bytes.size());
    std::uint64_t word = 0;
    for (int byte = 7; byte >= 0; --byte) word = word << 8 | bytes[8 * index + static_cast<std::size_t>(byte)];
    CHECK(a[i] == static_cast<float>(pbm.sample(static_cast<double>(w[i]), word)));
    CHECK(b[i] == static_cast<float>(rqm.sample(static_cast<double>(w[i]), word)));
  }
  // Reproducible, and any slice starting at a chunk reproduces the full run.
  std::vector<float> again(n), slice(n - kBaselineChunk);
  pbm.sample(w.data(), again.data(), n);
  CHECK(again == a);
  pbm.sample(w.data() + kBaselineChunk, slice.data(), slice.size(), kBaselineChunk);
  CHECK(std::equal(slice.begin(), slice.end(), a.begin() + kBaselineChunk));
  // Another key, other outputs.
  PbmSampler(pbm_theta_exact(kNine, 2), 2, kZero, kOne, derive_key(10, "pbm-words"), 5)
      .sample(w.data(), again.data(), n);
  CHECK(again != a);
}

TEST_CASE("baselines: bad inputs raise invalid_argument naming the mathematical parameter", "[baselines][unit]") {
  const Rational theta = q_(2, 5), d = kHalf;
  const Key key{};
  std::vector<float> w(8, 0.0f), out(8);
  w[3] = std::nanf("");
  const PbmSampler pbm(theta, 1, kZero, kOne, key, 0);
  const RqmSampler rqm(3, kHalf, d, kZero, kOne, key, 0);
  CHECK(parameter_of([&] { pbm_law(theta, 1, kZero, kOne, q_(3, 2)); }) == "w");
  CHECK(parameter_of([&] { pbm_law(theta, 1, kZero, kZero, kZero); }) == "radius");
  CHECK(parameter_of([&] { pbm_law(theta, 0, kZero, kOne, kZero); }) == "m");
  CHECK(parameter_of([&] { pbm_law(kHalf, 1, kZero, kOne, kZero); }) == "theta");
  CHECK(parameter_of([&] { pbm_pldp(kZero, 2, kZero, kOne, kNine); }) == "theta");
  CHECK(parameter_of([&] { pbm_theta_exact(Rational(3), 2); }) == "exp_eps");
  CHECK(parameter_of([&] { pbm_theta_exact(kOne, 1); }) == "exp_eps");
  CHECK(parameter_of([&] { pbm_theta_interval(kZero, 1); }) == "eps");
  CHECK(parameter_of([&] { PbmSampler(q_(1, 4), 3, kZero, kOne, key, 0); }) == "m");
  CHECK(parameter_of([&] { pbm.sample(w.data(), out.data(), w.size()); }) == "w[3]");
  CHECK(parameter_of([&] { pbm.sample(w.data(), out.data(), 2, 5); }) == "first");
  CHECK(parameter_of([&] { pbm.fixed_p(std::nan("")); }) == "w");
  CHECK(parameter_of([&] { rqm_law(4, kHalf, d, kZero, kOne, kZero); }) == "m");
  CHECK(parameter_of([&] { rqm_law(3, kOne, d, kZero, kOne, kZero); }) == "q");
  CHECK(parameter_of([&] { rqm_law(3, q_(-1, 2), d, kZero, kOne, kZero); }) == "q");
  CHECK(parameter_of([&] { rqm_law(3, kHalf, kZero, kZero, kOne, kZero); }) == "delta_ratio");
  CHECK(parameter_of([&] { rqm_law(2, kHalf, d, kZero, kOne, Rational(-2)); }) == "w");
  CHECK(parameter_of([&] { rqm_delta_ratio(kOne, 2, kHalf); }) == "exp_eps");
  CHECK(parameter_of([&] { rqm_delta_ratio_interval(Rational(-1), 3, kHalf); }) == "eps");
  CHECK(parameter_of([&] { rqm.sample(w.data(), out.data(), w.size()); }) == "w[3]");
  CHECK(parameter_of([&] { signsgd_law(kZero, kOne, q_(3, 2)); }) == "w");
  CHECK(parameter_of([&] { signsgd_pldp(kZero, Rational(-1)); }) == "radius");
  CHECK(parameter_of([&] { signsgd_sample(w.data(), out.data(), w.size(), 16); }) == "w[19]");
  CHECK(parameter_of([&] { b1_relation(Rational(3), kZero, kOne, kHalf); }) == "exp_eps");
  CHECK(parameter_of([&] { b1_relation(kNine, kZero, Rational(-1), kHalf); }) == "radius");
  CHECK(parameter_of([&] { b1_relation(kNine, kZero, kOne, kOne); }) == "q");
  CHECK(parameter_of([&] { ldpq_law(kOne, kZero, kOne, kZero); }) == "alpha");
}
