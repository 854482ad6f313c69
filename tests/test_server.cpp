// fl/server on its own: the round loop with clients whose aggregate the test chooses, so that
// the update rule (λ smoothing), the patience reload, the accountant's hook and its target, the
// sink and the checkpoint are each checked against values computed here.

#include <unistd.h>

#include <filesystem>

#include "corbin/fl/registry.hpp"
#include "corbin/fl/server.hpp"

// Debian's libtorch brings glog, whose CHECK aborts; the tests mean Catch's.
#undef CHECK
#include <catch2/catch.hpp>

using namespace corbin;
using namespace corbin::fl;
namespace fs = std::filesystem;

namespace {

/// Clients that do not train: every round's aggregate is aggregate(global, round).
class ChosenClients : public Clients {
 public:
  using Rule = std::function<std::vector<float>(const std::vector<float>&, std::uint64_t)>;
  ChosenClients(std::size_t n, Rule rule) : n_(n), rule_(std::move(rule)) {}
  std::size_t count() const override { return n_; }
  void train(const std::vector<float>&, const std::vector<std::uint64_t>& seeds) override { seeds_ = seeds; }
  RoundResult obfuscate(const std::vector<float>& global, const std::vector<Layer>&, const MechanismConfig&,
                        std::uint64_t round, SampledWeights*) override {
    RoundResult r;
    r.aggregate = rule_(global, round);
    for (std::size_t i = 0; i < n_; ++i) r.alone_clients.push_back(i);
    r.traffic.resize(n_);
    return r;
  }
  std::vector<std::vector<float>> trained() const override { return {}; }
  std::vector<std::uint64_t> seeds_;  ///< the last round's

 private:
  std::size_t n_;
  Rule rule_;
};

struct Fixture {
  fs::path out = fs::temp_directory_path() / ("corbin_server_" + std::to_string(getpid()));
  Model net;
  Batch data;
  MechanismConfig vanilla;
  Fixture() {
    fs::remove_all(out);
    fs::create_directories(out);
    torch::manual_seed(3);
    net = make_model("mlp", 4);
    data.x = torch::rand({16, 1, 4, 4});
    data.y = torch::randint(0, 10, {16}, torch::kLong);
    vanilla.mechanism = &Registry::global().find("vanilla");
  }
  ~Fixture() { fs::remove_all(out); }
  Checkpoint fresh() {
    Checkpoint state;
    state.settings = {{"seed", "0"}};
    state.server.global = flatten(*net);
    state.server.best = state.server.global;
    return state;
  }
};

}  // namespace

TEST_CASE("server: λ smoothing moves the global model to (1 − λ)·global + λ·aggregate", "[server]") {
  Fixture f;
  Checkpoint state = f.fresh();
  const std::vector<float> start = state.server.global;
  ChosenClients clients(3, [](const std::vector<float>& g, std::uint64_t round) {
    std::vector<float> a(g.size());
    for (std::size_t t = 0; t < g.size(); ++t) a[t] = g[t] + static_cast<float>(round + 1);
    return a;
  });
  Server server(f.vanilla, f.net, f.data, f.data, {0.25, 100});
  std::vector<RoundReport> seen;
  const RunEnd end = server.run(clients, state, 2, f.out, [&](const RoundReport& r) {
    seen.push_back(r);
    return "round " + std::to_string(r.round);
  });
  CHECK_FALSE(end.stopped_by_target);
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].round == 0);
  CHECK(seen[1].round == 1);
  CHECK_FALSE(seen[0].spent);  // no accountant
  CHECK_FALSE(seen[0].check);  // vanilla: nothing random to check
  // Two steps of the rule, computed here in the same double arithmetic.
  for (std::size_t t = 0; t < start.size(); t += 997) {
    const float one = static_cast<float>(0.75 * start[t] + 0.25 * (start[t] + 1.0f));
    const float two = static_cast<float>(0.75 * one + 0.25 * (one + 2.0f));
    REQUIRE(state.server.global[t] == two);
    REQUIRE(std::abs(two - start[t]) > 0.74f);  // it moved by 0.25·1 + 0.25·2
  }
  CHECK(state.server.next_round == 2);
  // The seeds are derived per (seed, round, client): distinct across clients.
  REQUIRE(clients.seeds_.size() == 3);
  CHECK(clients.seeds_[0] != clients.seeds_[1]);
  // The checkpoint on disk covers both rounds and the sink's two lines.
  const Checkpoint saved = load_checkpoint(f.out, state.settings, state.server.global.size());
  CHECK(saved.server.next_round == 2);
  CHECK(saved.server.global == state.server.global);
  CHECK(saved.log_checksum == extend_log_checksum(extend_log_checksum(kEmptyLogChecksum, "round 0"), "round 1"));
}

TEST_CASE("server: the best model is reloaded after `patience` rounds without a validation gain", "[server]") {
  Fixture f;
  Checkpoint state = f.fresh();
  // The aggregate is the global model itself: validation accuracy never changes, so round 0 sets
  // the best and rounds 1, 2, ... gain nothing.
  ChosenClients clients(2, [](const std::vector<float>& g, std::uint64_t) { return g; });
  Server server(f.vanilla, f.net, f.data, f.data, {1, 2});
  std::vector<bool> reloaded;
  server.run(clients, state, 5, f.out, [&](const RoundReport& r) {
    reloaded.push_back(r.reloaded);
    return std::string();
  });
  CHECK(reloaded == std::vector<bool>{false, false, true, false, true});
  CHECK(state.server.reloads == 2);
  CHECK(state.server.best_round == 0);
  CHECK(state.server.since_best == 0);
}

TEST_CASE("server: the accountant's hook is asked before each round and its target stops the run", "[server]") {
  Fixture f;
  Checkpoint state = f.fresh();
  ChosenClients clients(2, [](const std::vector<float>& g, std::uint64_t) { return g; });
  Server server(f.vanilla, f.net, f.data, f.data, {1, 5});
  std::vector<std::uint64_t> asked;
  server.account(
      [&](std::uint64_t rounds) {
        asked.push_back(rounds);
        return RunAccountant::Bounds{0.5 * static_cast<double>(rounds), static_cast<double>(rounds)};
      },
      Rational(5, 2));
  std::vector<double> spent;
  const RunEnd end = server.run(clients, state, 10, f.out, [&](const RoundReport& r) {
    spent.push_back(r.spent->model);
    return std::string();
  });
  // After 2 rounds the model has spent 2 <= 5/2; a third would take it to 3.
  CHECK(spent == std::vector<double>{1, 2});
  CHECK(asked == std::vector<std::uint64_t>{1, 2, 3});
  CHECK(end.stopped_by_target);
  CHECK(end.round == 2);
  CHECK(end.spent.model == 3);
  CHECK(state.server.next_round == 2);
}
