#include "corbin/conform/builtin.hpp"

#include <algorithm>
#include <memory>

#include "corbin/fl/mechanisms/rqm.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/quantizer/keystream.hpp"
#include "corbin/quantizer/pbm.hpp"
#include "corbin/quantizer/rqm.hpp"
#include "corbin/quantizer/sampler.hpp"

namespace corbin::conform {
namespace {

/// Draws are made in blocks of this many (a multiple of every sampler's chunk): memory stays fixed.
constexpr std::size_t kBlock = std::size_t{1} << 16;

Budget budget_of(const Setting& s) {
  return Budget::make(Budget::Kind::exp_eps, s.exp_eps);
}

void check_cpu_variant(const Setting& s, const std::string& variant) {
  if (s.mechanism.kind == Kind::corbinq && variant != "corrected")
    throw invalid_argument("variant", quote(variant),
                           "corrected for builtin:cpu (corbin's fixed-point sampler implements the "
                           "corrected algorithm)");
  check_variant(s.mechanism, variant);
}

Law from_scalar(const Mechanism& m, const ScalarLaw<Rational>& law) {
  Law out{output_labels(m), {}};
  for (const auto& a : law.atoms) out.prob.push_back(a.prob);
  return out;
}

/// The input clipped to [c − r, c + r], as the samplers clip it (their fixed-point clamp).
Rational clipped(const Rational& w, const Setting& s) {
  return std::clamp(w, Rational(s.center - s.radius), Rational(s.center + s.radius));
}

std::unique_ptr<PbmSampler> pbm_sampler(const Setting& s, const Key& key) {
  return std::make_unique<PbmSampler>(pbm_theta_exact(s.exp_eps, s.mechanism.m), s.mechanism.m,
                                      s.center, s.radius, key, 0);
}

std::unique_ptr<RqmSampler> rqm_sampler(const Setting& s, const Key& key) {
  return std::make_unique<RqmSampler>(s.mechanism.m, fl::kRqmKeep,
                                      rqm_delta_ratio(s.exp_eps, s.mechanism.m, fl::kRqmKeep),
                                      s.center, s.radius, key, 0);
}

/// Maps a sampler's float output back to its output index; the levels must be distinct floats.
struct LevelIndex {
  std::vector<float> levels;
  explicit LevelIndex(const std::vector<double>& values) {
    for (double v : values) levels.push_back(static_cast<float>(v));
    for (std::size_t i = 1; i < levels.size(); ++i)
      if (!(levels[i - 1] < levels[i]))
        throw invalid_argument("radius", corbin::describe(levels[i]),
                               "large enough that the sampler's output levels are distinct floats");
  }
  std::uint8_t operator()(float x) const {
    for (std::size_t i = 0; i < levels.size(); ++i)
      if (x == levels[i]) return static_cast<std::uint8_t>(i);
    throw std::logic_error("a sampler output that is none of its levels");
  }
};

void record(Answer& a, std::uint8_t index, bool sequence) {
  ++a.counts[index];
  if (sequence) a.sequence.push_back(index);
}

/// A request's keys for the fixed-point samplers: builtin:cpu and the kernels draw from the same
/// ones, so that the kernels' first block is builtin:cpu's output for output.
struct SamplerKeys {
  Key coins, shared, follower;  ///< a client's (the leader's) private coins, Z, the follower's coins
  explicit SamplerKeys(std::uint64_t seed)
      : coins(derive_key(seed, "conform private coins")),
        shared(derive_key(seed, "conform shared Z")),
        follower(derive_key(seed, "conform follower's private coins")) {}
};

fl::kernels::Backend usable(fl::kernels::Backend backend) {
  if (backend == fl::kernels::Backend::cuda && !fl::kernels::cuda_available())
    throw invalid_argument("device", "cuda",
                           fl::kernels::cuda_built()
                               ? "a CUDA device on this machine (none is visible)"
                               : "a device this build has (built without CUDA; docs/fl.md, \"On a GPU\")");
  return backend;
}

/// An output index of a kernel's float output: 0 for c + rα, 1 for c − rα.
std::uint8_t level_of(float x, const SamplerConstants& k) {
  if (x == k.plus) return 0;
  if (x == k.minus) return 1;
  throw ProtocolError("the kernels sent " + corbin::describe(x) +
                      ", which is neither output level (" + corbin::describe(k.plus) + ", " +
                      corbin::describe(k.minus) + ")");
}

}  // namespace

float input_as_float(const Rational& w) {
  return static_cast<float>(to_double(w));
}

Law fixed_point_law(const Setting& s) {
  check_setting(s);
  switch (s.mechanism.kind) {
    case Kind::ldpq: {
      bool nan = false;
      const FixedPointLaw law(budget_of(s), s.center, s.radius);
      const Rational q(BigInt(law.fixed_q(input_as_float(s.inputs[0]), nan)),
                       BigInt(pow2(kFixedBits)));
      return Law{output_labels(s.mechanism), {q, Rational(1 - q)}};
    }
    case Kind::corbinq: {
      bool nan = false;
      const FixedPointLaw law(budget_of(s), s.center, s.radius);
      const JointLaw<Rational> j =
          fixed_point_joint_law(law.fixed_q(input_as_float(s.inputs[0]), nan),
                                law.fixed_q(input_as_float(s.inputs[1]), nan), s.bits);
      return Law{output_labels(s.mechanism), {j.pp, j.pm, j.mp, j.mm}};
    }
    case Kind::pbm:
      return from_scalar(s.mechanism,
                         pbm_sampler(s, Key{})->fixed_point_law(input_as_float(s.inputs[0])));
    case Kind::rqm:
      return from_scalar(s.mechanism,
                         rqm_sampler(s, Key{})->fixed_point_law(input_as_float(s.inputs[0])));
  }
  return {};
}

FixedPointDistance fixed_point_distance(const Setting& s) {
  const Law fixed = fixed_point_law(s);
  const std::string variant = variants_of(s.mechanism).front();
  Setting at_float = s;
  for (Rational& w : at_float.inputs)
    w = clipped(to_rational(static_cast<double>(input_as_float(w))), s);
  return {total_variation(fixed, exact_law(at_float, variant)),
          total_variation(fixed, exact_law(s, variant))};
}

Answer CpuSampler::draw(const Request& r) {
  const Setting& s = r.setting;
  check_setting(s);
  check_cpu_variant(s, r.variant);
  Answer a;
  a.counts.assign(output_labels(s.mechanism).size(), 0);
  if (r.outputs) a.sequence.reserve(r.draws);
  const std::uint64_t seed = r.seed;
  std::vector<float> w1(kBlock, input_as_float(s.inputs[0])), out1(kBlock);
  std::vector<float> w2, out2;
  if (s.mechanism.kind == Kind::corbinq) {
    w2.assign(kBlock, input_as_float(s.inputs[1]));
    out2.resize(kBlock);
  }
  const SamplerKeys keys(seed);
  const Key& coins = keys.coins;
  std::unique_ptr<LdpqSampler> ldpq;
  std::unique_ptr<CorbinqPairSampler> pair;
  std::unique_ptr<PbmSampler> pbm;
  std::unique_ptr<RqmSampler> rqm;
  std::unique_ptr<LevelIndex> levels;
  float plus = 0;
  switch (s.mechanism.kind) {
    case Kind::ldpq: {
      const FixedPointLaw law(budget_of(s), s.center, s.radius);
      plus = law.plus_value();
      ldpq = std::make_unique<LdpqSampler>(law, coins, 0);
      break;
    }
    case Kind::corbinq: {
      const FixedPointLaw law(budget_of(s), s.center, s.radius);
      plus = law.plus_value();
      pair = std::make_unique<CorbinqPairSampler>(
          law, s.bits, keys.shared, coins, keys.follower, 0);
      break;
    }
    case Kind::pbm:
      pbm = pbm_sampler(s, coins);
      levels = std::make_unique<LevelIndex>(pbm->levels());
      break;
    case Kind::rqm:
      rqm = rqm_sampler(s, coins);
      levels = std::make_unique<LevelIndex>(rqm->levels());
      break;
  }
  for (std::uint64_t first = 0; first < r.draws; first += kBlock) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, r.draws - first));
    if (ldpq) ldpq->sample(w1.data(), out1.data(), n, first);
    if (pair) pair->sample(w1.data(), w2.data(), out1.data(), out2.data(), n, first);
    if (pbm) pbm->sample(w1.data(), out1.data(), n, first);
    if (rqm) rqm->sample(w1.data(), out1.data(), n, first);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint8_t index = 0;
      if (ldpq)
        index = out1[i] == plus ? 0 : 1;
      else if (pair)
        index = static_cast<std::uint8_t>((out1[i] == plus ? 0 : 2) + (out2[i] == plus ? 0 : 1));
      else
        index = (*levels)(out1[i]);
      record(a, index, r.outputs);
    }
  }
  return a;
}

