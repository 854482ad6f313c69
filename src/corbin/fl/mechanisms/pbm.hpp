#pragma once
// PBM, the Poisson binomial mechanism (Chen, Özgür, Kairouz 2022) as the authors' repository runs
// it (REFERENCES.md, "Baselines of the authors' repository"; quantizer/pbm.hpp): Z ~ Binomial(m,
// p(w)) with p = 1/2 + (θ/r)(w − c), θ = tanh(ε/(2m))/2, decoded to c + (r/θ)(Z/m − 1/2) and sent
// as a float. Registered as pbm1 and pbm2 (m = 1, 2, the repository's choices). θ is exact when
// e^(ε/m) is rational, an enclosure otherwise (the sampler's thresholds are then certified inward).

#include <memory>

#include "corbin/fl/registry.hpp"

namespace corbin::fl {

class PbmMechanism : public Mechanism {
 public:
  explicit PbmMechanism(unsigned m) : m_(m) {}
  std::string name() const override { return "pbm" + std::to_string(m_); }
  std::string summary() const override;
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override;
  std::unique_ptr<LayerCheck> check(const MechanismConfig& config, const Geometry& g) const override;
  std::optional<std::vector<Atom>> law(const CoordinateSetting& s, const Rational& w) const override;
  std::optional<Interval> mse(const CoordinateSetting& s, const Rational& w) const override;
  std::optional<PldpSummary> pldp(const CoordinateSetting& s) const override;
  /// Binomial(m, p(w)) is affine in p for m = 1 only: a degree-m polynomial otherwise.
  bool law_affine_in_w() const override { return m_ == 1; }
  /// Any m: Binomial(m, p) is the law of m independent trials, each a convex combination of a
  /// trial at p(c − r) and one at p(c + r); so every input's law is a convex combination of the m
  /// + 1 laws with a of the trials at p(c − r) and m − a at p(c + r) (weights C(m, a) t^(m − a)
  /// (1 − t)^a, t = (p − p(c − r))/(p(c + r) − p(c − r))). Those are the vertices of
  /// privacy/worst_case/lone_clients.hpp, attained at a = 0 (c + r) and a = m (c − r) only. An exact
  /// law needs e^(ε/m) rational; none otherwise, saying why.
  std::optional<Accountant> round_accountant(const CoordinateSetting& s, std::size_t n, const PldLimits& limits,
                                             std::string& why_not) const override;
  /// Unbiased, and its MSE (r/θ)² p(1 − p)/m is quadratic in w (p affine) whatever m: the worst
  /// aggregate MSE is the registry's default.
  bool unbiased() const override { return true; }
  std::optional<std::vector<Rational>> mse_quadratic_pieces(const CoordinateSetting& s) const override {
    return range_ends(s);
  }

 private:
  unsigned m_;
};

std::unique_ptr<Mechanism> make_pbm(unsigned m);

}  // namespace corbin::fl
