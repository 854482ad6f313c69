#pragma once
// SignSGD as the authors' repository runs it (REFERENCES.md; quantizer/signsgd.hpp): a client
// sends the sign of its momentum, with no randomisation, and the server steps by the sign of the
// sum. Registered for the per-coordinate questions (law, MSE, PLDP ratio: 1 when [c − r, c + r]
// has one sign, unbounded otherwise); its server rule is not the averaging round of `corbin fl`,
// so it has no federated round here (federated() is false, and `corbin fl` refuses it).

#include <memory>

#include "corbin/fl/registry.hpp"

namespace corbin::fl {

class SignsgdMechanism : public Mechanism {
 public:
  std::string name() const override { return "signsgd"; }
  std::string summary() const override {
    return "SignSGD (the authors' code): the sign of the momentum, no randomisation, no budget";
  }
  bool takes_budget() const override { return false; }
  bool randomised() const override { return false; }
  bool federated() const override { return false; }
  unsigned bits_per_coordinate() const override { return 2; }  // −1, 0, +1: three symbols
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override;
  std::optional<std::vector<Atom>> law(const CoordinateSetting& s, const Rational& w) const override;
  std::optional<PldpSummary> pldp(const CoordinateSetting& s) const override;
};

std::unique_ptr<Mechanism> make_signsgd();

}  // namespace corbin::fl
