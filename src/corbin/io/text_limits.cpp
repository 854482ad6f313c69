#include "corbin/io/text_limits.hpp"

#include <algorithm>

#include "corbin/number/error.hpp"

namespace corbin::io {

std::size_t first_invalid_utf8(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char b = byte(i);
    if (b < 0x80) {
      ++i;
      continue;
    }
    // The sequence's length and the range of its second byte (RFC 3629, table 3-7 of Unicode):
    // the narrower ranges after E0, ED, F0 and F4 exclude overlongs, surrogates and > U+10FFFF.
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) length = 2;
    else if (b >= 0xE0 && b <= 0xEF) length = 3, low = b == 0xE0 ? 0xA0 : 0x80, high = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) length = 4, low = b == 0xF0 ? 0x90 : 0x80, high = b == 0xF4 ? 0x8F : 0xBF;
    else return i;
    if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return i;
    i += length;
  }
  return std::string_view::npos;
}

TextShape json_shape(std::string_view text) {
  TextShape shape;
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character, whatever it is
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') shape.depth = std::max(shape.depth, ++depth);
    else if ((c == ']' || c == '}') && depth > 0) depth -= 1;
  }
  return shape;
}

TextShape toml_shape(std::string_view text) {
  // States: plain text, a comment, and the four kinds of strings (basic "…", literal '…', and
  // their multi-line forms """…""", '''…'''); only basic strings have escapes.
  enum class In { text, comment, basic, literal, multi_basic, multi_literal } in = In::text;
  TextShape shape;
  std::size_t depth = 0, parts = 1;
  const auto at = [&](std::size_t i, std::string_view s) { return text.substr(i, s.size()) == s; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (in) {
      case In::comment:
        if (c == '\n') {
          in = In::text;
          parts = 1;
        }
        continue;
      case In::basic:
        if (c == '\\') ++i;
        else if (c == '"' || c == '\n') in = In::text;
        continue;
      case In::literal:
        if (c == '\'' || c == '\n') in = In::text;
        continue;
      case In::multi_basic:
        if (c == '\\') ++i;
        else if (at(i, "\"\"\"")) {
          in = In::text;
          i += 2;
        }
        continue;
      case In::multi_literal:
        if (at(i, "'''")) {
          in = In::text;
          i += 2;
        }
        continue;
      case In::text: break;
    }
    if (c == '#') in = In::comment;
    else if (at(i, "\"\"\"")) {
      in = In::multi_basic;
      i += 2;
    } else if (at(i, "'''")) {
      in = In::multi_literal;
      i += 2;
    } else if (c == '"') in = In::basic;
    else if (c == '\'') in = In::literal;
    else if (c == '.') shape.key_parts = std::max(shape.key_parts, ++parts);
    // A key (or a header, or a value) ends at these; a number's dot starts a new count.
    if (c == '[' || c == '{') shape.depth = std::max(shape.depth, ++depth);
    if ((c == ']' || c == '}') && depth > 0) depth -= 1;
    if (c == '[' || c == '{' || c == ']' || c == '}' || c == '=' || c == ',' || c == '\n') parts = 1;
  }
  shape.key_parts = std::max<std::size_t>(shape.key_parts, 1);
  return shape;
}

namespace {

void check(std::string_view text, const TextShape& shape, bool keys, const std::string& what, const std::string& where) {
  if (const std::size_t at = first_invalid_utf8(text); at != std::string_view::npos)
    throw invalid_argument(what, quote(where) + " (byte " + std::to_string(at) + " is not UTF-8)", "UTF-8 text");
  if (shape.depth > kMaxNesting)
    throw invalid_argument(what, quote(where) + " (nested " + std::to_string(shape.depth) + " deep)",
                           "nested at most " + std::to_string(kMaxNesting) + " deep");
  if (keys && shape.key_parts > kMaxKeyParts)
    throw invalid_argument(what, quote(where) + " (a key of " + std::to_string(shape.key_parts) + " dotted parts)",
                           "keys of at most " + std::to_string(kMaxKeyParts) + " parts");
}

}  // namespace

void check_json_shape(std::string_view text, const std::string& what, const std::string& where) {
  check(text, json_shape(text), false, what, where);
}

void check_toml_shape(std::string_view text, const std::string& what, const std::string& where) {
  check(text, toml_shape(text), true, what, where);
}

}  // namespace corbin::io
