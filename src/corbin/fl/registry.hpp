#pragma once
// One room per mechanism. A mechanism (LDPQ's LDP-FL, CorBin-FL, the Gaussian, ...) is one class
// in fl/mechanisms/<name>.{hpp,cpp} that says everything the toolkit asks of it:
//   - who quantizes alone and who in pairs, whether it takes a budget and clips, its bits on the
//     wire (the round's plan and byte counts);
//   - its sampler for one layer of a round (the CPU round; a device kernel where it has one);
//   - its exact per-coordinate law where finite, and its exact MSE (sweeps, Python, B1);
//   - n clients' aggregate MSE, worst case over inputs (the audit's privacy–utility figure) and at
//     given inputs (sweeps, `corbin check`, Python);
//   - its PLDP ratio (`corbin pldp`, sweeps);
//   - the exact moments of the round's error at a coordinate (the live MSE check);
//   - the LDPQ share its accountant needs, where it has one (`corbin fl`'s ε per round).
// The registry names every mechanism; the round, the live check, the CLI, the sweeps and the
// Python module look mechanisms up there and never switch on a name. A new mechanism is one
// new room and one `Registry::add` (docs/mechanisms.md, "The registry, and adding a mechanism"); a test registers a toy one.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "corbin/fl/geometry.hpp"
#include "corbin/fl/protocol.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/scalar_law.hpp"

namespace corbin::fl {

struct MechanismConfig;

/// Who quantizes alone and who in pairs each round (fl/mechanism: plan_round).
enum class Pairing {
  alone,      ///< every survivor alone
  pairs,      ///< every drawn pair (an odd one out alone)
  augmented,  ///< the first ⌊γn⌋ of the shuffled order alone, the rest in pairs
};
/// "alone", "pairs", "augmented" (`corbin mechanisms`, the Python module).
const char* to_string(Pairing p);

/// Raises invalid_argument("gamma") unless 0 <= γ <= 1 (AugCorBin-FL's LDPQ fraction).
void check_gamma(const Rational& gamma);
/// How many of n clients in the round's shuffled order quantize alone before the pairs begin:
/// all (alone), none (pairs), ⌊γn⌋ (augmented, the reference code's rule). When the rest is odd,
/// its last client is alone as well (plan_round).
std::size_t lone_before_pairs(Pairing pairing, const Rational& gamma, std::size_t n);

/// How a mechanism's round runs on a device (fl/device_round): the host's round on copied rows,
/// the weights as they are, or one of the device's kernels (fl/round_kernels.hpp).
enum class DeviceKernel { host, identity, quantizer, gaussian_noise, laplace_noise };

/// One output value of a coordinate and its probability, exactly (quantizer/scalar_law.hpp).
using Atom = corbin::Atom<Rational>;

/// One layer of a round, as a mechanism's sampler sees it.
struct LayerRound {
  const MechanismConfig& config;
  Geometry g;
  std::uint32_t stream;  ///< the layer's index: its keystreams' stream
  std::uint64_t round;
  std::size_t size;  ///< coordinates in the layer
};

/// A mechanism's sampler for one layer of a round (built once per layer: calibration and
/// fixed-point laws are per layer). Inputs are the clients' raw weights; clipping is the
/// mechanism's own business.
class LayerSampler {
 public:
  virtual ~LayerSampler() = default;
  /// The lone clients' outputs: `clients[k]`'s layer is `inputs[k]`, its output goes to
  /// `outputs[k]`. All at once, as CQ's clients share randomness.
  virtual void alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
                     std::span<float* const> outputs) const = 0;
  /// A pair's outputs (mechanisms whose pairing is not `alone`).
  virtual void pair(const PairChannel& channel, const float* leader, const float* follower, float* out_leader,
                    float* out_follower) const;
};

/// A coordinate's share of the live check: E e² and Var e² of e = aggregate − clipped mean
/// (exact where the law is finite), and the paper's bound on E e² where it has one.
struct CoordinateCheck {
  double expected = 0, variance = 0;
  std::optional<double> bound;
};

/// The live check's per-layer terms of a mechanism.
class LayerCheck {
 public:
  virtual ~LayerCheck() = default;
  /// At one coordinate: the lone survivors' raw weights and the pairs' (leader, follower).
  virtual CoordinateCheck coordinate(std::span<const float> alone,
                                     std::span<const std::pair<float, float>> pairs) const = 0;
};

