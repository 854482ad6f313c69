#pragma once
// Seeded, counter-based permutations and the paper's data split: pool train and test, shuffle,
// 80 % train / 20 % test, 20 % of train for validation, and the rest (the client pool) to the
// clients, either in equal IID shares (the paper's) or by a Dirichlet label split (non-IID, the
// federated-learning literature's standard: Hsu, Qi & Brown 2019; Wang et al. 2020). Both splits
// draw the same test and validation sets from the same seed, so that runs differing only in the
// split are evaluated on the same images.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corbin/fl/idx.hpp"
#include "corbin/quantizer/keystream.hpp"

namespace corbin::fl {

/// A uniform permutation of 0..n−1 (Fisher–Yates on ChaCha20 words, rejection sampling so
/// that every permutation is exactly equally likely).
std::vector<std::size_t> permutation(std::size_t n, const Key& key);

enum class SplitKind { iid, dirichlet };
/// "iid" or "dirichlet"; raises invalid_argument(split).
SplitKind parse_split(const std::string& name);
std::string to_string(SplitKind kind);

struct Split {
  std::vector<std::size_t> test, validation;
  /// Indices into the pooled data (pooled_labels' order), each client's in a uniformly random
  /// order, so that a prefix of a shard (a cap on examples per client) is a uniform sample of that client's data.
  /// IID: equal shares, the remainder of the pool unused. Dirichlet: a partition of the pool.
  std::vector<std::vector<std::size_t>> clients;
  /// Dirichlet: how many clients the cuts left empty, each given one example (split_dirichlet);
  /// 0 for IID.
  std::size_t filled = 0;
};

/// The labels of the pooled data the splits index: the training file's, then the test file's.
std::vector<std::uint8_t> pooled_labels(const MnistFiles& files);

/// Raises invalid_argument(clients) unless 2 <= clients and every share is non-empty.
Split split_iid(std::size_t total, std::size_t clients, std::uint64_t seed);

/// The Dirichlet label split of the client pool (the same pool, test and validation sets as
/// split_iid's for this seed; labels[i] is pooled example i's label, the classes 0..max label):
/// for each class k, p_k ~ Dir(β·1_n) over the n clients, and the pool's N_k examples of class k,
/// in the pool's random order, are cut at ⌊N_k · (p_k,π(1) + … + p_k,π(t))⌋, t = 1..n (the last
/// cut is N_k), client π(t) taking the t-th piece, π a uniform permutation drawn for the class
/// (the floors round the first piece down and the last up; the order spreads that over the
/// clients). So every pool example goes to exactly one client, and client i holds within one
/// example of N_k·p_k,i of class k.
///
/// Empty clients: a client with no example cannot train, and at small β many are left empty
/// (each class goes almost whole to one client). Rule: after the cuts, each empty client in turn
/// (in client order) takes one example from the client that holds the most at that moment (the
/// first of equals): the last in that client's random order, so a uniform one of its examples.
/// Deterministic, always possible (pool >= n), and it moves nothing when no client is empty;
/// `filled` counts the clients it served (on Fashion-MNIST at n = 500, β = 0.1: 7, 0 and 6 at
/// seeds 0, 1, 2; none at n <= 50 or β = 0.5). Resampling the proportions until no client is
/// empty, as NIID-Bench does, would condition the law instead, but needs about e^(mean number of
/// empty clients) draws, without bound as β shrinks or n grows; this rule's work is fixed.
///
/// Reproducible bit for bit on every machine: every random number comes from ChaCha20 streams
/// keyed by derive_key(seed, …) and addressed by counters (Gamma variate k·n + i is class k's for
/// client i), and the Gamma variates and cuts are computed with MPFR, whose every operation is
/// correctly rounded at a fixed precision (the C library's log, cos and pow are not required to
/// be, and differ by an ulp between libms, which could move a cut by one example).
///
/// Raises invalid_argument(beta) unless β > 0 and finite, invalid_argument(clients) unless
/// 2 <= clients <= the pool's size.
Split split_dirichlet(const std::vector<std::uint8_t>& labels, std::size_t clients, double beta,
                      std::uint64_t seed);

/// counts[k] = how many of `indices` have label k, for k < classes (labels must be < classes).
std::vector<std::size_t> label_counts(const std::vector<std::size_t>& indices, const std::vector<std::uint8_t>& labels,
                                      std::size_t classes);

/// A Gamma(shape, 1) variate: draw number `index` of the counter-based stream `key`. Its uniforms
/// are unit_uniform of the little-endian 64-bit words of keystream(key, s, index), s = 0, 1, …
/// (128 bytes each), in order. shape >= 1: Marsaglia & Tsang (2000) on a Box–Muller normal (the
/// cosine branch) and one uniform per trial; shape < 1: their boost, G(shape + 1)·U^(1/shape),
/// taken in logarithms so that it never underflows inside. Computed with MPFR at 128 bits and
/// rounded to the nearest double (so that tiny shapes can round to 0 here; split_dirichlet works
/// with the logarithm and never does). Raises invalid_argument(shape) unless shape > 0 and finite.
double gamma_variate(double shape, const Key& key, std::uint64_t index);

}  // namespace corbin::fl
