#pragma once
// What a subcommand prints: an ordered JSON object (--json) or the same content as aligned
// "key  value  (≈ approx)" lines for a person. Values follow DESIGN.md: an exact value is the
// string "p/q" with a decimal twin under key + "_approx"; a certified value is its midpoint in
// decimal, the twin, and key + "_interval" = [lower, upper].

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "corbin/number/interval.hpp"
#include "corbin/number/rational.hpp"
#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/corbinq.hpp"

namespace corbin::cli {

using Json = nlohmann::ordered_json;

void put(Json& object, const std::string& key, const Rational& value);
void put(Json& object, const std::string& key, const Interval& value);
void put(Json& object, const std::string& key, double value);

template <class T>
void put_joint(Json& object, const std::string& key, const JointLaw<T>& law) {
  Json j = Json::object();
  put(j, "++", law.pp);
  put(j, "+-", law.pm);
  put(j, "-+", law.mp);
  put(j, "--", law.mm);
  object[key] = j;
}

/// The budget as given, with α, e^ε and ε (exact where they are).
void put_budget(Json& object, const Budget& budget);

/// Writes `object` as one JSON line or as readable text.
void emit(std::ostream& out, const Json& object, bool json);

}  // namespace corbin::cli