/// The exact moments of an independent part of the error (a client's or a pair's output minus
/// its clipped weights).
struct ErrorMoments {
  Rational mean, m2, m4;
};
ErrorMoments error_moments(const std::vector<Atom>& law_minus_input);
/// e = (1/k) Σ X_j over independent parts: E e² exactly, Var e² from the fourth moments.
CoordinateCheck combine(const std::vector<ErrorMoments>& parts, std::size_t k);

/// A PLDP ratio (condition C5): sup over outputs and inputs in [c − r, c + r] of
/// P(Q(w) = o)/P(Q(w') = o), against the mechanism's claimed e^ε.
struct PldpSummary {
  bool unbounded = false;          ///< some output has probability 0 at one input and not at another
  std::optional<Rational> ratio_exact, bound_exact;
  Interval ratio, bound;           ///< enclosures (points when exact)
  Rational w_high, w_low;          ///< inputs reaching the ratio (their midpoints when not exact)
  std::optional<Rational> w_partner;  ///< a paired client's partner's input there
  std::string output;              ///< the output that reaches it
  std::string client = "alone";    ///< "alone", "leader (Q1)" or "follower (Q2)"
  bool attained = true;            ///< false when the supremum is approached, not reached
  bool claimed = true;             ///< false for a mechanism that claims no ε (no bound to meet)
};

/// A scalar law's PLDP (quantizer/scalar_law.hpp) as the registry's summary.
template <class T>
PldpSummary summary_of(const LawPldp<T>& p);

/// The live check of a mechanism whose lone clients draw independently from a finite law known
/// exactly at each raw weight (the law its fixed-point sampler realises); no paper bound.
class AloneLawCheck : public LayerCheck {
 public:
  using LawAt = std::function<std::vector<Atom>(float w)>;
  AloneLawCheck(const Geometry& g, LawAt law) : g_(g), law_(std::move(law)) {}
  CoordinateCheck coordinate(std::span<const float> alone, std::span<const std::pair<float, float>>) const override;

 private:
  Geometry g_;
  LawAt law_;
};

/// The parameters a mechanism's per-coordinate questions take (beyond the weight).
struct CoordinateSetting {
  Budget budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
  Rational center{0}, radius{1};
  unsigned bits = 5;
  Variant variant = Variant::corrected;
  Rational delta{1, 100000};
  Rational gamma{1, 2};  ///< AugCorBin-FL's LDPQ fraction (MechanismConfig::gamma)
  /// The neighbouring relation a round's accountant is for (round_accountant; no other question
  /// reads it): replace one for every room with a builder, remove one for the lone rooms whose
  /// builder is lone_clients.hpp's (client 1 absent: the others' sum released).
  Neighbour relation = Neighbour::replace_one;
  /// Each client's dropout probability in a round, in [0, 1) (round_accountant only): the lone
  /// rooms' builder takes the mixture over who survived (lone_clients.hpp: lone_clients_round),
  /// the others refuse one above 0.
  Rational dropout{0};
  /// The coordinates m of a round (round_accountant only). With dropout they share every
  /// client's draw (who drops out drops out of all of them), so the accountant is of one whole
  /// round: the mixture over who survived of the m coordinates composed (uses_per_round).
  std::uint64_t coordinates = 1;
};

/// How many uses of round_accountant's answer make one round of m coordinates: 1 with dropout
/// (the answer is the whole round, its coordinates sharing the draw), else m, each a use.
std::uint64_t uses_per_round(const Rational& dropout, std::uint64_t m);
inline std::uint64_t uses_per_round(const CoordinateSetting& s) {
  return uses_per_round(s.dropout, s.coordinates);
}

/// The parameters of a CoordinateSetting beyond c and r, each read by some rooms' questions and
/// not by others (Mechanism::reads).
enum class SettingParameter { budget, bits, variant, gamma, delta };

/// {c − r, c + r}: the input range as one quadratic piece (Mechanism::mse_quadratic_pieces).
std::vector<Rational> range_ends(const CoordinateSetting& s);
/// The input w relative to the centre, as an accountant's configuration names it: "c", "c + 1/2",
/// "c - 1".
std::string input_words(const CoordinateSetting& s, const Rational& w);

/// A value a room computes: `exact` where it computes it exactly, and `enclosure` always (the
/// exact value's own where there is one).
struct MseValue {
  std::optional<Rational> exact;
  Interval enclosure;
};

