#include "options.hpp"

#include <algorithm>
#include <iostream>
#include <set>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin::cli {

void BudgetOptions::add(CLI::App& app) {
  alpha_option_ = app.add_option("--alpha", alpha, "α(ε) = (e^ε+1)/(e^ε−1), rational > 1 (exact)");
  exp_eps_option_ = app.add_option("--exp-eps", exp_eps, "e^ε, rational > 1 (exact)")
                       ->each([](const std::string& typed) { warn_if_other_unit(typed, "--exp-eps", "--eps "); });
  eps_option_ = app.add_option("--eps", eps,
                               "ε > 0 (transcendental α: certified intervals), at most 10^4 where α is used, "
                               "10^8 where ε alone is");
  alpha_option_->excludes(exp_eps_option_)->excludes(eps_option_);
  exp_eps_option_->excludes(eps_option_);
  precision_option_ =
      app.add_option("--precision", precision,
                     "working precision in bits for --eps, in [32, 2^16] (default: bits + 128, at least 128)");
}

void warn_if_other_unit(const std::string& typed, const std::string& given_as, const std::string& eps_as) {
  std::string line;
  try {
    line = Budget::make(Budget::Kind::exp_eps, parse_rational(typed, given_as)).unit_warning(given_as, typed, eps_as);
  } catch (const invalid_argument&) {
    return;  // not a budget: refused by name where it is read
  }
  static std::set<std::string> said;  // each line once, however often its value is read
  if (!line.empty() && said.insert(line).second) std::cerr << "corbin: warning: " << line << "\n";
}

namespace {
bool was_given(const CLI::Option* option) {
  return option != nullptr && option->count() > 0;
}
}  // namespace

bool BudgetOptions::given() const {
  return was_given(alpha_option_) || was_given(exp_eps_option_) || was_given(eps_option_) ||
         !alpha.empty() || !exp_eps.empty() || !eps.empty();
}

Budget BudgetOptions::budget() const {
  validate_precision();  // even where unused
  if (was_given(alpha_option_) || !alpha.empty())
    return Budget::make(Budget::Kind::alpha, parse_rational(alpha, "--alpha"));
  if (was_given(exp_eps_option_) || !exp_eps.empty())
    return Budget::make(Budget::Kind::exp_eps, parse_rational(exp_eps, "--exp-eps"));
  if (was_given(eps_option_) || !eps.empty())
    return Budget::make(Budget::Kind::eps, parse_rational(eps, "--eps"));
  throw invalid_argument("the privacy budget", "missing",
                         "given by one of --alpha, --exp-eps, --eps");
}

void BudgetOptions::clear_budget() {
  alpha.clear();
  exp_eps.clear();
  eps.clear();
  alpha_option_ = exp_eps_option_ = eps_option_ = nullptr;
}

void BudgetOptions::validate_precision() const {
  if (was_given(precision_option_)) (void)precision_bits(0);
}

unsigned BudgetOptions::precision_bits(unsigned long bits) const {
  if (precision.empty() && !was_given(precision_option_)) return budget().precision_bits(bits);
  const unsigned long p = parse_count(precision, "--precision", kMaxPrecisionBits, 32);
  return static_cast<unsigned>(p);
}

void GeometryOptions::add(CLI::App& app, bool pair) {
  app.add_option("--center", center, "center c (default 0)");
  app.add_option("--radius", radius, "radius r > 0 (default 1)");
  app.add_option("--bits", bits, "shared bits per parameter d in [0, 2^15] (default 5)");
  app.add_option("--variant", variant,
                 "corrected | as-printed | reference-code (default corrected)");
  if (pair) {
    app.add_option("--w", w, "leader's weight in [c − r, c + r] (default 0)");
    app.add_option("--w2", w2, "follower's weight in [c − r, c + r] (default 0)");
  }
}

Rational GeometryOptions::c() const {
  return parse_rational(center, "--center");
}
Rational GeometryOptions::r() const {
  const Rational value = parse_rational(radius, "--radius");
  check_radius(value);
  return value;
}
Rational GeometryOptions::w1() const {
  const Rational value = parse_rational(w, "--w");
  check_weight("--w", value, c(), r());
  return value;
}
Rational GeometryOptions::w2_value() const {
  const Rational value = parse_rational(w2, "--w2");
  check_weight("--w2", value, c(), r());
  return value;
}
unsigned long GeometryOptions::d(unsigned long limit) const {
  return parse_count(bits, "--bits", limit);
}
Variant GeometryOptions::v() const {
  return parse_variant(variant);
}

unsigned long parse_count(const std::string& text, const char* option, unsigned long limit,
                          unsigned long minimum) {
  const std::string rule = "an integer in [" + std::to_string(minimum) + ", " + std::to_string(limit) + "]";
  Rational value;
  try {
    value = parse_rational(text, option);
  } catch (const invalid_argument&) {
    throw invalid_argument(option, quote(text), rule);
  }
  if (denominator(value) != 1 || value < minimum || value > limit)
    throw invalid_argument(option, quote(text), rule);
  return numerator(value).convert_to<unsigned long>();
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace corbin::cli
