#pragma once
// The ChaCha20 block function (RFC 8439, Section 2.3) in portable arithmetic, for code that
// cannot call OpenSSL: the GPU kernels, and the host emulation of those kernels that the CPU
// tests run. It produces exactly the bytes of `keystream` (keystream.hpp): for (key, stream,
// chunk) the IETF nonce is (stream, chunk low 32 bits, chunk high 32 bits), and block b of the
// stream is block_words(key, b, nonce). A test compares the two byte for byte.

#include <cstdint>

#include "corbin/number/device.hpp"

namespace corbin::chacha20 {

/// A key as the eight little-endian 32-bit words the block function reads.
struct KeyWords {
  std::uint32_t w[8];
};

CORBIN_HD std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

CORBIN_HD void quarter_round(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d) {
  a += b; d ^= a; d = rotl(d, 16);
  c += d; b ^= c; b = rotl(b, 12);
  a += b; d ^= a; d = rotl(d, 8);
  c += d; b ^= c; b = rotl(b, 7);
}

/// Block `counter` of the stream for (key, stream id, chunk index): sixteen 32-bit words, the
/// keystream's bytes 64·counter to 64·counter + 63 in little-endian order.
CORBIN_HD void block_words(const KeyWords& key, std::uint32_t stream, std::uint64_t chunk, std::uint32_t counter,
                           std::uint32_t out[16]) {
  std::uint32_t x[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,  // "expand 32-byte k"
                         key.w[0],    key.w[1],    key.w[2],    key.w[3],
                         key.w[4],    key.w[5],    key.w[6],    key.w[7],
                         counter,     stream,      static_cast<std::uint32_t>(chunk),
                         static_cast<std::uint32_t>(chunk >> 32)};
  std::uint32_t s[16];
  for (int i = 0; i < 16; ++i) s[i] = x[i];
  for (int round = 0; round < 10; ++round) {  // 20 rounds: a column round and a diagonal round each
    quarter_round(s[0], s[4], s[8], s[12]);
    quarter_round(s[1], s[5], s[9], s[13]);
    quarter_round(s[2], s[6], s[10], s[14]);
    quarter_round(s[3], s[7], s[11], s[15]);
    quarter_round(s[0], s[5], s[10], s[15]);
    quarter_round(s[1], s[6], s[11], s[12]);
    quarter_round(s[2], s[7], s[8], s[13]);
    quarter_round(s[3], s[4], s[9], s[14]);
  }
  for (int i = 0; i < 16; ++i) out[i] = s[i] + x[i];
}

/// 32-bit word `index` of the stream (bytes 4·index to 4·index + 3, little-endian).
CORBIN_HD std::uint32_t word(const KeyWords& key, std::uint32_t stream, std::uint64_t chunk, std::uint64_t index) {
  std::uint32_t block[16];
  block_words(key, stream, chunk, static_cast<std::uint32_t>(index / 16), block);
  return block[index % 16];
}

}  // namespace corbin::chacha20
