#pragma once
// CorBin-FL (Alg. 3): survivors quantize in pairs with CorBinQ (Alg. 2) over the d shared bits
// the protocol gave them (fl/protocol.hpp), a lone survivor with LDPQ; AugCorBin-FL puts the first
// ⌊γn⌋ clients of the shuffled order on LDPQ as well. One bit a coordinate. The live check takes
// the exact joint law of each pair's fixed-point sampler, and the paper's bound is Theorems 2/3
// (d → ∞) plus Theorem 1's gap r²α²/2^(d−6) per pair. The accountant (privacy/run/run_accountant.hpp)
// covers AugCorBin-FL, and both with dropout (privacy/run/round.hpp).

#include <memory>
#include <utility>

#include "corbin/fl/mechanisms/ldp.hpp"

namespace corbin::fl {

class CorbinMechanism : public LdpMechanism {
 public:
  explicit CorbinMechanism(bool augmented) : augmented_(augmented) {}
  std::string name() const override { return augmented_ ? "augcorbin" : "corbin"; }
  std::string summary() const override;
  Pairing pairing() const override { return augmented_ ? Pairing::augmented : Pairing::pairs; }
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override;
  std::unique_ptr<LayerCheck> check(const MechanismConfig& config, const Geometry& g) const override;
  /// A paired client's ratio (CorBinQ, the partner's input maximised over as well); a lone
  /// client's is LDPQ's, which it never exceeds at the corrected variant.
  std::optional<PldpSummary> pldp(const CoordinateSetting& s) const override;
  /// Lone clients (LDPQ: L² each at worst) and pairs (CorBinQ at the setting's d, corrected
  /// variant) are independent and unbiased, so the worst case is their sups summed over n²
  /// (utility/worst_case.hpp). A pair's sup is exact when α <= 2^d, where it equals the d → ∞
  /// one (Theorem 2's worst case); below that d it is enclosed with sup_gap. None for another
  /// variant or an irrational α.
  std::optional<Interval> worst_aggregate_mse(const CoordinateSetting& s, std::size_t n) const override;
  /// Exact where α <= 2^d at a rational α (the d → ∞ worst case is then attained).
  std::optional<Rational> worst_aggregate_mse_exact(const CoordinateSetting& s, std::size_t n) const override;
  /// At given inputs, over the server's random order as well (utility/aggregate.hpp:
  /// random_order_aggregate_mse): exact at a rational α, enclosed at an ε budget; any variant.
  std::optional<MseValue> aggregate_mse_at(const CoordinateSetting& s,
                                           const std::vector<Rational>& weights) const override;
  std::optional<Rational> accountant_gamma(const MechanismConfig& config, std::string& why_not) const override;
  /// Theorem 3's mechanism (privacy/run/accountant.hpp) at γ (AugCorBin-FL's, 0 for CorBin-FL), client
  /// 1 in either role its population has, whichever the server draws.
  std::optional<Accountant> round_accountant(const CoordinateSetting& s, std::size_t n, const PldLimits& limits,
                                             std::string& why_not) const override;

 private:
  /// An exact α's worst aggregate MSE between these two (equal where α <= 2^d).
  std::pair<Rational, Rational> worst_aggregate_bounds(const CoordinateSetting& s, std::size_t n) const;
  bool augmented_;
};

std::unique_ptr<Mechanism> make_corbin();
std::unique_ptr<Mechanism> make_augcorbin();

}  // namespace corbin::fl
