// The verdict vocabulary (CLAIMS.md) and the rule for bounds, apart from the checks so that code
// reading results without running checks (the experiments' CSV reader, its fuzzer) can use it.

#include "claims.hpp"

namespace corbin::audit {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::holds: return "holds";
    case Verdict::holds_with_slack: return "holds with slack";
    case Verdict::holds_only_under: return "holds only under";
    case Verdict::fails: return "fails";
    case Verdict::undecided: return "undecided";
  }
  return "undecided";
}

std::string ClaimResult::verdict_text() const {
  if (verdict == Verdict::holds_only_under) return "holds only under " + condition;
  return to_string(verdict);
}

Verdict bound_verdict(const Rational& tight, const Rational& claimed) {
  if (tight > claimed) return Verdict::fails;
  return tight == claimed ? Verdict::holds : Verdict::holds_with_slack;
}

}  // namespace corbin::audit