/// Raises invalid_argument("weights") for no client, and invalid_argument("weights[i]") for an
/// input outside [c − r, c + r] (Mechanism::aggregate_mse_at's inputs).
void check_inputs(const CoordinateSetting& s, const std::vector<Rational>& weights);

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  virtual Pairing pairing() const { return Pairing::alone; }
  virtual bool takes_budget() const { return true; }
  /// Whether it has a round of `corbin fl` (clients obfuscate, the server averages).
  virtual bool federated() const { return true; }
  /// Whether its output is random (the live check has something to check).
  virtual bool randomised() const { return true; }
  /// Whether clients clip their weights to [c − r, c + r] first (the live check's reference is
  /// the clipped mean).
  virtual bool clips() const { return true; }
  /// The scale of the noise a client adds to a layer's coordinates (σ, b), for mechanisms that add
  /// noise (the device's noise kernels take it).
  virtual std::optional<double> noise_scale(const MechanismConfig&, const Geometry&) const { return std::nullopt; }
  /// Bits a client sends per coordinate (1 for the one-bit quantizers, 32 for a float).
  virtual unsigned bits_per_coordinate() const { return 32; }
  /// Whether a lone client's output depends on the other lone clients (CQ: its place among them
  /// picks its shift); then a process holding some of them samples all (fl/mechanism: obfuscate_held).
  virtual bool couples_lone_clients() const { return false; }
  virtual DeviceKernel device_kernel() const { return DeviceKernel::host; }
  /// Whether any of its per-coordinate questions (law, MSE, PLDP, accountant) reads `p` of the
  /// setting: the one declaration by which `corbin sweep` and `corbin account` (another mechanism's rounds) refuse a
  /// parameter that would answer no other question than without it. The default: the budget
  /// where it takes one, CorBinQ's d and variant where clients pair, γ where the pairing is
  /// augmented, δ nowhere (the Gaussian's calibration reads it).
  virtual bool reads(SettingParameter p) const;

  /// The round's sampler for a layer.
  virtual std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const = 0;
  /// The live check's terms for a layer, or none (a mechanism without randomness).
  virtual std::unique_ptr<LayerCheck> check(const MechanismConfig& config, const Geometry& g) const;

  /// A lone client's exact output law at w in [c − r, c + r], where it is finite and per client.
  virtual std::optional<std::vector<Atom>> law(const CoordinateSetting& s, const Rational& w) const;
  /// E[(Q(w) − w)²] of a lone client, enclosed (exact when the law is); none where undefined.
  /// The default is the law's.
  virtual std::optional<Interval> mse(const CoordinateSetting& s, const Rational& w) const;
  /// The PLDP ratio, or none for a mechanism that claims no local privacy. The default takes the
  /// law at c − r and c + r, which is the supremum when every probability is affine in w
  /// (`law_affine_in_w`), and refuses otherwise.
  virtual std::optional<PldpSummary> pldp(const CoordinateSetting& s) const;
  virtual bool law_affine_in_w() const { return false; }
  /// Whether a lone client is unbiased on [c − r, c + r], E Q(w) = w: n independent lone
  /// clients' aggregate MSE is then the sum of theirs over n², with no cross terms.
  virtual bool unbiased() const { return false; }
  /// Where a lone client's MSE is one quadratic: inputs c − r = p_0 < … < p_k = c + r such that
  /// E[(Q(w) − w)²] is a polynomial of degree at most 2 in w on each [p_i, p_(i+1)]; none where
  /// the room does not know it to be. The default: {c − r, c + r} when `law_affine_in_w` (E Q and
  /// E Q² are then affine in w, so E Q² − 2w E Q + w² is quadratic), none otherwise.
  virtual std::optional<std::vector<Rational>> mse_quadratic_pieces(const CoordinateSetting& s) const;
  /// The worst case over inputs in [c − r, c + r]^n of the per-coordinate aggregate MSE
  /// E[(mean of the n outputs − mean of the n inputs)²], n clients in one round of the mechanism
  /// (γ from the setting where the pairing needs it), enclosed: a point's enclosure where the law
  /// is exact. None where it is undefined (no averaging round) or the room does not know it.
  /// Raises invalid_argument("n") for n = 0. The default, for unbiased lone clients whose MSE is
  /// quadratic on known pieces: sup_w mse(s, w)/n, each piece's supremum found exactly from the
  /// MSE at its ends and midpoint (utility/worst_case.hpp), from the law where it is exact.
  virtual std::optional<Interval> worst_aggregate_mse(const CoordinateSetting& s, std::size_t n) const;
  /// The same value exactly, where the room computes it exactly (a rational budget and an exact
  /// law), so that a bound held to it is decided at equality too; none otherwise. The default:
  /// the lone clients' path above from their exact laws.
  virtual std::optional<Rational> worst_aggregate_mse_exact(const CoordinateSetting& s, std::size_t n) const;
  /// The per-coordinate aggregate MSE at given inputs, E[(mean of the n outputs − mean of the n
  /// inputs)²] for n = weights.size() clients with these inputs in one round in which every client
  /// takes part, over all of the round's randomness: the clients' coins and, where the room pairs
  /// clients, the server's uniformly random order (fl/mechanism.hpp: draw_roles), so that it is the
  /// mechanism's answer and not one pairing's. Exact where the room computes it exactly; none
  /// where it is undefined (no averaging round) or the room does not know it. Raises as
  /// check_inputs. The default, for independent lone clients (e_i = Q(w_i) − w_i, b_i = E e_i):
  /// (1/n²)[Σ E e_i² + (Σ b_i)² − Σ b_i²], exactly from their laws, or Σ mse(s, w_i)/n² enclosed
  /// for unbiased clients without a finite law.
  virtual std::optional<MseValue> aggregate_mse_at(const CoordinateSetting& s,
                                                   const std::vector<Rational>& weights) const;
  /// e^ε the mechanism claims at the setting's budget (the PLDP default compares with it).
  virtual Interval claimed_exp_eps(const CoordinateSetting& s) const;

  /// The LDPQ share for the run's accountant (privacy/run/run_accountant.hpp), or none where the
  /// mechanism has no certified accountant at this configuration; `why_not` then says why.
  virtual std::optional<Rational> accountant_gamma(const MechanismConfig& config, std::string& why_not) const;

  /// Inputs c − r = e_0 < … < e_k = c + r between which a lone client's law is affine in the
  /// input (every input's law a convex combination of the two around it), or none where the room
  /// does not know such a set. The default: {c − r, c + r} where `law_affine_in_w`.
  virtual std::optional<std::vector<Rational>> law_extreme_inputs(const CoordinateSetting& s) const;
  /// The mechanism's builder for the accountant (privacy/run/accountant.hpp): one coordinate of one
  /// round of n clients, the released sum, client 1's input replaced, certified two-sided over the
  /// worst case of every input an adversary chooses; none where the room has none (`why_not`
  /// says why). The default serves lone clients with finite laws affine between their
  /// `law_extreme_inputs` (privacy/worst_case/lone_clients.hpp: every configuration of extremes).
  virtual std::optional<Accountant> round_accountant(const CoordinateSetting& s, std::size_t n,
                                                     const PldLimits& limits, std::string& why_not) const;
};

