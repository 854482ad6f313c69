#pragma once
// What the baselines of the authors' repository (PBM, RQM, SignSGD: REFERENCES.md, "Baselines of
// the authors' repository") have in common, for one coordinate: a finite output law over the real
// values the server decodes, its moments, and its PLDP ratio
//     sup_o sup_{w, w'} P(Q(w) = o) / P(Q(w') = o)      over w, w' in [c − r, c + r].
// Each mechanism lists its outputs in a fixed order, the same for every input (an output keeps its
// index even where its probability is 0), so that laws at different inputs compare output by
// output. Templates on the number type, as in ldpq.hpp: exact for Rational, enclosures for
// Interval, plain for double.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/number/traits.hpp"
#include "corbin/quantizer/fixed_point.hpp"
#include "corbin/quantizer/keystream.hpp"

namespace corbin {

/// One output: the value the server decodes and uses, and its probability.
template <class T>
struct Atom {
  T value;
  T prob;
  friend bool operator==(const Atom&, const Atom&) = default;
};

template <class T>
struct ScalarLaw {
  std::vector<Atom<T>> atoms;

  T total() const {
    T s = 0;
    for (const auto& a : atoms) s = T(s + a.prob);
    return s;
  }
  T mean() const {
    T s = 0;
    for (const auto& a : atoms) s = T(s + a.value * a.prob);
    return s;
  }
  T second_moment() const {
    T s = 0;
    for (const auto& a : atoms) s = T(s + a.value * a.value * a.prob);
    return s;
  }
  /// E[Q] − w.
  T bias(const T& w) const { return T(mean() - w); }
  /// E[(Q − w)²] = E[Q²] − 2w E[Q] + w², from the atoms: it shares nothing with the closed forms
  /// the mechanisms also give, so that the tests can hold one against the other.
  T mse(const T& w) const { return T(second_moment() - 2 * w * mean() + w * w); }
};

/// Whether a computed PLDP ratio meets the e^ε a mechanism is calibrated to. `undecided` only for
/// Interval, where the enclosures of the ratio and of e^ε overlap (as they must when the
/// calibration makes them equal, as it does for PBM and RQM); `not_claimed` when the mechanism
/// claims no ε (SignSGD).
enum class Meets { yes, no, undecided, not_claimed };
const char* to_string(Meets m);

template <class T>
struct LawPldp {
  bool unbounded = false;  ///< some output has probability 0 at one input and > 0 at another
  T ratio = 0;             ///< the supremum (when bounded); an enclosure of it for Interval
  std::size_t output = 0;  ///< index of the output attaining it (or the unbounded one)
  T output_value = 0;
  T w_high = 0, w_low = 0;  ///< inputs giving the numerator and the denominator
  T bound = 0;              ///< e^ε the mechanism is calibrated to (when claimed)
  Meets meets = Meets::not_claimed;
};

/// ratio <= bound: exact for Rational, certified for Interval (undecided when the enclosures
/// overlap), plain for double.
Meets decide_at_most(const Rational& ratio, const Rational& bound);
Meets decide_at_most(const Interval& ratio, const Interval& bound);
Meets decide_at_most(double ratio, double bound);

namespace detail {

/// a > b for choosing a witness: exact for Rational, by the midpoints otherwise. The ratio reported
/// never depends on it (it is the certified maximum over every candidate).
template <class T>
bool larger(const T& a, const T& b) {
  using N = NumTraits<T>;
  if constexpr (N::kExact) return b < a;
  else return N::approx(b) < N::approx(a);
}

}  // namespace detail

/// The PLDP supremum from the laws at a list of inputs that contains, for every output, an input
/// where its probability is largest and one where it is smallest over [c − r, c + r]. Each
/// mechanism derives that candidate set from the shape of its probabilities in w (affine, piecewise
/// affine, unimodal) and says so where it calls this; the tests check it against a fine grid.
template <class T>
LawPldp<T> pldp_over_inputs(const std::vector<T>& inputs, const std::vector<ScalarLaw<T>>& laws) {
  using N = NumTraits<T>;
  LawPldp<T> best;
  bool have = false;
  T certified = 0;
  const std::size_t outputs = laws.front().atoms.size();
  for (std::size_t o = 0; o < outputs; ++o) {
    std::size_t i_max = 0, i_min = 0;
    T p_max = laws[0].atoms[o].prob, p_min = p_max;
    for (std::size_t i = 1; i < laws.size(); ++i) {
      const T& p = laws[i].atoms[o].prob;
      if (detail::larger(p, laws[i_max].atoms[o].prob)) i_max = i;
      if (detail::larger(laws[i_min].atoms[o].prob, p)) i_min = i;
      p_max = N::max(p_max, p);
      p_min = N::min(p_min, p);
    }
    if (N::is_zero(p_max)) continue;  // never emitted: no constraint
    LawPldp<T> r;
    r.output = o;
    r.output_value = laws[0].atoms[o].value;
    r.w_high = inputs[i_max];
    r.w_low = inputs[i_min];
    if (N::is_zero(p_min)) {
      r.unbounded = true;
      if (!best.unbounded) best = r;
      have = true;
      continue;
    }
    r.ratio = T(p_max / p_min);
    if (best.unbounded) continue;
    certified = have ? N::max(certified, r.ratio) : r.ratio;
    if (!have || detail::larger(r.ratio, best.ratio)) best = r;
    have = true;
  }
  if (!best.unbounded) best.ratio = certified;
  return best;
}

/// Records the e^ε the mechanism is calibrated to and whether the supremum meets it.
template <class T>
void set_claim(LawPldp<T>& pldp, const T& exp_eps) {
  pldp.bound = exp_eps;
  pldp.meets = pldp.unbounded ? Meets::no : decide_at_most(pldp.ratio, exp_eps);
}

/// Bits per coordinate. `claimed`: what the authors' README table and docstrings state.
/// `lossless`: ⌈log2(number of outputs)⌉, what a client must send for the server to decode every
/// output. `simulated`: what the authors' simulation moves, the decoded value as a float32 entry of
/// the client's state dict (federated_trainer.py accumulates processed_state_dict[key].float()).
struct WireBits {
  unsigned claimed, lossless, simulated;
};

/// ⌈log2(symbols)⌉ for symbols >= 1.
unsigned bits_for_symbols(std::size_t symbols);

/// The samplers' fixed-point range: probabilities are n/2^32, and n is clamped to
/// [ceil(2^32 lo), floor(2^32 hi)] so that the realised law stays inside the exact range and never
/// exceeds the exact law's ratio (the LDPQ sampler's rule, sampler.hpp). For Interval the ends are
/// certified inward: ceil of the upper end of lo, floor of the lower end of hi.
struct FixedRange {
  std::uint64_t lo, hi;
};
FixedRange fixed_range(const Rational& lo, const Rational& hi);
FixedRange fixed_range(const Interval& lo, const Interval& hi);

/// The uint64 word of parameter i in a chunk: bytes [8i, 8i + 8) of the chunk's keystream,
/// little-endian. The baseline samplers draw every coin of a coordinate from this one word
/// (bits 0–31 the first coin, bits 32–63 the second), so outputs are reproducible from
/// (key, stream, chunk) and any chunk can be regenerated alone, as the LDPQ sampler's are.
constexpr std::size_t kBaselineChunk = 32768;
inline std::uint32_t low_coin(std::uint64_t word) { return static_cast<std::uint32_t>(word); }
inline std::uint32_t high_coin(std::uint64_t word) { return static_cast<std::uint32_t>(word >> 32); }

/// Raises invalid_argument("first") unless first is a multiple of kBaselineChunk.
void check_chunk_start(std::uint64_t first);
/// Raises invalid_argument naming "w[i]" (global index) for the first NaN of w: a NaN has no
/// output law, and the fixed-point rule would silently map it somewhere.
void check_no_nan_input(const float* w, std::size_t count, std::uint64_t first);

/// out[i] = draw(w[i], word of coordinate first + i) for count coordinates, chunk by chunk of
/// (key, stream): the baseline samplers' common loop (their `draw` is the per-word rule).
/// Checks `first` and the inputs as above.
template <class Draw>
void sample_by_words(const Key& key, std::uint32_t stream, const float* w, float* out, std::size_t count,
                     std::uint64_t first, Draw draw) {
  check_chunk_start(first);
  check_no_nan_input(w, count, first);
  thread_local const std::unique_ptr<std::uint64_t[]> words(new std::uint64_t[kBaselineChunk]);
  for (std::size_t start = 0; start < count; start += kBaselineChunk) {
    const std::size_t n = std::min(kBaselineChunk, count - start);
    keystream(key, stream, (first + start) / kBaselineChunk, reinterpret_cast<std::uint8_t*>(words.get()),
              n * sizeof(std::uint64_t));
    for (std::size_t i = 0; i < n; ++i) out[start + i] = static_cast<float>(draw(static_cast<double>(w[start + i]), words[i]));
  }
}

/// e^x as an enclosure at the working precision; x = ε must be > 0 (raises invalid_argument("eps")).
Interval exp_eps_interval(const Rational& eps);

}  // namespace corbin
