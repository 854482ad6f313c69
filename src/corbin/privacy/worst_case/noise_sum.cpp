#include "corbin/privacy/worst_case/noise_sum.hpp"

namespace corbin {

Accountant shift_pair_accountant(const UpperPld& upper, const LowerPld& lower, unsigned long n,
                                 const std::string& noise, const PldLimits& limits) {
  AttainedBy by;
  ConfigurationWords w;
  w.client_1 = "client 1 at c + r";
  w.replaced_by = "client 1 at c - r";
  w.others_ldpq = "the other " + std::to_string(n - 1) + " clients anywhere (a shift: no effect)";
  w.others_pairs = noise + " noise on each of the n clients' inputs; the release is their sum";
  by.parts.push_back(w);
  by.repeats.push_back(1);
  by.reversed.push_back(false);
  return Accountant::from_plds(upper, upper, lower, lower, by, limits);
}

}  // namespace corbin
