#include "report.hpp"

#include <iomanip>
#include <sstream>

namespace corbin::cli {
namespace {

constexpr int kDigits = 30;  // significant digits of certified midpoints

bool is_twin(const std::string& key) {
  auto ends = [&](const std::string& s) {
    return key.size() > s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0;
  };
  return ends("_approx") || ends("_interval");
}

void render(std::ostream& out, const Json& object, const std::string& indent) {
  std::size_t width = 0;
  for (const auto& [key, value] : object.items())
    if (!is_twin(key)) width = std::max(width, key.size());
  for (const auto& [key, value] : object.items()) {
    if (is_twin(key)) continue;
    out << indent << std::left << std::setw(static_cast<int>(width) + 2) << key;
    if (value.is_object()) {
      out << "\n";
      render(out, value, indent + "  ");
      continue;
    }
    out << (value.is_string() ? value.get<std::string>() : value.dump());
    const auto approx = object.find(key + "_approx");
    if (approx != object.end() && value.is_string() && approx->dump() != value.get<std::string>())
      out << "  (≈ " << approx->dump() << ")";
    const auto interval = object.find(key + "_interval");
    if (interval != object.end())
      out << "  in [" << (*interval)[0].get<std::string>() << ", "
          << (*interval)[1].get<std::string>() << "]";
    out << "\n";
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
  object["budget"] = budget.describe();
  if (budget.exact()) {
    put(object, "alpha", budget.alpha_exact());
    put(object, "exp_eps", budget.exp_eps_exact());
  } else {
    put(object, "alpha", budget.alpha_interval());
  }
  put(object, "eps", budget.eps_interval());
  object["exact"] = budget.exact();
}

void emit(std::ostream& out, const Json& object, bool json) {
  if (json)
    out << object.dump() << "\n";
  else
    render(out, object, "");
}

}  // namespace corbin::cli
