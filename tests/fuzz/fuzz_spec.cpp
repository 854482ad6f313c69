// `corbin check`'s spec reader (analysis/spec_reader.hpp) on any bytes, read as TOML and as JSON:
// each either parses or raises invalid_argument naming the spec, never a parser's exception, a
// stack overflow on deep nesting or a hang on a long dotted key.

#include <cstdint>
#include <string_view>

#include "corbin/number/error.hpp"
#include "spec_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const char* path : {"spec.toml", "spec.json"}) {
    try {
      (void)corbin::cli::parse_spec(bytes, path);
    } catch (const corbin::invalid_argument& e) {
      // The spec, or a place in it ("the spec 'spec.json' at bound[2].params").
      if (e.parameter().rfind("the spec", 0) != 0) __builtin_trap();
    }
  }
  return 0;
}
