#include "report.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "run_app.hpp"

namespace corbin::cli {
namespace {

constexpr int kDigits = 30;  // significant digits of certified midpoints

bool is_twin(const std::string& key) {
  auto ends = [&](const std::string& s) {
    return key.size() > s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0;
  };
  return ends("_approx") || ends("_interval");
}

constexpr std::size_t kLongExact = 60;  // longer exact values show as their approximation
constexpr std::size_t kLongText = 200;   // longer other strings (a budget as given) are cut

void render(std::ostream& out, const Json& object, const std::string& indent);

/// One value after its key: nested objects and arrays on the following lines; an exact value
/// with its decimal twin; a certified value with its enclosure when the shown digits differ.
void render_value(std::ostream& out, const Json& object, const std::string& key,
                  const Json& value, const std::string& indent) {
  if (value.is_object()) {
    out << "\n";
    render(out, value, indent + "  ");
    return;
  }
  if (value.is_array() && !value.empty() && value.front().is_object()) {
    out << "\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out << indent << "  [" << i << "]\n";
      render(out, value[i], indent + "    ");
    }
    return;
  }
  const auto approx = object.find(key + "_approx");
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  // A twin beyond double's range (JSON null), one that underflowed to 0, or one of a short
  // integer says nothing the exact text does not.
  const bool short_integer = !text.empty() && text.size() <= 15 &&
                             text.find_first_not_of("-0123456789") == std::string::npos;
  const bool has_approx = approx != object.end() && value.is_string() && approx->is_number() &&
                          std::isfinite(approx->get<double>()) && approx->get<double>() != 0 &&
                          !short_integer;
  if (!has_approx && text.size() > kLongText) {
    out << utf8_prefix(text, kLongExact) << "…  (" << text.size() << " characters; --json prints them)";
  } else if (has_approx && text.size() > kLongExact) {
    const auto slash = text.find('/');
    out << "≈ " << approx->dump() << "  (exact: a fraction of " << (slash == std::string::npos ? text.size() : slash)
        << " over " << (slash == std::string::npos ? 0 : text.size() - slash - 1)
        << " digits; --json prints it)";
  } else {
    out << text;
    if (has_approx && approx->dump() != text) out << "  (≈ " << approx->dump() << ")";
  }
  const auto interval = object.find(key + "_interval");
  if (interval != object.end() && (*interval)[0] != (*interval)[1])
    out << "  in [" << (*interval)[0].get<std::string>() << ", "
        << (*interval)[1].get<std::string>() << "]";
  out << "\n";
}

void render(std::ostream& out, const Json& object, const std::string& indent) {
  std::size_t width = 0;
  for (const auto& [key, value] : object.items())
    if (!is_twin(key)) width = std::max(width, key.size());
  for (const auto& [key, value] : object.items()) {
    if (is_twin(key)) continue;
    out << indent << std::left << std::setw(static_cast<int>(width) + 2) << key;
    render_value(out, object, key, value, indent);
  }
}

}  // namespace

void put(Json& object, const std::string& key, const Rational& value) {
  object[key] = to_string(value);
  object[key + "_approx"] = to_double(value);
}

void put(Json& object, const std::string& key, const Interval& value) {
  object[key] = to_decimal(midpoint_of(value), kDigits);
  object[key + "_approx"] = midpoint_of(value).convert_to<double>();
  object[key + "_interval"] = {to_decimal(lower_of(value), kDigits),
                               to_decimal(upper_of(value), kDigits)};
}

void put(Json& object, const std::string& key, double value) { object[key] = value; }

void put_budget(Json& object, const Budget& budget) {
  object["budget"] = option_for(budget.parameter()) + " " + to_string(budget.value);  // as it was given
  if (budget.exact()) {
    put(object, "alpha", budget.alpha_exact());
    put(object, "exp_eps", budget.exp_eps_exact());
  } else if (budget.value <= Budget::kMaxAlphaEps) {
    put(object, "alpha", budget.alpha_interval());
  } else {  // no α is made from ε past kMaxAlphaEps (a noise room's ε goes further)
    object["alpha"] = nullptr;
    object["alpha_approx"] = nullptr;
  }
  put(object, "eps", budget.eps_interval());
  object["budget_exact"] = budget.exact();  // "exact" is left to subcommands' exact results
}

void emit(std::ostream& out, const Json& object, bool json) {
  if (json)
    out << object.dump() << "\n";
  else
    render(out, object, "");
}

}  // namespace corbin::cli
