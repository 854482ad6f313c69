#pragma once
// A room's per-coordinate answers in the form its callers print them (`corbin sweep`, the Python
// module): exact where the room can give an exact value, its enclosure otherwise, and a refusal
// naming the room and the question where it has no answer. The rooms answer with enclosures
// (`Mechanism::mse` returns an Interval), and an Interval cannot hold 1/3; a finite law of
// rationals can, so the exact value comes from the room's law where it has one.

#include <optional>
#include <vector>

#include "corbin/fl/registry.hpp"

namespace corbin::fl {

/// A lone client's E[(Q(w) − w)²]: `exact` where the room has a finite law at the setting (the
/// law's own MSE, ScalarLaw::mse), and `enclosure` always (the room's `mse`, or the exact value's
/// enclosure where the room gives only the law).
using LoneMse = MseValue;

/// None where the room has neither a law nor an MSE at the setting (e.g. LDPQ at an irrational
/// e^ε, CQ). A room whose `mse` enclosure misses its own law's MSE raises std::logic_error: the
/// two are the same quantity, computed apart.
std::optional<LoneMse> lone_mse(const Mechanism& m, const CoordinateSetting& s, const Rational& w);

/// n clients' worst aggregate MSE over their inputs: exact where the room computes it exactly
/// (worst_aggregate_mse_exact), its enclosure otherwise; none where the room knows neither.
std::optional<MseValue> worst_aggregate(const Mechanism& m, const CoordinateSetting& s, std::size_t n);

/// How many inputs, and how long ones, the callers (`corbin sweep`, `corbin check`, Python) answer
/// aggregate_mse_at for, so that an answer comes in seconds: a room that pairs clients takes one
/// pair law per ordered pair of distinct inputs (random_order_aggregate_mse), and every room's
/// rationals grow with the inputs' (an input such as 1/(10^300 + i) makes each operation slow).
constexpr std::size_t kMaxInputs = 4096, kMaxPairedValues = 512, kMaxInputBits = 128;
/// Raises invalid_argument("weights") beyond those limits: more inputs, more distinct ones for a
/// room that pairs, or an input whose numerator or denominator has more bits.
void check_input_count(const Mechanism& m, const std::vector<Rational>& weights);

/// The room's answer, or invalid_argument("mechanism") naming the room and `question` (the
/// caller's name for it: "law", "law_mse", "pldp_ratio", ...) where it has none at the setting.
std::vector<Atom> answered_law(const Mechanism& m, const CoordinateSetting& s, const Rational& w,
                               const char* question);
LoneMse answered_mse(const Mechanism& m, const CoordinateSetting& s, const Rational& w,
                     const char* question);
PldpSummary answered_pldp(const Mechanism& m, const CoordinateSetting& s, const char* question);

}  // namespace corbin::fl
