// `corbin check SPEC`: a file of bounds on the toolkit's quantities, each decided exactly or with
// certified enclosures as holds, fails or undecided (never by comparing rounded doubles).
//
//   [[bound]]
//   name = "Theorem 1, tight constant at e^eps = 3, d = 5"
//   quantity = "sup_gap"
//   params = { exp-eps = "3", bits = "5" }
//   relation = "=="
//   value = "1/4"            # or another quantity: { quantity = "...", params = { ... } }
//
// A value that is not a number may carry an exact positive factor, `times = "1/2"`, and name
// instead of a quantity the entry's own quantity and params at another mechanism (`mechanism =
// "ldp"`: "at most half LDP-FL's") or another entry's computed left side (`entry = "NAME"`).
//
// TOML (toml11) or JSON ({"bound": [{...}, ...]}), chosen by the extension, else by the content.
// A quantity is one of `corbin sweep`'s, evaluated by the sweep's own code at a single point
// (evaluate_at), or the accountant's ε(δ) or δ(ε) (accountant_eps, accountant_delta: the value
// lies in `corbin account`'s certified [lower, upper], computed by its own code, compute_account);
// its params are that command's options without dashes, one value each.
// Exit status: 0 every entry holds, 1 one fails, 3 none fails but one is undecided, 2 a malformed
// spec (the message names the entry and the field; nothing is printed or written).

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "account.hpp"
#include "commands.hpp"
#include "corbin/io/files.hpp"
#include "corbin/number/error.hpp"
#include "options.hpp"
#include "run_app.hpp"
#include "spec_reader.hpp"
#include "sweep.hpp"

