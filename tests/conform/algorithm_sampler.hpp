#pragma once
// Project-written samplers for `corbin conform`'s tests: LDPQ (Alg. 1) and CorBinQ (Alg. 2) coded
// straight from the paper, draw by draw, sharing nothing with corbin's law code but q's formula
// and the rationals, with planted faults:
//   as-printed     Alg. 2 line 14 as printed (ELSIF T1 ≺ Z)
//   reference-tie  the authors' code's tie rule: at threshold index 2^d − 1 a tie always keeps the
//   sign off-by-one     the leader's threshold one cell too high (Z ⪯ T1 in place of Z ≺ T1)
//   float32        q, 2^d q and its fractional part computed in float32 (from float32 inputs)
//   shared-coin    the leader and the follower resolve their ties with one private coin
//   reused-coin    a private coin drawn for every other draw only (reused across coordinates)
//   stale-z        Z drawn for every other draw only (a shared Z not refreshed)
//   fixed-seed     the request's seed ignored: every call repeats the same draws
//   bias           the leader's q (LDPQ's q) raised by `bias`
// MultinomialSampler draws counts straight from a law (the statistics' honesty checks).

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include "corbin/conform/trial.hpp"
#include "corbin/number/interval.hpp"

namespace conform_test {

using corbin::BigInt;
using corbin::Rational;
namespace cf = corbin::conform;

enum class Fault {
  none,
  as_printed,
  reference_tie,
  off_by_one,
  float32,
  shared_coin,
  reused_coin,
  stale_z,
  fixed_seed,
  bias
};

inline Fault parse_fault(const std::string& name) {
  if (name == "none") return Fault::none;
  if (name == "as-printed") return Fault::as_printed;
  if (name == "reference-tie") return Fault::reference_tie;
  if (name == "off-by-one") return Fault::off_by_one;
  if (name == "float32") return Fault::float32;
  if (name == "shared-coin") return Fault::shared_coin;
  if (name == "reused-coin") return Fault::reused_coin;
  if (name == "stale-z") return Fault::stale_z;
  if (name == "fixed-seed") return Fault::fixed_seed;
  if (name == "bias") return Fault::bias;
  throw std::invalid_argument("unknown fault " + name);
}

/// xoshiro256** seeded by splitmix64: fast, and independent of corbin's ChaCha20 streams.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& w : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      w = z ^ (z >> 31);
    }
  }
  std::uint64_t operator()() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

/// A probability as a 64-bit threshold: a uniform word w says "yes" iff w < floor(2^64 p) (p < 1;
/// p = 1 is "always", marked by `always`).
struct Threshold {
  std::uint64_t t = 0;
  bool always = false;
  bool operator()(std::uint64_t word) const { return always || word < t; }
};
inline Threshold threshold_of(const Rational& p) {
  if (p >= 1) return {0, true};
  if (p <= 0) return {0, false};
  return {corbin::floor_of(Rational(p * Rational(corbin::pow2(64)))).convert_to<std::uint64_t>(),
          false};
}
inline Threshold threshold_of(double p) {
  if (p >= 1) return {0, true};
  if (p <= 0) return {0, false};
  return {static_cast<std::uint64_t>(std::ldexp(p, 64)), false};
}

/// q = 1/2 + (w − c)/(2 r α), α = (e^ε + 1)/(e^ε − 1) (Alg. 1, lines 1–2).
inline Rational q_of(const cf::Setting& s, const Rational& w) {
  const Rational alpha = (s.exp_eps + 1) / (s.exp_eps - 1);
  return Rational(1, 2) + (w - s.center) / (2 * s.radius * alpha);
}

/// A threshold cell: T = index, tie probability as a threshold.
struct Cell {
  std::uint64_t index;
  Threshold tie;
};

class AlgorithmSampler final : public cf::Sampler {
 public:
  explicit AlgorithmSampler(Fault fault = Fault::none, double bias = 0)
      : fault_(fault), bias_(bias) {}