/// A room's round accountant as the front ends ask for it (`corbin account` for a room, Python's
/// Accountant(mechanism=...)): `round`, or none with `why_not`; `dropout_refused` where the room
/// refuses `s` but answers it without its dropout, so that the refusal names the dropout.
struct RoomAccountant {
  std::optional<Accountant> round;
  std::string why_not;
  bool dropout_refused = false;
};
RoomAccountant room_accountant(const Mechanism& room, const CoordinateSetting& s, std::size_t n,
                               const PldLimits& limits);

/// What a mechanism is, as the CLI's `mechanisms` subcommand (in JSON) and the Python module's
/// mechanisms() report it: name, summary, pairing, takes_budget, federated, bits_per_coordinate
/// and device_kernel (whether it has device kernels), in that order. One list, so that the two
/// cannot drift.
using Property = std::variant<std::string, bool, unsigned>;
std::vector<std::pair<std::string, Property>> properties_of(const Mechanism& m);

/// Every mechanism by name. The built-in ones are there from the start; `add` registers more
/// (a test's toy mechanism, a user's own) for the rest of the process.
class Registry {
 public:
  static Registry& global();
  /// Raises invalid_argument("mechanism") for a name already taken or not a lower-case word.
  void add(std::unique_ptr<Mechanism> mechanism);
  /// Raises invalid_argument("mechanism") naming the known ones.
  const Mechanism& find(const std::string& name) const;
  const Mechanism* find_if(const std::string& name) const;
  std::vector<const Mechanism*> all() const;
  std::string names() const;  ///< "vanilla, ldp, ..." in registration order

 private:
  Registry();
  std::vector<std::unique_ptr<Mechanism>> mechanisms_;
};

}  // namespace corbin::fl
