// X1: the PLDP budgets of Experiments 1, 4, 5 and 6 (ε_p = 5 and 10, d = 5) are met by the
// authors' published implementation. Its top threshold cell is reached once e^ε >= 2^d − 1 = 31
// (R1); e^5 > 148 and e^10 > 22026.

#include <cmath>

#include "claims.hpp"
#include "witness.hpp"

namespace corbin::audit {

ClaimResult check_x1(const Grid&) {
  ClaimResult out;
  out.id = "X1";
  out.statement = "The authors' implementation meets ε_p = 5 and 10 at d = 5.";
  out.method = "Exact law of the reference code at e^ε = a rational lower bound of e^5 and of e^10 (148 and 22026): from "
               "e^ε >= 31 on the leader at c + r reaches the top cell, where the code's tie always gives its own sign; "
               "that holds at every larger e^ε, so at e^5 and e^10 too. The code itself, run through `corbin "
               "conform` (docs/conform.md), samples that law (the `reference-code` variant) wherever its float32 "
               "arithmetic is exact enough (c = 0, r = 1).";
  const Rational c(1), r(1);
  Json witnesses = Json::array();
  bool broken = true;
  for (const auto& [eps, lower] : {std::pair<const char*, long>{"5", 148}, {"10", 22026}}) {
    // The lower bounds are exact: e^5 = 148.41…, e^10 = 22026.47… (checked in double with a margin).
    if (!(std::exp(std::stod(eps)) > static_cast<double>(lower) + 0.1))
      throw std::logic_error("X1: the lower bound of e^" + std::string(eps) + " is wrong");
    Json w = reference_top_witness("printed", Rational(lower), eps, c, r, 5);
    broken = broken && w["refutes"].get<bool>();
    witnesses.push_back(w);
  }
  out.certificate["witnesses"] = witnesses;
  out.verdict = broken ? Verdict::fails : Verdict::undecided;
  out.finding = "at ε = 5 and 10 (d = 5) the authors' code outputs c + rα with probability 1 at w = c + r (LDPQ: q < 1) and "
                "never c − rα there, while it does at c − r: biased, and no finite ε bounds its likelihood ratio";
  out.result = out.finding + ".";
  out.recheck = "`corbin pldp --exp-eps 148 --bits 5 --variant reference-code` (unbounded).";
  return out;
}

}  // namespace corbin::audit