namespace corbin::cli {
namespace {

using nlohmann::json;

/// A spec's size limits: its bytes are read whole, and every entry is evaluated before anything is
/// printed, so both are bounded.
constexpr std::size_t kMaxEntries = 10'000;
/// And the precision asked for, in all: an entry at a floor of b bits counts (max(b, 2^12)/2^12)²
/// (the certified paths' work grows about as the precision's square: an entry at 2^16 bits took
/// 1.8 s, one at 2^12 a few ms), at most kMaxPrecisionWork in all: 10 000 entries at 2^12 bits or
/// fewer, 39 at 2^16 (about 70 s).
constexpr double kMaxPrecisionWork = 10'000;

const char* const kRelations[] = {"==", "<=", ">=", "<", ">"};
const char* const kFields[] = {"name", "quantity", "params", "relation", "value", "precision"};
/// Working precision an entry or --precision may ask for, in bits (as corbin's --precision).
constexpr unsigned long kMinPrecision = 32, kMaxPrecision = kMaxPrecisionBits;
/// SweepArgs' fields by the name a spec gives them (the sweep's options without dashes).
const std::pair<const char*, std::string SweepArgs::*> kParams[] = {
    {"exp-eps", &SweepArgs::exp_eps}, {"eps", &SweepArgs::eps},       {"alpha", &SweepArgs::alpha},
    {"bits", &SweepArgs::bits},       {"w", &SweepArgs::w},           {"w2", &SweepArgs::w2},
    {"center", &SweepArgs::center},   {"radius", &SweepArgs::radius}, {"variant", &SweepArgs::variant},
    {"n", &SweepArgs::n},             {"gamma", &SweepArgs::gamma},   {"delta", &SweepArgs::delta},
    {"m", &SweepArgs::m},             {"sensitivity", &SweepArgs::sensitivity},
    {"mechanism", &SweepArgs::mechanism}, {"weights", &SweepArgs::weights}};

/// The accountant's quantities: ε at the params' delta, or δ at their at-eps.
bool is_account(const std::string& quantity) { return quantity == "accountant_eps" || quantity == "accountant_delta"; }

std::string joined(const auto& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

std::vector<std::string> param_names(const std::string& quantity) {
  std::vector<std::string> out;
  if (is_account(quantity))
    out = account_field_names();
  else
    for (const auto& p : kParams) out.push_back(p.first);
  return out;
}

/// One side of a relation: a quantity at a point, or a number; the right side may instead be
/// another entry's left side, and may be scaled by an exact factor.
struct Term {
  std::string quantity;                       ///< empty for a number (or another entry's value)
  std::map<std::string, std::string> params;  ///< as written (value.mechanism: the left side's, the mechanism changed)
  Rational number;
  std::string text;  ///< the value as written (a number), or what it names ("1/2 × ldp's aggregate_mse")
  Rational times{1};              ///< value.times, exact and positive
  bool scaled = false;            ///< value.times given
  std::string mechanism;          ///< value.mechanism: the left side at this mechanism
  std::string entry;              ///< value.entry: that entry's computed left side
  std::size_t entry_index = 0;    ///< its index
};

struct Entry {
  std::size_t index;
  std::string name;
  Term lhs, rhs;
  std::string relation;
  unsigned precision = 0;  ///< the entry's working precision floor in bits (0: --precision's)
};

/// What decided an entry.
struct Decision {
  std::string verdict;     ///< holds, fails, undecided
  std::string decided_by;  ///< the comparison of enclosure ends that settled it, or why none did
  Enclosed lhs, rhs;       ///< rhs: the value compared, the factor applied
  std::optional<Enclosed> rhs_before_factor;  ///< where value.times was given
  std::string note;  ///< an evaluation that could not be certified (undecidable's message)
  double seconds = 0;  ///< the entry's evaluation, both sides (JUnit's time)
};

/// An entry in a message: "bound[3] (name)".
std::string entry_where(const json& spec_entry, std::size_t index) {
  std::string where = "bound[" + std::to_string(index) + "]";
  if (spec_entry.is_object() && spec_entry.contains("name") && spec_entry["name"].is_string()) {
    const std::string name = spec_entry["name"].get<std::string>();
    where += " (" + visible(name.substr(0, 60)) + (name.size() > 60 ? "…" : "") + ")";
  }
  return where;
}

/// Bad input in entry `e`'s `field`: "bound[3] (name): field is value, but must be rule".
[[noreturn]] void refuse(const json& spec_entry, std::size_t index, const std::string& field, const std::string& value,
                         const std::string& rule) {
  throw invalid_argument(entry_where(spec_entry, index) + ": " + field, visible(shortened(value)), rule);
}

/// The spec's document, from TOML or JSON (spec_reader.hpp); an unreadable file is exit 2 naming it.
json read_document(const std::string& path) {
  return parse_spec(io::read_regular_file(path, kMaxSpecBytes, "the spec"), path);
}

/// An exact number as written: an integer, or a string "p/q", "0.3", "1e-5" (never a double).
Rational read_number(const json& entry, std::size_t index, const std::string& field, const json& v) {
  if (v.is_number_integer()) return Rational(BigInt(v.dump()));
  if (!v.is_string())
    refuse(entry, index, field, v.dump(),
           "a number as a string such as \"1/4\" or \"0.3\" (a float is a double, not the decimal written)");
  try {
    return parse_rational(v.get<std::string>(), field);
  } catch (const invalid_argument&) {
    refuse(entry, index, field, quote(v.get<std::string>()), "a number such as 1/4, 0.3 or 1e-5");
  }
}

/// {quantity, params} of an entry or of an inline value.
Term read_term(const json& entry, std::size_t index, const std::string& prefix, const json& obj) {
  Term t;
  const json& q = obj.contains("quantity") ? obj["quantity"] : json();
  if (q.is_null()) refuse(entry, index, prefix + "quantity", "missing", "a quantity such as sup_gap");
  if (!q.is_string()) refuse(entry, index, prefix + "quantity", q.dump(), "a string");
  t.quantity = t.text = q.get<std::string>();
  if (!obj.contains("params")) return t;
  const json& params = obj["params"];
  if (!params.is_object()) refuse(entry, index, prefix + "params", params.dump(), "a table of parameters");
  for (const auto& [key, value] : params.items()) {
    const std::string field = prefix + "params." + key;
    const std::vector<std::string> names = param_names(t.quantity);
    if (std::find(names.begin(), names.end(), key) == names.end())
      refuse(entry, index, field, "given", "a known parameter of " + t.quantity + " (one of " + joined(names) + ")");
    std::string text;
    const auto number_text = [&](const json& v, const std::string& where) {
      if (v.is_number_integer()) return v.dump();
      if (v.is_string()) return v.get<std::string>();
      refuse(entry, index, where, v.dump(), "a string (a number as \"1/4\" or \"0.3\", read exactly)");
    };
    // weights is one set of inputs: a list ["1/4", "-1/8"], or a list or range as the sweep's.
    if (key == "weights" && value.is_array()) {
      if (value.empty()) refuse(entry, index, field, "[]", "at least one client's input");
      for (std::size_t k = 0; k < value.size(); ++k) {
        const std::string item = number_text(value[k], field + "[" + std::to_string(k) + "]");
        if (item.find_first_of(",:") != std::string::npos)
          refuse(entry, index, field + "[" + std::to_string(k) + "]", quote(item), "a single value");
        text += (k ? "," : "") + item;
      }
    } else {
      text = number_text(value, field);
    }
    // The sweep reads "a,b" and "a:b:k" as grids; an entry is one point.
    if (key != "weights" && text.find_first_of(",:") != std::string::npos)
      refuse(entry, index, field, quote(text), "a single value (not a grid)");
    t.params[key] = text;
    if (key == "exp-eps") warn_if_other_unit(text, entry_where(entry, index) + ": " + field, "params.eps = ");
  }
  return t;
}

std::vector<Entry> read_entries(const json& doc, const std::string& path) {
  if (!doc.is_object() || !doc.contains("bound") || !doc["bound"].is_array())
    throw invalid_argument("the spec", quote(path), "a list of entries [[bound]] (JSON: {\"bound\": [...]})");
  for (const auto& [key, value] : doc.items())
    if (key != "bound") throw invalid_argument("the spec's key " + quote(key), "given", "absent (only bound is read)");
  const json& list = doc["bound"];
  if (list.size() > kMaxEntries)
    throw invalid_argument("the spec " + quote(path), std::to_string(list.size()) + " entries",
                           "at most " + std::to_string(kMaxEntries) + " entries");
  if (list.empty()) throw invalid_argument("the spec " + quote(path), "empty", "at least one [[bound]] entry");
  std::vector<Entry> out;
  std::map<std::string, std::size_t> named;  // a report row and a JUnit case per name: one each
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& e = list[i];
    if (!e.is_object()) refuse(e, i, "entry", e.dump().substr(0, 60), "a table");
    for (const auto& [key, value] : e.items())
      if (std::find(std::begin(kFields), std::end(kFields), key) == std::end(kFields))
        refuse(e, i, key, "given", "absent (the fields are " + joined(kFields) + ")");
    for (const char* field : {"name", "quantity", "relation", "value"})
      if (!e.contains(field)) refuse(e, i, field, "missing", "given");
    Entry entry;
    entry.index = i;
    if (!e["name"].is_string() || e["name"].get<std::string>().empty())
      refuse(e, i, "name", e["name"].dump(), "a non-empty string");
    entry.name = e["name"].get<std::string>();
    if (const auto [at, fresh] = named.emplace(entry.name, i); !fresh)
      refuse(e, i, "name", visible(quote(entry.name)),
             "a name no other entry has (bound[" + std::to_string(at->second) + "] has it)");
    entry.lhs = read_term(e, i, "", e);
    const json& rel = e["relation"];
    if (!rel.is_string() ||
        std::find(std::begin(kRelations), std::end(kRelations), rel.get<std::string>()) == std::end(kRelations))
      refuse(e, i, "relation", rel.is_string() ? quote(rel.get<std::string>()) : rel.dump(), "one of " + joined(kRelations));
    entry.relation = rel.get<std::string>();
    const json& v = e["value"];
    if (v.is_object()) {
      for (const auto& [key, value] : v.items())
        if (key != "quantity" && key != "params" && key != "times" && key != "mechanism" && key != "entry")
          refuse(e, i, "value." + key, "given", "absent (a value's fields are quantity, params, times, mechanism, entry)");
      const int forms = int(v.contains("quantity")) + int(v.contains("mechanism")) + int(v.contains("entry"));
      if (forms != 1)
        refuse(e, i, "value", forms == 0 ? "without a quantity, mechanism or entry" : "with more than one of them",
               "exactly one of value.quantity, value.mechanism, value.entry");
      if (v.contains("params") && !v.contains("quantity"))
        refuse(e, i, "value.params", "given", "absent with value.mechanism or value.entry (their params are an entry's)");
      if (v.contains("quantity")) {
        entry.rhs = read_term(e, i, "value.", v);
      } else {
        const std::string field = v.contains("mechanism") ? "value.mechanism" : "value.entry";
        const json& name = v.contains("mechanism") ? v["mechanism"] : v["entry"];
        if (!name.is_string() || name.get<std::string>().empty())
          refuse(e, i, field, name.dump(), "a non-empty string");
        if (v.contains("mechanism")) {
          // The entry's own quantity and params, at another mechanism: "at most half LDP-FL's".
          if (is_account(entry.lhs.quantity))
            refuse(e, i, field, quote(name.get<std::string>()),
                   "absent for " + entry.lhs.quantity + " (give value.quantity and value.params)");
          if (entry.lhs.params.count("mechanism") == 0)
            refuse(e, i, field, quote(name.get<std::string>()),
                   "absent for an entry whose params name no mechanism (give value.quantity and value.params)");
          entry.rhs = entry.lhs;
          entry.rhs.mechanism = entry.rhs.params["mechanism"] = name.get<std::string>();
          entry.rhs.text = entry.rhs.mechanism + "'s " + entry.lhs.quantity;
        } else {
          entry.rhs.entry = name.get<std::string>();  // resolved once every entry is read
          entry.rhs.text = "entry " + quote(entry.rhs.entry);
        }
      }
      if (v.contains("times")) {
        entry.rhs.times = read_number(e, i, "value.times", v["times"]);
        if (!(entry.rhs.times > 0))
          refuse(e, i, "value.times", v["times"].is_string() ? quote(v["times"].get<std::string>()) : v["times"].dump(),
                 "a positive number such as \"1/2\"");
        entry.rhs.scaled = true;
        entry.rhs.text = (v["times"].is_string() ? v["times"].get<std::string>() : v["times"].dump()) + " × " + entry.rhs.text;
      }
    } else {
      entry.rhs.number = read_number(e, i, "value", v);
      entry.rhs.text = v.is_string() ? v.get<std::string>() : v.dump();
    }
    if (e.contains("precision")) {
      const json& p = e["precision"];
      const std::string text = p.is_number_integer() ? p.dump() : p.is_string() ? p.get<std::string>() : std::string();
      unsigned long bits = 0;
      try {
        bits = text.empty() ? 0 : parse_count(text, "precision", kMaxPrecision);
      } catch (const invalid_argument&) {
      }
      if (bits < kMinPrecision)
        refuse(e, i, "precision", p.dump(), "a number of bits in [" + std::to_string(kMinPrecision) + ", 2^16]");
      entry.precision = static_cast<unsigned>(bits);
    }
    out.push_back(std::move(entry));
  }
  // value.entry names another entry, anywhere in the spec (its left side is computed first).
  for (Entry& entry : out) {
    if (entry.rhs.entry.empty()) continue;
    const auto it = named.find(entry.rhs.entry);
    if (it == named.end() || it->second == entry.index)
      refuse(list[entry.index], entry.index, "value.entry", visible(quote(shortened(entry.rhs.entry))),
             it == named.end() ? "the name of an entry of the spec" : "another entry's name (not its own)");
    entry.rhs.entry_index = it->second;
  }
  return out;
}

/// The accountant's certified [lower, upper] around ε(δ) (accountant_eps) or δ(ε)
/// (accountant_delta); an infinite upper bound leaves the value in [lower, +∞).
Enclosed evaluate_account(const Term& t) {
  AccountArgs args;
  for (const auto& [key, value] : t.params)
    if (std::string* field = account_field(args, key)) *field = value;
  const int budgets = int(!args.budget.exp_eps.empty()) + int(!args.budget.eps.empty()) + int(!args.budget.alpha.empty());
  if (budgets != 1) throw invalid_argument("the privacy budget", budgets == 0 ? "missing" : "given twice", "exactly one of --exp-eps, --eps, --alpha");
  if (args.n.empty()) throw invalid_argument("--n", "missing", "given");
  if (args.gamma.empty()) throw invalid_argument("--gamma", "missing", "given");
  if (args.neighbours.empty()) throw invalid_argument("--neighbours", "missing", "given (replace or remove)");
  if (t.quantity == "accountant_eps" && !args.at_eps.empty())
    throw invalid_argument("--at-eps", args.at_eps, "absent for accountant_eps (its params give delta; accountant_delta takes at-eps)");
  if (t.quantity == "accountant_delta" && args.at_eps.empty())
    throw invalid_argument("--at-eps", "missing", "given (accountant_delta is δ at ε = at-eps)");
  const AccountOutcome o = compute_account(args);
  Enclosed x;
  if (std::isinf(o.bounds.lower)) {  // no ε at all reaches δ (disjoint laws): the value is +∞
    x.unbounded = true;
    return x;
  }
  x.lower = Rational(o.bounds.lower);  // a double converts exactly
  if (std::isinf(o.bounds.upper)) x.upper_infinite = true;
  else x.upper = Rational(o.bounds.upper);
  return x;
}

/// A term's value; the sweep's and the accountant's messages name their options, which an entry
/// names without dashes.
Enclosed evaluate_term(const json& spec_entry, std::size_t index, const std::string& prefix, const Term& t) {
  if (t.quantity.empty()) {
    Enclosed x;
    x.exact = x.lower = x.upper = t.number;
    return x;
  }
  try {
    if (is_account(t.quantity)) return evaluate_account(t);
    SweepArgs args;
    args.quantity = t.quantity;
    for (const auto& [key, field] : kParams)
      if (const auto it = t.params.find(key); it != t.params.end()) {
        args.*field = it->second;
        // value.mechanism's params are the left side's setting, which the other mechanism reads
        // as far as it reads them (γ for LDP-FL is not an error there): none is "given".
        if (std::string(key) != "mechanism" && t.mechanism.empty()) args.given.insert("--" + std::string(key));
      }
    return evaluate_at(args);
  } catch (const invalid_argument& e) {
    std::string parameter = option_for(e.parameter());  // the library's names (exp_eps, w1) too
    if (!t.mechanism.empty() && parameter == "--mechanism") refuse(spec_entry, index, prefix + "mechanism", e.value(), e.rule());
    if (parameter == "--quantity") {
      std::string rule = e.rule();
      if (rule.rfind("one of ", 0) == 0) rule += ", accountant_eps, accountant_delta";
      refuse(spec_entry, index, prefix + "quantity", e.value(), rule);
    }
    if (parameter.rfind("--", 0) == 0) parameter = "params." + parameter.substr(2);
    else parameter = "params (" + parameter + ")";
    std::string rule = e.rule();
    for (const std::string& key : param_names(t.quantity))  // "exactly one of --eps, --exp-eps": the spec's names
      for (std::size_t at; (at = rule.find("--" + key)) != std::string::npos;) rule.erase(at, 2);
    refuse(spec_entry, index, prefix + parameter, e.value(), rule);
  }
}

/// One end of x against one end of y on the extended reals: an unbounded value is +∞ at both
/// ends, a value known only from below is +∞ at its upper end.
int compare(const Enclosed& x, bool x_upper, const Enclosed& y, bool y_upper) {
  const bool x_inf = x.unbounded || (x_upper && x.upper_infinite);
  const bool y_inf = y.unbounded || (y_upper && y.upper_infinite);
  if (x_inf || y_inf) return x_inf == y_inf ? 0 : x_inf ? 1 : -1;
  const Rational& a = x_upper ? x.upper : x.lower;
  const Rational& b = y_upper ? y.upper : y.lower;
  return a < b ? -1 : a > b ? 1 : 0;
}

/// x times an exact factor f > 0: the ends keep their order, +∞ stays +∞, exact stays exact.
Enclosed scaled(Enclosed x, const Rational& f) {
  if (x.unbounded) return x;
  if (x.exact) x.exact = Rational(*x.exact * f);
  x.lower = Rational(x.lower * f);
  x.upper = Rational(x.upper * f);
  x.enclosure = Interval(x.enclosure * interval_from(f));
  return x;
}

/// The relation decided on the enclosures [a, b] of the left and [c, d] of the right (points when
/// exact): e.g. `<=` holds when b <= c, fails when a > d, and is undecided otherwise.
Decision decide(const std::string& rel, Enclosed lhs, Enclosed rhs) {
  Decision out;
  const int bc = compare(lhs, true, rhs, false), ad = compare(lhs, false, rhs, true);
  const auto set = [&](const char* verdict, const char* by) {
    out.verdict = verdict;
    out.decided_by = by;
  };
  if (rel == "<=") {
    if (bc <= 0) set("holds", "lhs.upper <= rhs.lower");
    else if (ad > 0) set("fails", "lhs.lower > rhs.upper");
  } else if (rel == "<") {
    if (bc < 0) set("holds", "lhs.upper < rhs.lower");
    else if (ad >= 0) set("fails", "lhs.lower >= rhs.upper");
  } else if (rel == ">=") {
    if (ad >= 0) set("holds", "lhs.lower >= rhs.upper");
    else if (bc < 0) set("fails", "lhs.upper < rhs.lower");
  } else if (rel == ">") {
    if (ad > 0) set("holds", "lhs.lower > rhs.upper");
    else if (bc <= 0) set("fails", "lhs.upper <= rhs.lower");
  } else {  // ==: only two equal points hold
    const bool points = (lhs.exact || lhs.unbounded) && (rhs.exact || rhs.unbounded);
    if (points && bc == 0) set("holds", "lhs == rhs (exact)");
    else if (bc < 0) set("fails", "lhs.upper < rhs.lower");
    else if (ad > 0) set("fails", "lhs.lower > rhs.upper");
    else if (points) set("fails", "lhs != rhs (exact)");
  }
  if (out.verdict.empty()) {
    out.verdict = "undecided";
    out.decided_by = "the enclosures overlap";
  }
  out.lhs = std::move(lhs);
  out.rhs = std::move(rhs);
  return out;
}

/// x as a decimal with `digits` significant digits, rounded down (`up` false) or up: an
/// enclosure's ends printed outward, so that the printed interval still contains the value.
std::string decimal_outward(const Rational& x, bool up, int digits = 20) {
  if (x == 0) return "0";
  // 10^e <= |x| < 10^(e+1), found exactly from a first guess.
  const Rational ax = x < 0 ? Rational(-x) : x;
  // From the bit lengths, not a double: |x| may lie beyond a double's range.
  const long bits = static_cast<long>(boost::multiprecision::msb(numerator(ax))) -
                    static_cast<long>(boost::multiprecision::msb(denominator(ax)));
  long e = static_cast<long>(std::floor(static_cast<double>(bits) * 0.30102999566398119521));
  const auto pow10 = [](long k) {
    BigInt p = 1;
    for (long i = 0; i < (k < 0 ? -k : k); ++i) p *= 10;
    return k >= 0 ? Rational(p) : Rational(BigInt(1), p);
  };
  while (pow10(e) > ax) --e;
  while (pow10(e + 1) <= ax) ++e;
  const Rational scaled = x * pow10(digits - 1 - e);
  const BigInt down = floor_of(scaled);
  const BigInt m = (up && Rational(down) != scaled) ? BigInt(down + 1) : down;
  std::string digits_text = (m < 0 ? BigInt(-m) : m).str();
  std::string out = m < 0 ? "-" : "";
  out += digits_text.substr(0, 1) + "." + digits_text.substr(1) + "e" + std::to_string(e + (long(digits_text.size()) - digits));
  return out;
}

json value_json(const Enclosed& x) {
  if (x.unbounded) return {{"unbounded", true}};
  if (x.exact) return {{"exact", to_string(*x.exact)}};
  return {{"lower", decimal_outward(x.lower, false)},
          {"upper", x.upper_infinite ? std::string("inf") : decimal_outward(x.upper, true)}};
}

std::string value_text(const Enclosed& x) {
  if (x.unbounded) return "inf";
  if (x.exact) return to_string(*x.exact);
  return "[" + decimal_outward(x.lower, false, 12) + ", " +
         (x.upper_infinite ? std::string("inf") : decimal_outward(x.upper, true, 12)) + "]";
}

/// Text for an XML attribute: markup escaped, and the characters XML 1.0 cannot hold at all (the
/// control characters but tab, newline and return; TOML and JSON strings may carry them) written
/// as visible escapes, so that the report stays well-formed.
std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += "&#9;"; break;
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      default: append_visible(out, ch);
    }
  }
  return out;
}

