#include "corbin/fl/split.hpp"

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "corbin/fl/geometry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/interval.hpp"

namespace corbin::fl {

std::vector<std::size_t> permutation(std::size_t n, const Key& key) {
  std::vector<std::size_t> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = i;
  // Words in blocks; block b of the stream serves draws until it runs out. Each word is its 8
  // bytes little-endian, assembled byte by byte: the same permutation on a big-endian machine.
  std::vector<std::uint8_t> bytes(512 * 8);
  std::size_t used = bytes.size();
  std::uint64_t block = 0;
  const auto next = [&] {
    if (used == bytes.size()) {
      keystream(key, 0, block++, bytes.data(), bytes.size());
      used = 0;
    }
    const std::uint64_t x = little_endian_word(bytes.data() + used);
    used += 8;
    return x;
  };
  for (std::size_t i = n; i > 1; i -= 1) {
    // Uniform j in [0, i): reject the top partial range of 2^64.
    const std::uint64_t bound = i, limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    std::swap(p[i - 1], p[x % bound]);
  }
  return p;
}

SplitKind parse_split(const std::string& name) {
  if (name == "iid") return SplitKind::iid;
  if (name == "dirichlet") return SplitKind::dirichlet;
  throw invalid_argument("split", quote(name), "iid or dirichlet");
}

std::string to_string(SplitKind kind) { return kind == SplitKind::iid ? "iid" : "dirichlet"; }

std::vector<std::uint8_t> pooled_labels(const MnistFiles& files) {
  std::vector<std::uint8_t> out = files.train.labels;
  out.insert(out.end(), files.test.labels.begin(), files.test.labels.end());
  return out;
}

namespace {

/// The shuffled pool and its parts, shared by both splits: test = order[train, total),
/// validation = order[0, validation), the client pool = order[validation, train).
struct Pool {
  std::vector<std::size_t> order;
  std::size_t train = 0, validation = 0;
};

Pool shuffled_pool(std::size_t total, std::uint64_t seed) {
  Pool p;
  p.order = permutation(total, derive_key(seed, "data split"));
  const std::size_t test = total / 5;
  p.train = total - test;
  p.validation = p.train / 5;
  return p;
}

Split evaluation_sets(const Pool& p) {
  Split s;
  s.test.assign(p.order.begin() + static_cast<std::ptrdiff_t>(p.train), p.order.end());
  s.validation.assign(p.order.begin(), p.order.begin() + static_cast<std::ptrdiff_t>(p.validation));
  return s;
}

/// MPFR's working precision for the Gamma variates and the cuts. Any fixed precision makes them
/// reproducible; 128 bits keeps them far more accurate than the doubles they start from.
constexpr unsigned kGammaBits = 128;

/// The uniforms of one Gamma draw: unit_uniform of the little-endian 64-bit words of
/// keystream(key, s, index) for s = 0, 1, …, 16 words per s. Assembled byte by byte, so that
/// the words are the same on a big-endian machine.
class Uniforms {
 public:
  Uniforms(const Key& key, std::uint64_t index) : key_(key), index_(index) {}
  Real next() {
    if (used_ == kWords) refill();
    return Real(unit_uniform(words_[used_++]));
  }