KernelSampler::KernelSampler(fl::kernels::Backend backend)
    : backend_(usable(backend)),
      w1_(backend, kKernelBlock),
      w2_(backend, kKernelBlock),
      out1_(backend, kKernelBlock),
      out2_(backend, kKernelBlock),
      host1_(kKernelBlock),
      host2_(kKernelBlock) {}

Answer KernelSampler::draw(const Request& r) {
  namespace k = fl::kernels;
  const Setting& s = r.setting;
  check_setting(s);
  if (s.mechanism.kind != Kind::ldpq && s.mechanism.kind != Kind::corbinq)
    throw invalid_argument("mechanism", s.mechanism.name(),
                           "LDPQ or CorBinQ for the round kernels (corbin fl samples PBM and RQM on "
                           "the host: builtin:cpu)");
  check_cpu_variant(s, r.variant);
  const bool pair = s.mechanism.kind == Kind::corbinq;
  const FixedPointLaw law(budget_of(s), s.center, s.radius);
  const SamplerConstants constants = law.constants(pair ? kFixedBits - s.bits : 0);
  // The keys builtin:cpu uses, so that block 0 draws what it draws.
  const SamplerKeys keys(r.seed);
  const chacha20::KeyWords coins = key_words(keys.coins), shared = key_words(keys.shared),
                           follower = key_words(keys.follower);
  // Every draw of a request reads the same inputs: a block's worth (or fewer) is written once.
  const std::size_t filled = static_cast<std::size_t>(std::min<std::uint64_t>(kKernelBlock, r.draws));
  std::fill_n(host1_.begin(), filled, input_as_float(s.inputs[0]));
  w1_.write(host1_.data(), filled);
  if (pair) {
    std::fill_n(host2_.begin(), filled, input_as_float(s.inputs[1]));
    w2_.write(host2_.data(), filled);
  }
  Answer a;
  a.counts.assign(output_labels(s.mechanism).size(), 0);
  if (r.outputs) a.sequence.reserve(r.draws);
  for (std::uint64_t first = 0; first < r.draws; first += kKernelBlock) {
    const std::uint64_t n = std::min<std::uint64_t>(kKernelBlock, r.draws - first);
    const auto stream = static_cast<std::uint32_t>(first / kKernelBlock);
    bool nan = false;
    if (pair)
      nan = k::run_corbinq(backend_, {{w1_.data(), w2_.data(), out1_.data(), out2_.data(), n,
                                       shared, coins, follower, nullptr, stream, s.bits,
                                       constants}});
    else
      nan = k::run_ldpq(backend_, {{w1_.data(), out1_.data(), n, coins, stream, constants}});
    if (nan) throw ProtocolError("the kernels read a NaN input");
    out1_.read(host1_.data(), n);
    if (pair) out2_.read(host2_.data(), n);
    for (std::uint64_t i = 0; i < n; ++i)
      record(a,
             pair ? static_cast<std::uint8_t>(2 * level_of(host1_[i], constants) +
                                              level_of(host2_[i], constants))
                  : level_of(host1_[i], constants),
             r.outputs);
  }
  return a;
}