struct CheckArgs {
  std::string spec, json_path, junit_path, precision;
};

int run_check(const CheckArgs& a) {
  // The reports are regular files of their own, never the spec or each other: checked before
  // anything is read or written.
  std::vector<io::NamedPath> paths{{a.spec, "spec"}};
  if (!a.json_path.empty()) paths.push_back({a.json_path, "json"});
  if (!a.junit_path.empty()) paths.push_back({a.junit_path, "junit"});
  io::check_distinct(paths);
  if (!a.json_path.empty()) io::check_output_file(a.json_path, "json");
  if (!a.junit_path.empty()) io::check_output_file(a.junit_path, "junit");
  unsigned precision = 0;
  if (!a.precision.empty()) {
    precision = static_cast<unsigned>(parse_count(a.precision, "--precision", kMaxPrecision, kMinPrecision));
  }
  const json doc = read_document(a.spec);
  const std::vector<Entry> entries = read_entries(doc, a.spec);
  // Every left side first (a value.entry reads another entry's, wherever it is in the spec), then
  // every right side and the comparison; each entry's time is its own evaluations' (JUnit's time).
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  // Every certified evaluation of an entry starts from at least this precision (the entry's own,
  // else --precision; none: each quantity's default).
  const auto floor_of_entry = [&](const Entry& e) { return e.precision ? e.precision : precision; };
  double work = 0;
  unsigned highest = 0;
  for (const Entry& e : entries) {
    const double units = std::max(1.0, static_cast<double>(floor_of_entry(e)) / 4096);
    work += units * units;
    highest = std::max(highest, floor_of_entry(e));
  }
  if (work > kMaxPrecisionWork)
    throw invalid_argument("the spec's precision", std::to_string(entries.size()) + " entries at up to " +
                                                       std::to_string(highest) + " bits",
                           "at most " + std::to_string(static_cast<long>(kMaxPrecisionWork)) +
                               " units of work in all, an entry at b bits counting (max(b, 4096)/4096)² "
                               "(at 2^16 bits 256: 39 such entries)");
  struct Side {
    std::optional<Enclosed> value;
    std::string note;  ///< an evaluation that could not be certified (undecidable's message)
    double seconds = 0;
  };
  const auto evaluate_side = [&](const Entry& e, const std::string& prefix, const Term& t) {
    Side side;
    const Clock::time_point start = Clock::now();
    const PrecisionFloor scope(floor_of_entry(e));
    try {
      side.value = evaluate_term(doc["bound"][e.index], e.index, prefix, t);
    } catch (const undecidable& u) {
      // A branch inside the evaluation that the enclosures could not settle: no value to compare.
      side.note = first_line(u.what());
    }
    side.seconds = seconds_since(start);
    return side;
  };
  std::vector<Side> lhs;
  for (const Entry& e : entries) lhs.push_back(evaluate_side(e, "", e.lhs));
  std::vector<Decision> decisions;
  for (const Entry& e : entries) {
    Side rhs = e.rhs.entry.empty() ? evaluate_side(e, "value.", e.rhs) : lhs[e.rhs.entry_index];
    if (!e.rhs.entry.empty()) {
      rhs.seconds = 0;  // computed once, counted with the entry it belongs to
      if (!rhs.note.empty()) rhs.note = "value.entry " + quote(e.rhs.entry) + ": " + rhs.note;
    }
    Decision d;
    const std::string& note = !lhs[e.index].note.empty() ? lhs[e.index].note : rhs.note;
    if (note.empty()) {
      Enclosed compared = *rhs.value;
      if (e.rhs.scaled) compared = scaled(compared, e.rhs.times);
      d = decide(e.relation, *lhs[e.index].value, std::move(compared));
      if (e.rhs.scaled) d.rhs_before_factor = *rhs.value;
    } else {
      d.verdict = "undecided";
      d.decided_by = "the evaluation could not be certified";
      d.note = note;
      d.lhs.unbounded = d.rhs.unbounded = false;
    }
    d.seconds = lhs[e.index].seconds + rhs.seconds;
    decisions.push_back(std::move(d));
  }
  std::size_t holds = 0, fails = 0, undecided = 0;
  for (const Decision& d : decisions) (d.verdict == "holds" ? holds : d.verdict == "fails" ? fails : undecided) += 1;
  const int status = fails > 0 ? 1 : undecided > 0 ? 3 : 0;

  // Everything is decided: the reports, then the table.
  json report = {{"spec", a.spec}, {"holds", holds}, {"fails", fails}, {"undecided", undecided},
                 {"exit_status", status}, {"entries", json::array()}};
  // JUnit's times are in seconds, the suite's the sum of its cases' (the spec's reading aside).
  const auto seconds_text = [](double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", seconds);
    return std::string(text);
  };
  double total_seconds = 0;
  for (const Decision& d : decisions) total_seconds += d.seconds;
  std::string junit = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"corbin check " +
                      xml_escaped(a.spec) + "\" tests=\"" + std::to_string(entries.size()) + "\" failures=\"" +
                      std::to_string(fails) + "\" errors=\"0\" skipped=\"" + std::to_string(undecided) +
                      "\" time=\"" + seconds_text(total_seconds) + "\">\n";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const Decision& d = decisions[i];
    json item = {{"index", i}, {"name", e.name}, {"quantity", e.lhs.quantity}, {"params", e.lhs.params},
                 {"relation", e.relation}, {"verdict", d.verdict}, {"decided_by", d.decided_by}};
    if (const unsigned floor = e.precision ? e.precision : precision) item["precision_bits"] = floor;
    // The value as written: a number, or what it names (a factor, a quantity at a point, another
    // mechanism's, another entry's); rhs is the value compared, the factor applied.
    json value = json::object();
    if (e.rhs.scaled) value["times"] = to_string(e.rhs.times);
    if (!e.rhs.entry.empty()) {
      value["entry"] = e.rhs.entry;
    } else if (!e.rhs.quantity.empty()) {
      if (!e.rhs.mechanism.empty()) value["mechanism"] = e.rhs.mechanism;
      value["quantity"] = e.rhs.quantity;
      value["params"] = e.rhs.params;
    }
    item["value"] = value.empty() ? json(e.rhs.text) : value;
    if (d.note.empty()) {
      item["lhs"] = value_json(d.lhs);
      item["rhs"] = value_json(d.rhs);
      if (d.rhs_before_factor) item["rhs_before_factor"] = value_json(*d.rhs_before_factor);
    } else {
      item["note"] = d.note;
    }
    report["entries"].push_back(item);
    const std::string detail = d.note.empty() ? e.lhs.quantity + " = " + value_text(d.lhs) + " " + e.relation + " " +
                                                    value_text(d.rhs) + ": " + d.verdict + " (" + d.decided_by + ")"
                                              : d.note;
    junit += "<testcase classname=\"corbin.check\" name=\"" + xml_escaped(e.name) + "\" time=\"" +
             seconds_text(d.seconds) + "\">";
    // The values themselves, on every case (a passing one too): what was computed, its
    // enclosure's ends, the right-hand side, and what decided it.
    if (d.note.empty()) {
      const auto property = [&](const std::string& key, const std::string& value) {
        junit += "<property name=\"" + key + "\" value=\"" + xml_escaped(value) + "\"/>";
      };
      junit += "<properties>";
      property("computed", value_text(d.lhs));
      property("computed_lower", d.lhs.unbounded ? "inf" : decimal_outward(d.lhs.lower, false, 17));
      property("computed_upper", d.lhs.unbounded || d.lhs.upper_infinite ? "inf" : decimal_outward(d.lhs.upper, true, 17));
      property("relation", e.relation);
      property("bound", value_text(d.rhs));
      if (!e.rhs.quantity.empty() || !e.rhs.entry.empty()) property("bound_of", e.rhs.text);
      property("decided_by", d.decided_by);
      junit += "</properties>";
    }
    if (d.verdict == "fails") junit += "<failure message=\"" + xml_escaped(detail) + "\"/>";
    // Undecided is neither a refuted bound nor a broken run: the claim was not settled at the
    // working precision. JUnit's <skipped> says so; the exit status (3) keeps CI from passing.
    if (d.verdict == "undecided") junit += "<skipped message=\"undecided: " + xml_escaped(detail) + "\"/>";
    junit += "</testcase>\n";
  }
  junit += "</testsuite>\n</testsuites>\n";
  const std::string report_text = report.dump(2) + "\n";
  std::vector<io::PendingFile> files;  // both reports or neither
  if (!a.json_path.empty()) files.push_back({a.json_path, report_text, "json"});
  if (!a.junit_path.empty()) files.push_back({a.junit_path, junit, "junit"});
  io::write_together(files);

  // The table shows the computed left side (exact, or its enclosure) beside the bound it is held
  // to: a number as written, else what the value names and the value compared ("1/2 × ldp's
  // aggregate_mse = 1/20000").
  constexpr std::size_t kColumns = 6;
  std::vector<std::array<std::string, kColumns>> rows{{"name", "quantity", "computed", "relation", "bound", "verdict"}};
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Term& rhs = entries[i].rhs;
    const bool named = !rhs.quantity.empty() || !rhs.entry.empty();
    std::string bound = visible(rhs.text);
    if (named) bound += " = " + (decisions[i].note.empty() ? value_text(decisions[i].rhs) : std::string("not certified"));
    rows.push_back({visible(entries[i].name), entries[i].lhs.quantity,
                    decisions[i].note.empty() ? value_text(decisions[i].lhs) : std::string("not certified"),
                    entries[i].relation, bound, decisions[i].verdict});
  }
  std::array<std::size_t, kColumns> width{};
  const auto shown = [](const std::string& cell) { return utf8_length(cell); };  // characters, not bytes
  for (const auto& row : rows)
    for (std::size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], shown(row[c]));
  std::ostringstream table;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < kColumns; ++c)
      table << row[c] << (c + 1 < kColumns ? std::string(width[c] - shown(row[c]) + 2, ' ') : "\n");
  }
  table << holds << " hold, " << fails << " fail, " << undecided << " undecided\n";
  std::cout << table.str() << std::flush;
  return status;
}

}  // namespace

void add_check(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "decide a spec of bounds (TOML or JSON) as holds, fails or undecided");
  cmd->add_option("spec", args->spec, "the spec: [[bound]] entries (docs/check.md)")->required();
  cmd->add_option("--json", args->json_path, "write the verdicts and the values that decided them as JSON");
  cmd->add_option("--junit", args->junit_path, "write a JUnit XML report (one testcase per entry)");
  cmd->add_option("--precision", args->precision,
                  "working precision in bits (at least), in [32, 2^16], for every entry without its own "
                  "`precision`: raise it to decide an entry left undecided (default: each quantity's own)");
  cmd->callback([args] {
    if (const int status = run_check(*args); status != 0) throw ExitStatus{status};
  });
}

}  // namespace corbin::cli
