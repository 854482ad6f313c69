#include "corbin/quantizer/keystream.hpp"

#include <sodium.h>

#include <cstring>
#include <stdexcept>

namespace corbin {
namespace {

void ensure_sodium() {
  static const bool ok = sodium_init() >= 0;
  if (!ok) throw std::runtime_error("libsodium failed to initialise");
}

void make_nonce(std::uint32_t stream, std::uint64_t chunk, std::uint8_t nonce[12]) {
  for (int i = 0; i < 4; ++i) nonce[i] = static_cast<std::uint8_t>(stream >> (8 * i));
  for (int i = 0; i < 8; ++i) nonce[4 + i] = static_cast<std::uint8_t>(chunk >> (8 * i));
}

}  // namespace

Key derive_key(std::uint64_t seed, std::string_view label) {
  ensure_sodium();
  std::vector<std::uint8_t> message(8 + label.size());
  for (int i = 0; i < 8; ++i) message[i] = static_cast<std::uint8_t>(seed >> (8 * i));
  std::memcpy(message.data() + 8, label.data(), label.size());
  Key key;
  crypto_generichash(key.data(), key.size(), message.data(), message.size(), nullptr, 0);
  return key;
}

void keystream(const Key& key, std::uint32_t stream, std::uint64_t chunk, std::uint8_t* out,
               std::size_t bytes) {
  ensure_sodium();
  std::uint8_t nonce[12];
  make_nonce(stream, chunk, nonce);
  crypto_stream_chacha20_ietf(out, bytes, nonce, key.data());
}

WordStream::WordStream(const Key& key, std::uint32_t stream, std::uint64_t chunk) : key_(&key) {
  ensure_sodium();
  make_nonce(stream, chunk, nonce_);
}

std::uint32_t WordStream::next() {
  if (used_ == 16) {
    std::uint8_t zeros[64] = {};
    std::uint8_t bytes[64];
    crypto_stream_chacha20_ietf_xor_ic(bytes, zeros, 64, nonce_, block_++, key_->data());
    std::memcpy(words_, bytes, 64);
    used_ = 0;
  }
  return words_[used_++];
}

}  // namespace corbin
