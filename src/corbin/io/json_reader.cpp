#include "corbin/io/json_reader.hpp"

#include <set>
#include <vector>

#include "corbin/io/text_limits.hpp"
#include "corbin/number/error.hpp"

namespace corbin::io {
namespace {

/// A SAX handler that builds the document as nlohmann's own DOM parser does, knowing at each
/// event where in the document it is, so that what it refuses is named by its path.
template <class Json>
class StrictReader {
 public:
  StrictReader(Json& root, std::string what, std::string where)
      : root_(root), what_(std::move(what)), where_(std::move(where)) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(typename Json::number_integer_t v) { return put(v); }
  bool number_unsigned(typename Json::number_unsigned_t v) { return put(v); }
  bool number_float(typename Json::number_float_t v, const std::string& written) {
    // nlohmann reads an integer it cannot hold in 64 bits as a double: not the number written.
    if (written.find_first_of(".eE") == std::string::npos)
      refuse(path_here(), shortened(written),
             "an integer in [−2^63, 2^64 − 1] (a JSON number beyond is read as a double, not exactly; give it as a "
             "string)");
    return put(v);
  }
  bool string(std::string& v) { return put(std::move(v)); }
  bool binary(typename Json::binary_t& v) { return put(std::move(v)); }

  bool start_object(std::size_t) { return open(nlohmann::json::value_t::object, false); }
  bool start_array(std::size_t) { return open(nlohmann::json::value_t::array, true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second)
      refuse(path_here(), "given twice", "each key once in its object (a JSON reader keeps one of the two values)");
    return true;
  }

  template <class Exception>
  bool parse_error(std::size_t, const std::string& token, const Exception& e) {
    // A number overflowing a double has a place; other syntax errors are the file's, with the
    // parser's line and column (its message echoes the token read: cut here).
    std::string text = first_line(e.what());
    if (const auto at = text.find("] "); at != std::string::npos) text = text.substr(at + 2);
    if (e.id == 406) refuse(path_here(), shortened(visible(token)), "a number a double can hold");
    if (const auto at = text.find(token); !token.empty() && at != std::string::npos)
      text.replace(at, token.size(), shortened(visible(token)));
    throw invalid_argument(what_, where_, "JSON (" + text + ")");
  }

 private:
  struct Frame {
    Json* value;
    bool array;
    std::size_t index = 0;  // of the next element (an array)
    std::string key;        // the last key read (an object)
    std::set<std::string> keys;
    std::string path;
  };

  static std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

  /// The path of the value being read: its container's path and its key or index.
  std::string path_here() const {
    if (frames_.empty()) return "";
    const Frame& f = frames_.back();
    if (f.array) return f.path + "[" + std::to_string(f.index) + "]";
    const std::string key = shortened(visible(f.key));
    return f.path.empty() ? key : f.path + "." + key;
  }

  [[noreturn]] void refuse(const std::string& path, const std::string& value, const std::string& rule) const {
    throw invalid_argument(what_ + " " + where_ + (path.empty() ? "" : " at " + path), value, rule);
  }

  template <class V>
  Json* place(V&& v) {
    if (frames_.empty()) {
      root_ = Json(std::forward<V>(v));
      return &root_;
    }
    Frame& f = frames_.back();
    if (f.array) {
      f.value->push_back(Json(std::forward<V>(v)));
      ++f.index;
      return &f.value->back();
    }
    Json& slot = (*f.value)[f.key];
    slot = Json(std::forward<V>(v));
    return &slot;
  }

  template <class V>
  bool put(V&& v) {
    place(std::forward<V>(v));
    return true;
  }

  bool open(nlohmann::json::value_t type, bool array) {
    std::string path = path_here();
    // An array's element count is taken when it is placed; the frame's path is its own.
    Json* value = place(type);
    frames_.push_back(Frame{value, array, 0, {}, {}, std::move(path)});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  Json& root_;
  std::string what_, where_;  // the file's role ("the spec") and its name, quoted
  std::vector<Frame> frames_;
};

template <class Json>
Json parse_strictly(std::string_view text, const std::string& what, const std::string& where) {
  check_json_shape(text, what, where);
  Json root;
  StrictReader<Json> reader(root, what, quote(where));
  Json::sax_parse(text.begin(), text.end(), &reader);
  return root;
}

}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& what, const std::string& where) {
  return parse_strictly<nlohmann::json>(text, what, where);
}

nlohmann::ordered_json parse_ordered_json(std::string_view text, const std::string& what, const std::string& where) {
  return parse_strictly<nlohmann::ordered_json>(text, what, where);
}

}  // namespace corbin::io
