#include "corbin/fl/split.hpp"

#include <algorithm>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin::fl {

std::vector<std::size_t> permutation(std::size_t n, const Key& key) {
  std::vector<std::size_t> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = i;
  // Words in blocks; block b of the stream serves draws until it runs out.
  std::vector<std::uint64_t> words(512);
  std::size_t used = words.size();
  std::uint64_t block = 0;
  const auto next = [&] {
    if (used == words.size()) {
      keystream(key, 0, block++, reinterpret_cast<std::uint8_t*>(words.data()), words.size() * 8);
      used = 0;
    }
    return words[used++];
  };
  for (std::size_t i = n; i > 1; --i) {
    // Uniform j in [0, i): reject the top partial range of 2^64.
    const std::uint64_t bound = i, limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    std::swap(p[i - 1], p[x % bound]);
  }
  return p;
}

Split split_iid(std::size_t total, std::size_t clients, std::uint64_t seed) {
  if (clients < 2) throw invalid_argument("clients", std::to_string(clients), "at least 2");
  const std::vector<std::size_t> order = permutation(total, derive_key(seed, "data split"));
  const std::size_t test = total / 5, train = total - test, validation = train / 5;
  const std::size_t share = (train - validation) / clients;
  if (share == 0)
    throw invalid_argument("clients", std::to_string(clients),
                           "at most " + std::to_string(train - validation) + " (one example each)");
  Split s;
  s.test.assign(order.begin() + static_cast<std::ptrdiff_t>(train), order.end());
  s.validation.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(validation));
  for (std::size_t c = 0; c < clients; ++c) {
    const auto first = order.begin() + static_cast<std::ptrdiff_t>(validation + c * share);
    s.clients.emplace_back(first, first + static_cast<std::ptrdiff_t>(share));
  }
  return s;
}

}  // namespace corbin::fl
