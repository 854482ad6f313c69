#pragma once
// Counter-based cryptographic randomness. Every random bit the samplers use comes from a
// ChaCha20 (IETF) keystream addressed by (key, stream id, chunk index): any chunk can be
// regenerated on its own, runs are reproducible from the key, and without the key the bits are
// unpredictable, as the protocol requires of the shared vector Z and of the private coins.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace corbin {

using Key = std::array<std::uint8_t, 32>;

/// A key derived from a seed and a label with BLAKE2b (libsodium's crypto_generichash), so that
/// experiments keyed by an integer seed get independent streams per purpose.
Key derive_key(std::uint64_t seed, std::string_view label);

/// Fills `out` with the ChaCha20-IETF keystream for (key, stream, chunk), from block 0.
void keystream(const Key& key, std::uint32_t stream, std::uint64_t chunk, std::uint8_t* out,
               std::size_t bytes);

/// Sequential 32-bit words of one chunk's keystream, produced 64 bytes at a time on demand.
class WordStream {
 public:
  WordStream(const Key& key, std::uint32_t stream, std::uint64_t chunk);
  std::uint32_t next();

 private:
  const Key* key_;
  std::uint8_t nonce_[12];
  std::uint32_t block_ = 0;
  unsigned used_ = 16;
  std::uint32_t words_[16];
};

}  // namespace corbin
