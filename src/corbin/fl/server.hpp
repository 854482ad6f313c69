#pragma once
// The server of Alg. 3 and its loop over rounds. Each round:
//   1. the accountant's hook says what the run will have spent once the round is done (it
//      depends on no data, so it is known before the round runs), and a round that would take
//      the model's certified ε past the target is not run;
//   2. the clients train from the global model, with seeds derived from (seed, round, client),
//      and the round's mechanism aggregates their obfuscated weights (clients.hpp);
//   3. the live check compares the aggregate's error at sampled coordinates with its exact
//      expectation (live_check.hpp), for mechanisms with randomness;
//   4. the global model moves to (1 − λ)·global + λ·aggregate (λ smoothing; λ = 1 is Alg. 3);
//   5. the model is evaluated on the test and validation sets, and the paper's checkpoint rule
//      applies: the best model on validation accuracy is kept, and reloaded after `patience`
//      rounds without a gain;
//   6. the round's report goes to the caller's sink (which records it: the CLI writes a line of
//      rounds.jsonl and returns it), and the checkpoint covering it is saved (checkpoint.hpp).
// Every round is recomputable from (seed, round) and the state, so a run resumed from a
// checkpoint continues exactly as the uninterrupted run.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "corbin/fl/checkpoint.hpp"
#include "corbin/fl/clients.hpp"
#include "corbin/privacy/run/run_accountant.hpp"

namespace corbin::fl {

/// The server's update rule.
struct ServerRule {
  double lambda = 1;           ///< global smoothing, in (0, 1]
  unsigned long patience = 5;  ///< rounds without a validation gain before the best model is reloaded
};

/// The privacy spent once `rounds` rounds are done (certified ε_upper(δ) per coordinate and over
/// the model; RunAccountant::after is one).
using AccountantHook = std::function<RunAccountant::Bounds(std::uint64_t rounds)>;

/// What happened in one round.
struct RoundReport {
  unsigned long round = 0;
  RoundResult result;
  std::optional<LiveCheck> check;  ///< none for a mechanism without randomness, or no survivor
  Evaluation test, validation;
  bool reloaded = false;  ///< the best model was reloaded after the round
  std::optional<RunAccountant::Bounds> spent;  ///< with an accountant: the bounds after this round
  double seconds_training = 0, seconds_mechanism = 0, seconds_live_check = 0, seconds_evaluation = 0, seconds = 0;
};

/// Records a round; returns the line it logged, which the next checkpoint's checksum covers.
using RoundSink = std::function<std::string(const RoundReport&)>;

/// How a run ended.
struct RunEnd {
  bool stopped_by_target = false;
  unsigned long round = 0;  ///< the round not run (when stopped)
  RunAccountant::Bounds spent{};  ///< what it would have spent
};

class Server {
 public:
  /// `net` is the global model's module (evaluation); `mechanism` as check_mechanism accepts it.
  Server(MechanismConfig mechanism, Model net, Batch test, Batch validation, ServerRule rule);

  /// Account the run with `hook`, and stop before a round that would take the model's bound
  /// past `target_eps` (none: never stop).
  void account(AccountantHook hook, std::optional<Rational> target_eps);

  /// Runs rounds state.server.next_round, ..., rounds − 1, saving a checkpoint in `out` after each.
  RunEnd run(Clients& clients, Checkpoint& state, unsigned long rounds, const std::filesystem::path& out,
             const RoundSink& sink);

  const std::vector<Layer>& layers() const { return layers_; }

 private:
  MechanismConfig mechanism_;
  Model net_;
  Batch test_, validation_;
  ServerRule rule_;
  std::vector<Layer> layers_;
  AccountantHook accountant_;
  std::optional<Rational> target_eps_;
};

}  // namespace corbin::fl
