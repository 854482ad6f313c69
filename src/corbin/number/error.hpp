#pragma once
// Errors raised at the library boundary. The CLI maps invalid_argument to exit status 2 and
// one line on stderr; undecidable means a certified comparison could not be settled at the
// working precision (the caller may retry with more bits, never guess).

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace corbin {

inline std::string shortened(std::string_view text);

/// Bad input: the message names the parameter, its value and the rule it breaks. The library
/// names mathematical parameters ("alpha", "w1", "radius") and the data it reads ("data"); the
/// CLI renames them to its options when it reports the error (run_app.hpp), the Python module
/// reports them as they are. The message echoes the value shortened (a 100 000-character input
/// is not a line); value() keeps it whole.
class invalid_argument : public std::invalid_argument {
 public:
  invalid_argument(std::string_view parameter, std::string_view value, std::string_view rule)
      : std::invalid_argument(std::string(parameter) + " is " + shortened(value) +
                              ", but must be " + std::string(rule)),
        parameter_(parameter),
        value_(value),
        rule_(rule) {}
  const std::string& parameter() const noexcept { return parameter_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& rule() const noexcept { return rule_; }

 private:
  std::string parameter_, value_, rule_;
};

/// A branch decision (floor, comparison) that interval arithmetic could not certify.
class undecidable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A control character (newline, escape, NUL, DEL, ...) as a visible escape: \n, \t, \r, \xNN.
inline void append_visible(std::string& out, char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u != 0x7f) {
    out += c;
    return;
  }
  static const char* hex = "0123456789abcdef";
  if (c == '\n') out += "\\n";
  else if (c == '\t') out += "\\t";
  else if (c == '\r') out += "\\r";
  else out.append("\\x").append(1, hex[u >> 4]).append(1, hex[u & 15]);
}

/// `text` with its control characters escaped (append_visible), whole: a path or a name in a
/// message or on a terminal.
inline std::string visible(std::string_view text) {
  std::string out;
  for (const char c : text) append_visible(out, c);
  return out;
}

/// The longest prefix of `text` of at most `limit` bytes that ends between two UTF-8 characters
/// (a cut inside one would leave invalid UTF-8 in a message or a report).
/// The number of characters (code points) of UTF-8 text: its bytes that do not continue one.
inline std::size_t utf8_length(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

inline std::string_view utf8_prefix(std::string_view text, std::size_t limit) {
  std::size_t keep = std::min(limit, text.size());
  while (keep < text.size() && keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) keep -= 1;
  return text.substr(0, keep);
}

/// A value echoed in a message: whole up to 100 bytes, else its first 60 and its length, so that
/// one line stays one line (a 60 KB value is not echoed whole). What it or quote() returns is at
/// most 100 bytes, so that shortening again leaves it as it is (its length stays the value's).
inline std::string shortened(std::string_view text) {
  constexpr std::size_t kShown = 60;
  if (text.empty()) return "empty";  // "role is empty", not "role is , but ..."

  if (text.size() <= kShown + 40) return std::string(text);
  return std::string(utf8_prefix(text, kShown)) + "… (" + std::to_string(text.size()) + " characters)";
}

/// 'text' in single quotes, for echoing user input in a message: control characters escaped
/// (a message stays one line, and no terminal escape reaches the screen), and a long value cut
/// to its first 60 characters and its length.
inline std::string quote(std::string_view text) {
  constexpr std::size_t kShown = 60;
  const bool cut = text.size() > kShown + 20;
  std::string out(1, '\'');
  for (const char c : cut ? utf8_prefix(text, kShown) : text) append_visible(out, c);
  out.append(1, '\'');
  if (cut) out.append("… (" + std::to_string(text.size()) + " characters)");
  return out;
}

/// Formats any streamable value for an error message.
template <class T>
std::string describe(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace corbin
