#pragma once
// A sampler on trial: corbin asks it for draws at chosen settings and decides, at a stated
// family-wise error rate, whether its outputs are consistent with the exact law it claims.
//
// make_plan fixes everything before the first draw: the settings (grid.hpp), the law claimed at
// each, the list of tests and so the per-test level, and each setting's number of draws (enough,
// with `Options::draws` unset, for the stated power against every other known law that differs
// there). run_trial sends the plan's requests to a Sampler, checks each answer (ProtocolError names
// what is wrong), and evaluate decides:
//   law             goodness of fit of the outputs' joint law (statistics.hpp)
//   marginal Q1/Q2  each client's output law of a pair, exact binomial; for a variant whose clients
//                   are unbiased this is also the unbiasedness test (E Q = c ± rα·(2P(+) − 1) = w)
//   unbiased        the mean of a client with three or more outputs, where the claimed law is
//   unbiased privacy         an empirical lower bound on the privacy loss, Clopper–Pearson over the
//   outputs and
//                   every pair of the group's inputs, held to the certified ε (where the claimed
//                   law is ε-PLDP over those inputs)
//   independence    the outputs in draw order at one setting per (mechanism, e^ε, c, r): pairs at
//                   lags 1, 2, 3, 4, 8, … (a Z or coin reused across coordinates) and the draws
//                   of two calls position by position (a Z or coin reused across calls)
//   decoded values  where the sampler says what its outputs decode to, each held to the law's value
//                   (c ± rα, PBM's and RQM's levels): an exact comparison, outside the error rate
// Holm's procedure over all of them keeps the chance that a sampler of the claimed law is declared
// to depart at most `Options::level`. A finite sample never proves conformance: the plan states
// the power against each known alternative and the smallest shift of a binary output's
// probability each setting detects, which bounds how far a conforming verdict lets a sampler be.
//
// Nothing here does I/O: the CLI adapts a child process to Sampler, and builtin.hpp adapts
// corbin's own samplers.

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "corbin/conform/law.hpp"
#include "corbin/conform/statistics.hpp"

