#pragma once
// Seeded, counter-based permutations and the paper's data split: pool train and test, shuffle,
// 80 % train / 20 % test, 20 % of train for validation, the rest in equal IID shares.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "corbin/quantizer/keystream.hpp"

namespace corbin::fl {

/// A uniform permutation of 0..n−1 (Fisher–Yates on ChaCha20 words, rejection sampling so
/// that every permutation is exactly equally likely).
std::vector<std::size_t> permutation(std::size_t n, const Key& key);

struct Split {
  std::vector<std::size_t> test, validation;
  std::vector<std::vector<std::size_t>> clients;  ///< equal shares; the remainder is unused
};

/// Raises invalid_argument(--clients) unless 2 <= clients and every share is non-empty.
Split split_iid(std::size_t total, std::size_t clients, std::uint64_t seed);

}  // namespace corbin::fl
