#pragma once
// Correlated quantization (Suresh et al. 2022, one bit; quantizer/cq.hpp), the paper's Exp. 5
// baseline: the survivors, in rank order, share one random cyclic shift per coordinate, so a
// client's output depends on the others': no per-client law, and no privacy claimed (no budget).
// The live check takes CQ's error moments over the shift and the clients' own coins in the
// round's drawn order; the aggregate MSE at given inputs averages over the server's order as well,
// exactly. Its worst case over inputs couples every client's input through the shared shift, but
// none is needed for its privacy: at the ends of the range a client's bit is its position whatever
// the shift and its coin (y = 0 never sends the top level, y = 1 always does), so with the others
// at c − r the released sums for client 1 at c − r and at c + r are two different points.

#include <memory>

#include "corbin/fl/registry.hpp"

namespace corbin::fl {

class CqMechanism : public Mechanism {
 public:
  std::string name() const override { return "cq"; }
  std::string summary() const override {
    return "correlated quantization (Suresh et al. 2022): one bit, a shared random shift, no privacy";
  }
  bool takes_budget() const override { return false; }
  unsigned bits_per_coordinate() const override { return 1; }
  bool couples_lone_clients() const override { return true; }
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override;
  std::unique_ptr<LayerCheck> check(const MechanismConfig& config, const Geometry& g) const override;
  /// (2r/n)² E D² at the inputs' positions y_k = (w_k − (c − r))/(2r), over the shift and the
  /// server's random rank order, exactly (quantizer/cq.hpp: cq_random_order_m2).
  std::optional<MseValue> aggregate_mse_at(const CoordinateSetting& s,
                                           const std::vector<Rational>& weights) const override;
  /// ε = ∞ at every δ < 1, both ends, attained at c ± r (above): the lone clients' family over the
  /// two ends' point masses, which holds exactly there (every output is fixed, whatever the
  /// coupling), and whose upper end, ∞, holds whatever the inputs.
  std::optional<Accountant> round_accountant(const CoordinateSetting& s, std::size_t n, const PldLimits& limits,
                                             std::string& why_not) const override;
};

std::unique_ptr<Mechanism> make_cq();

}  // namespace corbin::fl
