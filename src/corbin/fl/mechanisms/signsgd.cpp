#include "corbin/fl/mechanisms/signsgd.hpp"

#include "corbin/number/error.hpp"
#include "corbin/quantizer/signsgd.hpp"

namespace corbin::fl {

std::unique_ptr<LayerSampler> SignsgdMechanism::sampler(const LayerRound&) const {
  throw invalid_argument("mechanism", "signsgd", "one with an averaging round (SignSGD's server steps by the sign of the sum)");
}

std::optional<std::vector<Atom>> SignsgdMechanism::law(const CoordinateSetting& s, const Rational& w) const {
  return signsgd_law(s.center, s.radius, w).atoms;
}

std::optional<PldpSummary> SignsgdMechanism::pldp(const CoordinateSetting& s) const {
  return summary_of(signsgd_pldp(s.center, s.radius));
}

std::unique_ptr<Mechanism> make_signsgd() { return std::make_unique<SignsgdMechanism>(); }

}  // namespace corbin::fl
