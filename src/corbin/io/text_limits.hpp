#pragma once
// Limits on untrusted text, checked in one linear pass before a parser sees it. The parsers the
// toolkit uses recurse on nesting (toml11 while parsing, nlohmann::json while destroying what it
// parsed, our own conversions while walking it), so a file of 20 KB nested 10 000 deep overflows
// the stack; toml11 also takes time quadratic in the parts of one dotted key. The scans below
// follow each format's strings and comments, so that brackets and dots inside them do not count.

#include <cstddef>
#include <string>
#include <string_view>

namespace corbin::io {

/// The deepest nesting of [ and { a reader accepts (the toolkit's own files stay below 16).
constexpr std::size_t kMaxNesting = 64;
/// The most dot-separated parts of one TOML key or table header.
constexpr std::size_t kMaxKeyParts = 64;

/// What a scan found: the deepest nesting of [ and { outside strings, and the most parts of one
/// key (TOML only).
struct TextShape {
  std::size_t depth = 0, key_parts = 0;
};
TextShape json_shape(std::string_view text);
TextShape toml_shape(std::string_view text);

/// The offset of the first byte of `text` that is not well-formed UTF-8 (an overlong form, a
/// surrogate, a code point above U+10FFFF, a cut sequence), or npos. TOML and JSON are UTF-8, and
/// toml11 3.7 reads out of bounds while reporting a bad sequence inside a literal string, so the
/// text is checked before it sees it.
std::size_t first_invalid_utf8(std::string_view text);

/// Raise invalid_argument(what) naming `where` (the file) when the text is not UTF-8, nests
/// deeper than kMaxNesting or (TOML) has a key of more than kMaxKeyParts parts.
void check_json_shape(std::string_view text, const std::string& what, const std::string& where);
void check_toml_shape(std::string_view text, const std::string& what, const std::string& where);

}  // namespace corbin::io