namespace corbin::conform {

/// One request to a sampler: `draws` independent draws at `setting` of the law of `variant`.
struct Request {
  std::uint64_t id = 0;
  Setting setting;
  std::string variant;
  std::uint64_t draws = 0;
  std::uint64_t seed = 0;
  bool outputs = false;  ///< the outputs in draw order are wanted (the independence tests)
};

/// A sampler's answer: the count of each output (output_labels order) and, when it gave them, the
/// outputs in draw order (indices into the labels) and the value each of a client's outputs
/// decodes to (in the order of the client's labels: "+" "-", PBM's "0" … "m", RQM's "-" ("0") "+"),
/// as the sampler wrote it ("2", "1/3", "0.6666666666666666").
struct Answer {
  std::vector<std::uint64_t> counts;
  std::vector<std::uint8_t> sequence;
  std::vector<std::string> values;
};

/// Relative tolerance of a decoded value written as a decimal: 2^−40 of max(|value|, r), room for a
/// few roundings in double of c ± rα (2^−52 each) but far below any difference of levels that
/// matters.
constexpr double kValueTolerance = 9.094947017729282e-13;

/// What is on trial.
class Sampler {
 public:
  virtual ~Sampler() = default;
  /// Draws for one request; raises ProtocolError when it cannot answer it properly.
  virtual Answer draw(const Request& request) = 0;
};

/// A sampler that did not answer as the protocol requires (wrong counts, a missing answer, a
/// crash): the message says what happened.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The law a sampler claims at a setting: the exact law of its variant, or for corbin's own
/// fixed-point samplers the law they realise (builtin.hpp).
using ClaimedLaw = std::function<Law(const Setting&)>;
ClaimedLaw exact_claim(const std::string& variant);

struct Options {
  double level = 1e-3;      ///< family-wise error rate
  double power = 0.9;       ///< power to reach against each known alternative (auto draws)
  std::uint64_t draws = 0;  ///< draws per setting; 0: chosen for the power
  std::uint64_t min_draws = 100000, max_draws = 1000000;
  double effect =
      0;  ///< also detect a shift this large in a client's output probability (0: not asked)
  bool independence = true;
  std::uint64_t independence_draws = 65536;
  std::uint64_t seed = 1;
};

/// Raises invalid_argument naming level (in (0, 1)), power (in (0, 1)), draws, min_draws, max_draws
/// (1 <= min <= max <= 10^10), effect (in [0, 1/2)) or independence_draws (in [64, 10^7]).
void check_options(const Options& o);

/// Another known law at one setting: how far it is, and the draws the stated power needs there.
struct AlternativeAt {
  std::string name;
  Rational tv;  ///< total variation from the claimed law
  std::uint64_t needed =
      0;  ///< fewest draws with the stated power here (0: not within max_draws, or tv = 0)
  double power = 0;  ///< at the setting's draws and the per-test level
};

struct PlannedSetting {
  Setting setting;
  Law claimed;
  bool boundary = false;  ///< boundary-sensitive (law.hpp)
  std::uint64_t draws = 0;
  std::string draws_reason;
  std::vector<AlternativeAt> alternatives;
  double detectable_shift = 0;  ///< smallest shift of a binary client output's probability detected
                                ///< with the stated power (inf: none)
  std::string effect_note;      ///< set when Options::effect could not be met within max_draws
};

/// What a run will ask and test, fixed before the first draw.
struct Plan {
  std::string variant;
  std::vector<PlannedSetting> settings;
  std::vector<std::size_t> probes;  ///< settings probed for independence (two requests each)
  std::vector<std::uint64_t> lags;  ///< the lags of the within-call independence tests
  std::uint64_t probe_draws = 0;
  std::size_t tests = 0;                  ///< M: every test of the run
  double per_test_level = 0;              ///< level / M (Bonferroni; Holm decides)
  std::vector<Request> requests;          ///< one per setting, then two per probe
  std::vector<std::string> alternatives;  ///< the other known laws (variants, then fault models)
};

/// Plans a trial of `settings` (validated) for a sampler claiming `variant` whose law at each
/// setting is `claimed`. Raises invalid_argument("settings") for none.
Plan make_plan(std::vector<Setting> settings, const std::string& variant, const ClaimedLaw& claimed,
               const Options& o);

struct TestRecord {
  std::string kind;  ///< "law", "marginal Q1", "unbiased", "privacy Q2", "independence lag 4", ...
  std::vector<std::size_t> settings;  ///< the plan's settings it uses
  TestOutcome outcome;
  bool rejected = false;
  std::string detail;
};

/// Whether the draws are consistent, at every setting, with one known law (the claimed variant's
/// exact law included), each setting's goodness of fit at level / (number of settings).
struct Consistency {
  std::string name, description;
  bool fault_model = false;
  bool consistent = true;
  std::size_t rejecting = 0;
  double smallest_p = 1;
  std::size_t worst = 0;  ///< the setting of the smallest p-value
  double run_power =
      0;  ///< the plan's power against it (1 − Π(1 − power at each setting)); claimed law: 0
  std::size_t powered = 0;  ///< settings where the stated power is reached against it
};

/// The empirical privacy-loss lower bound of one client over one group of settings.
struct PrivacyBound {
  std::string group;
  std::size_t client = 0;
  bool tested = false;
  std::string why_not;       ///< when not tested: the claimed law is not ε-PLDP over these inputs
  double eps_certified = 0;  ///< ln e^ε
  double eps_lower = 0;      ///< at confidence 1 − per-test level (−inf: no bound)
  std::string witness;       ///< output and inputs attaining it
};

struct Report {
  bool conforms = true;
  std::vector<TestRecord> tests;
  std::vector<Consistency> laws;
  std::vector<PrivacyBound> privacy;
  std::uint64_t draws = 0;
};

/// Raises ProtocolError unless the answer fits the request: one count per output summing to the
/// draws, and when the outputs were wanted, the outputs in order (agreeing with the counts).
void check_answer(const Request& request, const Answer& answer);

/// Decides a plan from its answers (one per request, in order).
Report evaluate(const Plan& plan, const std::vector<Answer>& answers, const Options& o);

/// Sends every request to the sampler, checks each answer, and evaluates. Keeps only counts, and
/// the outputs in order where the plan wants them, so memory does not grow with the draws.
Report run_trial(Sampler& sampler, const Plan& plan, const Options& o);

}  // namespace corbin::conform
