#include "spec_reader.hpp"

#include <map>
#include <sstream>
#include <toml.hpp>
#include <vector>

#include "corbin/io/json_reader.hpp"
#include "corbin/io/text_limits.hpp"
#include "corbin/number/error.hpp"
#include "run_app.hpp"

namespace corbin::cli {
namespace {

using json = nlohmann::json;

/// A TOML value as JSON, so that both formats are checked by one reader. TOML floats stay doubles
/// (and are refused where a number is read: a double is not the decimal written).
json to_json(const toml::basic_value<toml::discard_comments, std::map, std::vector>& v) {
  switch (v.type()) {
    case toml::value_t::boolean: return v.as_boolean();
    case toml::value_t::integer: return v.as_integer();
    case toml::value_t::floating: return v.as_floating();
    case toml::value_t::string: return v.as_string().str;
    case toml::value_t::array: {
      json out = json::array();
      for (const auto& item : v.as_array()) out.push_back(to_json(item));
      return out;
    }
    case toml::value_t::table: {
      json out = json::object();
      for (const auto& [key, item] : v.as_table()) out[key] = to_json(item);
      return out;
    }
    default: return "(a TOML date or time)";
  }
}

}  // namespace

json parse_spec(std::string_view bytes, const std::string& path) {
  if (bytes.size() > kMaxSpecBytes)
    throw invalid_argument("the spec", quote(path) + " (" + std::to_string(bytes.size()) + " bytes)",
                           "at most " + std::to_string(kMaxSpecBytes) + " bytes");
  const auto ends_with = [&](const char* ext) {
    const std::string e(ext);
    return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  const auto first = bytes.find_first_not_of(" \t\r\n");
  const bool is_json = ends_with(".json") || (!ends_with(".toml") && first != std::string::npos && bytes[first] == '{');
  // A key given twice is refused in both formats (toml11 does; io::parse_json for JSON).
  if (is_json) return io::parse_json(bytes, "the spec", path);
  io::check_toml_shape(bytes, "the spec", path);
  try {
    std::istringstream stream{std::string(bytes)};
    return to_json(toml::parse<toml::discard_comments, std::map, std::vector>(stream, path));
  } catch (const std::exception& e) {
    // toml11's message is several lines: the first names the error, the third its line.
    std::string what = e.what(), message;
    std::istringstream lines(what);
    for (std::string line; std::getline(lines, line) && message.size() < 200;)
      if (line.rfind("Hint", 0) == 0) break;
      else if (line.find_first_not_of(" |^-") != std::string::npos) message += (message.empty() ? "" : " ") + line;
    throw invalid_argument("the spec", quote(path), "TOML (" + message + ")");
  }
}


}  // namespace corbin::cli
