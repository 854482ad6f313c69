#pragma once
// JSON that a user wrote (a spec, a grid file, a shard, a checkpoint), read strictly. A parser
// that keeps the last of two equal keys reads another document than one that keeps the first,
// and nlohmann::json reads an integer beyond 64 bits as a double (not the number written): both
// are refused, as TOML's reader refuses a key given twice. Every refusal names the field by its
// path in the document (bound[2].params.exp-eps) and echoes at most a short prefix of a value.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace corbin::io {

/// The document in `text`, after check_json_shape (UTF-8, nesting at most kMaxNesting). Raises
/// invalid_argument whose parameter is `what` and `where` (the file), with " at PATH" where the
/// fault has a place: a key given twice in one object; an integer outside [−2^63, 2^64 − 1]; a
/// number no double holds; any other syntax error (its line and column).
nlohmann::json parse_json(std::string_view text, const std::string& what, const std::string& where);
/// The same, keeping the objects' keys in the order written (what a file hashed over its dump
/// needs: shards, checkpoints).
nlohmann::ordered_json parse_ordered_json(std::string_view text, const std::string& what, const std::string& where);

}  // namespace corbin::io
