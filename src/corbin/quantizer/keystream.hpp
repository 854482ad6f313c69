#pragma once
// Counter-based cryptographic randomness. Every random bit the samplers use comes from a
// ChaCha20 (IETF) keystream addressed by (key, stream id, chunk index): any chunk can be
// regenerated on its own, runs are reproducible from the key, and without the key the bits are
// unpredictable, as the protocol requires of the shared vector Z and of the private coins.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "corbin/quantizer/chacha20.hpp"

namespace corbin {

using Key = std::array<std::uint8_t, 32>;

/// Initialises libsodium once (thread-safe, idempotent); raises std::runtime_error if it cannot.
void ensure_sodium();

/// A key derived from a seed and a label with BLAKE2b (libsodium's crypto_generichash), so that
/// experiments keyed by an integer seed get independent streams per purpose.
Key derive_key(std::uint64_t seed, std::string_view label);

/// The first 8 bytes (little-endian) of derive_key(seed, label): a 64-bit seed for a nested
/// purpose (a round's client, a generator outside this library).
std::uint64_t derive_seed(std::uint64_t seed, std::string_view label);

/// Fills `out` with the ChaCha20-IETF keystream for (key, stream, chunk), from block 0: the
/// nonce is the stream id (4 bytes) then the chunk index (8 bytes), little-endian. Computed by
/// OpenSSL (fast); at most 2^32 blocks (256 GiB) per call, as IETF ChaCha20 allows.
void keystream(const Key& key, std::uint32_t stream, std::uint64_t chunk, std::uint8_t* out,
               std::size_t bytes);

/// The 64-bit word of 8 bytes read little-endian, whatever the host's byte order (streams of
/// words are then the same on every machine).
inline std::uint64_t little_endian_word(const std::uint8_t* bytes) {
  std::uint64_t x = 0;
  for (int b = 0; b < 8; ++b) x |= static_cast<std::uint64_t>(bytes[b]) << (8 * b);
  return x;
}

/// The key as the block function's words (chacha20.hpp): bytes 4i to 4i + 3, little-endian.
inline chacha20::KeyWords key_words(const Key& key) {
  chacha20::KeyWords words{};
  for (int i = 0; i < 32; ++i) words.w[i / 4] |= static_cast<std::uint32_t>(key[static_cast<std::size_t>(i)]) << (8 * (i % 4));
  return words;
}

/// The same bytes from libsodium's crypto_stream_chacha20_ietf: the reference the tests hold
/// `keystream` to.
void reference_keystream(const Key& key, std::uint32_t stream, std::uint64_t chunk,
                         std::uint8_t* out, std::size_t bytes);

}  // namespace corbin
