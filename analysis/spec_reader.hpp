#pragma once
// The reader of `corbin check`'s specs, TOML (toml11) or JSON, apart so that it can be fuzzed on
// its own: untrusted text is checked for size, nesting and key length in one linear pass before a
// parser sees it (io/text_limits.hpp), and every way it can fail is invalid_argument naming the
// spec (exit 2), never a parser's exception or a crash.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace corbin::cli {

/// Largest spec read (10 000 entries of a few hundred bytes fit many times over).
constexpr std::size_t kMaxSpecBytes = 16u << 20;

/// The document of a spec at `path` with content `bytes`: JSON when the path ends in .json or
/// (not ending in .toml) the content starts with '{', else TOML. A TOML float stays a double (and is
/// refused where a number is read: a double is not the decimal written); a date becomes a note.
nlohmann::json parse_spec(std::string_view bytes, const std::string& path);

}  // namespace corbin::cli
