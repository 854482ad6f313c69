#pragma once
// RQM, randomized quantization (Youn et al. 2023) as the authors' repository runs it
// (REFERENCES.md; quantizer/rqm.hpp): levels c ± X with X = r(1 + D), and for m = 3 the centre c
// kept with probability q; the input is rounded stochastically between the kept levels, unbiased.
// D = 2/((1 − q)(e^ε − 1)) (2/(e^ε − 1) for m = 2) is the repository's brentq root in closed form.
// Registered as rqm2 and rqm3 (q = 1/2, the scripts' value); exact for a rational e^ε.

#include <memory>

#include "corbin/fl/registry.hpp"

namespace corbin::fl {

class RqmMechanism : public Mechanism {
 public:
  explicit RqmMechanism(unsigned m) : m_(m) {}
  std::string name() const override { return "rqm" + std::to_string(m_); }
  std::string summary() const override;
  unsigned bits_per_coordinate() const override { return 32; }  // the decoded float, as simulated
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override;
  std::unique_ptr<LayerCheck> check(const MechanismConfig& config, const Geometry& g) const override;
  std::optional<std::vector<Atom>> law(const CoordinateSetting& s, const Rational& w) const override;
  std::optional<Interval> mse(const CoordinateSetting& s, const Rational& w) const override;
  std::optional<PldpSummary> pldp(const CoordinateSetting& s) const override;
  /// Unbiased; its MSE X² − x² (m = 2) or X² − qX(X − |x|) − x² (m = 3) is quadratic on each
  /// side of c: the worst aggregate MSE is the registry's default.
  bool unbiased() const override { return true; }
  std::optional<std::vector<Rational>> mse_quadratic_pieces(const CoordinateSetting& s) const override;
  /// Its law is affine in w on each side of c (the kept branch rounds between c and c ± X), and
  /// over the whole range for m = 2: {c − r, c, c + r} or {c − r, c + r}.
  std::optional<std::vector<Rational>> law_extreme_inputs(const CoordinateSetting& s) const override {
    return mse_quadratic_pieces(s);
  }

 private:
  unsigned m_;
};

/// The centre level's keep probability the authors' scripts use.
inline const Rational kRqmKeep{1, 2};

std::unique_ptr<Mechanism> make_rqm(unsigned m);

}  // namespace corbin::fl
