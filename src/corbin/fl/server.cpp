#include "corbin/fl/server.hpp"

#include <cmath>
#include <utility>

#include "corbin/quantizer/keystream.hpp"

namespace corbin::fl {
namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point from, Clock::time_point to) { return std::chrono::duration<double>(to - from).count(); }

}  // namespace

Server::Server(MechanismConfig mechanism, Model net, Batch test, Batch validation, ServerRule rule)
    : mechanism_(std::move(mechanism)),
      net_(std::move(net)),
      test_(std::move(test)),
      validation_(std::move(validation)),
      rule_(rule),
      layers_(layers_of(*net_)) {}

void Server::account(AccountantHook hook, std::optional<Rational> target_eps) {
  accountant_ = std::move(hook);
  target_eps_ = std::move(target_eps);
}

RunEnd Server::run(Clients& clients, Checkpoint& state, unsigned long rounds, const std::filesystem::path& out,
                   const RoundSink& sink) {
  ServerState& s = state.server;
  const std::size_t n = clients.count();
  for (unsigned long round = s.next_round; round < rounds; ++round) {
    const auto t0 = Clock::now();
    RoundReport report;
    report.round = round;
    if (accountant_) {
      report.spent = accountant_(round + 1);
      const double model = report.spent->model;
      if (target_eps_ && (std::isinf(model) || Rational(model) > *target_eps_)) return {true, round, *report.spent};
    }
    std::vector<std::uint64_t> seeds(n);
    for (std::size_t i = 0; i < n; ++i)
      seeds[i] = derive_seed(mechanism_.seed, "round " + std::to_string(round) + " client " + std::to_string(i) + " training");
    clients.train(s.global, seeds);
    const auto t1 = Clock::now();
    // The weights at the live check's coordinates are kept (not counted as mechanism time).
    const bool checked = mechanism_.mechanism->randomised();
    SampledWeights sampled;
    if (checked) sampled.coordinates = live_check_coordinates(layers_, mechanism_.seed, round);
    report.result = clients.obfuscate(s.global, layers_, mechanism_, round, checked ? &sampled : nullptr);
    const auto t2 = Clock::now();
    if (checked && report.result.survivors() > 0)
      report.check = live_check(sampled, s.global, layers_, mechanism_, report.result);
    const auto t3 = Clock::now();
    const double lambda = rule_.lambda;
    for (std::size_t t = 0; t < s.global.size(); ++t)
      s.global[t] = static_cast<float>((1 - lambda) * s.global[t] + lambda * report.result.aggregate[t]);
    assign(*net_, s.global);
    report.test = evaluate(*net_, test_);
    report.validation = evaluate(*net_, validation_);
    const auto t4 = Clock::now();
    // The paper's checkpoint rule: keep the best model on validation accuracy, and reload it
    // after `patience` rounds without a gain.
    if (report.validation.accuracy > s.best_validation) {
      s.best_validation = report.validation.accuracy;
      s.best_round = round;
      s.best = s.global;
      s.since_best = 0;
    } else if (++s.since_best >= rule_.patience) {
      s.global = s.best;
      s.since_best = 0;
      ++s.reloads;
      report.reloaded = true;
    }
    report.seconds_training = seconds(t0, t1);
    report.seconds_mechanism = seconds(t1, t2);
    report.seconds_live_check = seconds(t2, t3);
    report.seconds_evaluation = seconds(t3, t4);
    report.seconds = seconds(t0, Clock::now());
    state.log_checksum = extend_log_checksum(state.log_checksum, sink(report));
    s.next_round = round + 1;
    save_checkpoint(out, state);
  }
  return {};
}

}  // namespace corbin::fl
