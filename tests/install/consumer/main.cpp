// Uses an installed corbin through its public headers and static library: LDPQ's PLDP ratio at
// e^ε = 3 (exactly 3 = e^ε, Alg. 1), and RFC 8439's ChaCha20 test vector through the keystream
// (OpenSSL) and its libsodium reference, which the static library's private dependencies provide.
// Prints what it computed; exits 1 on any mismatch.

#include <array>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>

#include "corbin/privacy/formulas/pldp.hpp"
#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/keystream.hpp"
#include "corbin/version.hpp"

int main() {
  int failures = 0;
  const auto expect = [&failures](bool ok, const std::string& what) {
    std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
    failures += ok ? 0 : 1;
  };

  expect(std::string(corbin::kVersion) == EXPECTED_VERSION,
         std::string("corbin::kVersion ") + corbin::kVersion + " is the package's " + EXPECTED_VERSION);

  const auto budget = corbin::Budget::make(corbin::Budget::Kind::exp_eps, corbin::Rational(3));
  const corbin::Rational alpha = budget.alpha_exact();
  const auto pldp = corbin::ldpq_pldp(alpha, corbin::Rational(0), corbin::Rational(1));
  expect(alpha == 2, "alpha at e^eps = 3 is " + corbin::to_string(alpha));
  expect(!pldp.unbounded && pldp.ratio == 3 && pldp.bound == 3,
         "LDPQ's PLDP ratio at e^eps = 3 is " + corbin::to_string(pldp.ratio) + " (bound " +
             corbin::to_string(pldp.bound) + ")");

  // RFC 8439, 2.3.2: key 00 01 .. 1f, nonce 00 00 00 09 00 00 00 4a 00 00 00 00, block 1, which
  // in the keystream's addressing is (stream, chunk) = (0x09000000, 0x4a000000), bytes 64 to 127.
  corbin::Key key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i);
  std::array<std::uint8_t, 128> fast{}, reference{};
  corbin::keystream(key, 0x09000000u, 0x4a000000u, fast.data(), fast.size());
  corbin::reference_keystream(key, 0x09000000u, 0x4a000000u, reference.data(), reference.size());
  const std::array<std::uint8_t, 4> head{0x10, 0xf1, 0xe7, 0xe4}, tail{0xa2, 0x50, 0x3c, 0x4e};
  expect(std::memcmp(fast.data() + 64, head.data(), 4) == 0 && std::memcmp(fast.data() + 124, tail.data(), 4) == 0,
         "ChaCha20 (OpenSSL) gives RFC 8439's block 1");
  expect(fast == reference, "ChaCha20 (OpenSSL) equals libsodium's on 128 bytes");
  return failures == 0 ? 0 : 1;
}