Answer ExactSampler::draw(const Request& r) {
  const Law law = exact_law(r.setting, r.variant);
  const std::size_t K = law.prob.size();
  // Output k iff the word falls below T_k = floor(2^64 F_k), F_k the cumulative probability; the
  // last output takes the rest.
  std::vector<std::uint64_t> thresholds;
  std::size_t last = K - 1;  // the last output of positive probability takes the rest
  while (last > 0 && law.prob[last] == 0) last -= 1;
  Rational cumulative = 0;
  const Rational scale(pow2(64));
  for (std::size_t k = 0; k < last; ++k) {
    cumulative += law.prob[k];
    thresholds.push_back(
        floor_of(Rational(cumulative * scale)).convert_to<std::uint64_t>());  // < 2^64
  }
  Answer a;
  a.counts.assign(K, 0);
  if (r.outputs) a.sequence.reserve(r.draws);
  const Key key = derive_key(r.seed, "conform exact draws");
  std::vector<std::uint8_t> bytes(kBlock * 8);
  for (std::uint64_t first = 0; first < r.draws; first += kBlock) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, r.draws - first));
    keystream(key, 0, first / kBlock, bytes.data(), n * 8);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t word = little_endian_word(bytes.data() + 8 * i);
      std::size_t k = 0;
      while (k < last && word >= thresholds[k]) ++k;
      record(a, static_cast<std::uint8_t>(k), r.outputs);
    }
  }
  return a;
}

const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names{"builtin:cpu", "builtin:kernels", "builtin:cuda",
                                              "builtin:exact"};
  return names;
}

bool is_builtin(const std::string& name) { return name.rfind("builtin:", 0) == 0; }

Builtin builtin_sampler(const std::string& name, const Mechanism& mechanism,
                        const std::string& variant) {
  check_variant(mechanism, variant);
  const auto& names = builtin_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw invalid_argument("sampler", quote(name),
                           "builtin:cpu, builtin:kernels, builtin:cuda or builtin:exact");
  Builtin b;
  if (name == "builtin:exact") {
    b.sampler = std::make_unique<ExactSampler>();
    b.claimed = exact_claim(variant);
    return b;
  }
  if (mechanism.kind == Kind::corbinq && variant != "corrected")
    throw invalid_argument("variant", quote(variant),
                           "corrected with " + name +
                               " (corbin's fixed-point samplers implement the corrected algorithm)");
  b.fixed_point = true;
  b.claimed = ClaimedLaw(fixed_point_law);
  if (name == "builtin:cpu") {
    b.sampler = std::make_unique<CpuSampler>();
    return b;
  }
  if (mechanism.kind != Kind::ldpq && mechanism.kind != Kind::corbinq)
    throw invalid_argument("mechanism", mechanism.name(),
                           "ldpq or corbinq with " + name +
                               " (the round kernels sample these; corbin fl samples the others on "
                               "the host: builtin:cpu)");
  try {
    b.sampler = std::make_unique<KernelSampler>(name == "builtin:cuda" ? fl::kernels::Backend::cuda
                                                                        : fl::kernels::Backend::host);
  } catch (const invalid_argument& e) {
    throw invalid_argument("sampler", name, e.rule());
  }
  return b;
}

}  // namespace corbin::conform