  cf::Answer draw(const cf::Request& r) override {
    const cf::Setting& s = r.setting;
    cf::Answer a;
    a.counts.assign(cf::output_labels(s.mechanism).size(), 0);
    Rng rng(fault_ == Fault::fixed_seed ? 12345 : r.seed);
    const auto record = [&](std::uint8_t k) {
      ++a.counts[k];
      if (r.outputs) a.sequence.push_back(k);
    };
    if (s.mechanism.kind == cf::Kind::ldpq) {
      Rational q = q_of(s, s.inputs[0]);
      if (fault_ == Fault::bias) q += Rational(corbin::to_rational(bias_));
      const Threshold plus = fault_ == Fault::float32
                                 ? threshold_of(static_cast<double>(float_q(s, s.inputs[0])))
                                 : threshold_of(q);
      std::uint64_t coin = 0;
      for (std::uint64_t i = 0; i < r.draws; ++i) {
        if (fault_ != Fault::reused_coin || i % 2 == 0) coin = rng();
        record(plus(coin) ? 0 : 1);
      }
      return a;
    }
    if (s.mechanism.kind != cf::Kind::corbinq)
      throw cf::ProtocolError("AlgorithmSampler: ldpq and corbinq only");
    const unsigned d = s.bits;
    const std::uint64_t top = (std::uint64_t{1} << d) - 1;
    Rational q1 = q_of(s, s.inputs[0]);
    if (fault_ == Fault::bias) q1 += Rational(corbin::to_rational(bias_));
    const Cell c1 = cell(s, s.inputs[0], q1, false),
               c2 = cell(s, s.inputs[1], q_of(s, s.inputs[1]), true);
    const bool printed = fault_ == Fault::as_printed;
    std::uint64_t z = 0, u1 = 0, u2 = 0;
    for (std::uint64_t i = 0; i < r.draws; ++i) {
      if (fault_ != Fault::stale_z || i % 2 == 0) z = rng() >> (64 - d);
      if (fault_ != Fault::reused_coin || i % 2 == 0) {
        u1 = rng();
        u2 = rng();
      }
      if (fault_ == Fault::shared_coin) u2 = u1;
      // Leader (lines 4–11): "+" below T1, a tie at T1.
      const std::uint64_t t1 =
          fault_ == Fault::off_by_one ? std::min(c1.index + 1, top + 1) : c1.index;
      const bool plus1 = z < t1 || (z == t1 && c1.tie(u1));
      // Follower (lines 12–19): "−" below T2; line 14 compares T2 ≺ Z (as printed: T1 ≺ Z).
      bool minus2;
      if (z < c2.index)
        minus2 = true;
      else if (printed ? z > c1.index : z > c2.index)
        minus2 = false;
      else
        minus2 = c2.tie(u2);
      record(static_cast<std::uint8_t>((plus1 ? 0 : 2) + (minus2 ? 1 : 0)));
    }
    return a;
  }

 private:
  float float_q(const cf::Setting& s, const Rational& w) const {
    const float alpha =
        static_cast<float>(corbin::to_double(Rational((s.exp_eps + 1) / (s.exp_eps - 1))));
    const float x = static_cast<float>(corbin::to_double(w)),
                c = static_cast<float>(corbin::to_double(s.center));
    const float r = static_cast<float>(corbin::to_double(s.radius));
    return 0.5f + (x - c) / (2.0f * r * alpha);
  }

  /// T = floor(2^d p) and its fractional part for p = q (leader) or 1 − q (follower).
  Cell cell(const cf::Setting& s, const Rational& w, const Rational& q, bool follower) const {
    const std::uint64_t top = (std::uint64_t{1} << s.bits) - 1;
    if (fault_ == Fault::float32) {
      const float qf = float_q(s, w), p = follower ? 1.0f - qf : qf;
      const float u = std::ldexp(p, static_cast<int>(s.bits)), a = std::floor(u);
      return {static_cast<std::uint64_t>(a), threshold_of(static_cast<double>(u - a))};
    }
    const Rational u = (follower ? Rational(1 - q) : q) * Rational(corbin::pow2(s.bits));
    const BigInt a = corbin::floor_of(u);
    Cell c{a.convert_to<std::uint64_t>(), threshold_of(Rational(u - Rational(a)))};
    if (fault_ == Fault::reference_tie && c.index == top) c.tie = {0, true};
    return c;
  }

  Fault fault_;
  double bias_;
};

/// Counts drawn straight from a law (multinomial, by a chain of binomials); the outputs in order,
/// when wanted, drawn one by one. For the statistics' own checks, where speed matters.
class MultinomialSampler final : public cf::Sampler {
 public:
  explicit MultinomialSampler(std::string law_name = "") : law_name_(std::move(law_name)) {}
  cf::Answer draw(const cf::Request& r) override {
    const cf::Law law = cf::exact_law(r.setting, law_name_.empty() ? r.variant : law_name_);
    std::mt19937_64 gen(r.seed);
    cf::Answer a;
    a.counts.assign(law.prob.size(), 0);
    if (r.outputs) {
      std::vector<double> p;
      for (const Rational& x : law.prob) p.push_back(corbin::to_double(x));
      std::discrete_distribution<int> pick(p.begin(), p.end());
      for (std::uint64_t i = 0; i < r.draws; ++i) {
        const auto k = static_cast<std::uint8_t>(pick(gen));
        ++a.counts[k];
        a.sequence.push_back(k);
      }
      return a;
    }
    std::uint64_t left = r.draws;
    Rational mass = 1;
    for (std::size_t k = 0; k + 1 < law.prob.size(); ++k) {
      const double p =
          mass > 0 ? std::min(1.0, corbin::to_double(Rational(law.prob[k] / mass))) : 0;
      const std::uint64_t x =
          left == 0 || p <= 0 ? 0 : std::binomial_distribution<std::uint64_t>(left, p)(gen);
      a.counts[k] = x;
      left -= x;
      mass -= law.prob[k];
    }
    a.counts.back() = left;
    return a;
  }

 private:
  std::string law_name_;
};

}  // namespace conform_test
