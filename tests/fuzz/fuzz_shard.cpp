// `corbin merge`'s shard reader (analysis/shard.hpp) on any bytes: each either is a consistent
// shard file or raises invalid_argument naming the file, never a JSON library exception, a stack
// overflow on deep nesting or a crash. The corpus holds real shard files (whose sha256 a mutation
// breaks) and depth bombs; the dictionary gives the fuzzer the format's keys.

#include <cstdint>
#include <string_view>

#include "corbin/number/error.hpp"
#include "shard.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const corbin::cli::ShardFile file = corbin::cli::parse_shard_file(bytes, "shard.json");
    // What it accepted is consistent: i < N and exactly shard i's items, ascending.
    if (file.shard.index >= file.shard.count) __builtin_trap();
    std::size_t expected = file.shard.index;
    for (const auto& [item, result] : file.results) {
      if (item != expected || item >= file.items) __builtin_trap();
      expected += file.shard.count;
    }
  } catch (const corbin::invalid_argument& e) {
    // The file, or a place in it ("the shard file 'shard.json' at results[2]").
    if (e.parameter() != "shard.json" && e.parameter().rfind("the shard file", 0) != 0) __builtin_trap();
  }
  return 0;
}