 private:
  static constexpr std::size_t kWords = 16;
  void refill() {
    // Marsaglia–Tsang accepts a trial with probability above 0.95 and a trial takes 3 uniforms:
    // a draw that needs more than 2^32 refills does not happen.
    std::array<std::uint8_t, kWords * 8> bytes;
    keystream(key_, stream_++, index_, bytes.data(), bytes.size());
    for (std::size_t w = 0; w < kWords; ++w) words_[w] = little_endian_word(bytes.data() + 8 * w);
    used_ = 0;
  }
  const Key& key_;
  std::uint64_t index_;
  std::uint32_t stream_ = 0;
  std::array<std::uint64_t, kWords> words_{};
  std::size_t used_ = kWords;
};

/// log G, G ~ Gamma(a, 1) for a >= 1 (Marsaglia & Tsang 2000, "A simple method for generating
/// gamma variables"): with d = a − 1/3, c = 1/√(9d), x standard normal and v = (1 + cx)³, accept
/// dv when v > 0 and log w < x²/2 + d(1 − v + log v) (w uniform; the squeeze w < 1 − 0.0331x⁴
/// accepts most trials without the logarithms). Each trial takes three uniforms: u1, u2 for the
/// normal √(−2 log u1)·cos(2π u2), then w.
Real log_gamma_at_least_one(const Real& a, Uniforms& uniforms) {
  Real pi;
  mpfr_const_pi(pi.backend().data(), MPFR_RNDN);
  const Real d = a - Real(1) / 3, c = 1 / sqrt(9 * d), squeeze = Real(331) / 10000;
  for (;;) {
    const Real u1 = uniforms.next(), u2 = uniforms.next(), w = uniforms.next();
    const Real x = sqrt(-2 * log(u1)) * cos(2 * pi * u2);
    const Real root = 1 + c * x;
    if (root <= 0) continue;
    const Real v = root * root * root, x2 = x * x;
    if (w < 1 - squeeze * x2 * x2 || log(w) < x2 / 2 + d * (1 - v + log(v))) return log(d) + log(v);
  }
}

/// log G, G ~ Gamma(shape, 1), at the working precision: for shape < 1 the first uniform is the
/// boost's U (log G = log G(shape + 1) + log(U)/shape), and the trials follow.
Real log_gamma(double shape, const Key& key, std::uint64_t index) {
  Uniforms uniforms(key, index);
  const Real a(shape);
  if (shape >= 1) return log_gamma_at_least_one(a, uniforms);
  const Real lift = log(uniforms.next()) / a;
  return log_gamma_at_least_one(a + 1, uniforms) + lift;
}

void check_shape(const char* parameter, double shape) {
  if (!(shape > 0) || !std::isfinite(shape)) throw invalid_argument(parameter, describe(shape), "> 0 and finite");
}

}  // namespace

Split split_iid(std::size_t total, std::size_t clients, std::uint64_t seed) {
  if (clients < 2) throw invalid_argument("clients", std::to_string(clients), "at least 2");
  const Pool p = shuffled_pool(total, seed);
  const std::size_t share = (p.train - p.validation) / clients;
  if (share == 0)
    throw invalid_argument("clients", std::to_string(clients),
                           "at most " + std::to_string(p.train - p.validation) + " (one example each)");
  Split s = evaluation_sets(p);
  for (std::size_t c = 0; c < clients; ++c) {
    const auto first = p.order.begin() + static_cast<std::ptrdiff_t>(p.validation + c * share);
    s.clients.emplace_back(first, first + static_cast<std::ptrdiff_t>(share));
  }
  return s;
}

double gamma_variate(double shape, const Key& key, std::uint64_t index) {
  check_shape("shape", shape);
  PrecisionScope scope(kGammaBits);
  return exp(log_gamma(shape, key, index)).convert_to<double>();
}

Split split_dirichlet(const std::vector<std::uint8_t>& labels, std::size_t clients, double beta,
                      std::uint64_t seed) {
  check_shape("beta", beta);
  if (clients < 2) throw invalid_argument("clients", std::to_string(clients), "at least 2");
  const Pool p = shuffled_pool(labels.size(), seed);
  const std::size_t pool = p.train - p.validation;
  if (clients > pool)
    throw invalid_argument("clients", std::to_string(clients), "at most " + std::to_string(pool) + " (one example each)");
  // The pool's examples of each class, in the pool's (random) order.
  const std::size_t classes = 1 + *std::max_element(labels.begin(), labels.end());
  std::vector<std::vector<std::size_t>> by_class(classes);
  for (std::size_t j = p.validation; j < p.train; ++j) by_class[labels[p.order[j]]].push_back(p.order[j]);
  const Key key = derive_key(seed, "dirichlet split proportions");
  PrecisionScope scope(kGammaBits);
  std::vector<std::vector<std::size_t>> own(clients);
  std::vector<Real> logs(clients), weight(clients);
  for (std::size_t k = 0; k < classes; ++k) {
    const std::size_t count = by_class[k].size();
    if (count == 0) continue;  // nothing to share (the class's variates' counters stay reserved)
    // p_k,i = G_i / Σ G_j with G_j ~ Gamma(β), from logarithms scaled by the largest, so that a
    // small β (G far below the smallest double) loses nothing that could move a cut.
    for (std::size_t i = 0; i < clients; ++i) logs[i] = log_gamma(beta, key, k * clients + i);
    const Real top = *std::max_element(logs.begin(), logs.end());
    Real sum = 0;
    for (std::size_t i = 0; i < clients; ++i) sum += weight[i] = exp(logs[i] - top);
    // The cuts are floors: the first piece rounds down and the last takes the rest. The clients
    // take their pieces in an order drawn for the class, so that this favours no client.
    const auto turn = permutation(clients, derive_key(seed, "dirichlet split order, class " + std::to_string(k)));
    Real cumulative = 0;
    std::size_t cut = 0;
    for (std::size_t t = 0; t < clients; ++t) {
      const std::size_t i = turn[t];
      cumulative += weight[i];
      const std::size_t next =
          t + 1 == clients ? count
                           : std::clamp<std::size_t>(floor(count * cumulative / sum).convert_to<std::size_t>(), cut, count);
      own[i].insert(own[i].end(), by_class[k].begin() + static_cast<std::ptrdiff_t>(cut),
                    by_class[k].begin() + static_cast<std::ptrdiff_t>(next));
      cut = next;
    }
  }
  Split s = evaluation_sets(p);
  s.clients.resize(clients);
  for (std::size_t i = 0; i < clients; ++i) {
    // A uniformly random order of the client's examples (the pieces above come class by class).
    std::sort(own[i].begin(), own[i].end());
    const auto order = permutation(own[i].size(), derive_key(seed, "dirichlet split client " + std::to_string(i)));
    for (std::size_t c : order) s.clients[i].push_back(own[i][c]);
  }
  // No empty client: each, in turn, takes the last example of the largest client (the first of
  // equals). Some client holds two or more while one is empty, since the pool has >= n examples.
  for (std::size_t i = 0; i < clients; ++i) {
    if (!s.clients[i].empty()) continue;
    auto& donor = *std::max_element(s.clients.begin(), s.clients.end(),
                                    [](const auto& a, const auto& b) { return a.size() < b.size(); });
    s.clients[i].push_back(donor.back());
    donor.pop_back();
    ++s.filled;
  }
  return s;
}

std::vector<std::size_t> label_counts(const std::vector<std::size_t>& indices, const std::vector<std::uint8_t>& labels,
                                      std::size_t classes) {
  std::vector<std::size_t> counts(classes, 0);
  for (std::size_t i : indices) {
    const std::size_t k = labels.at(i);
    if (k >= classes) throw invalid_argument("labels", std::to_string(k), "below " + std::to_string(classes));
    ++counts[k];
  }
  return counts;
}

}  // namespace corbin::fl
