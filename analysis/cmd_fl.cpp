// `corbin fl`: federated training with a privacy mechanism on an MNIST-format dataset (Alg. 3,
// Section 5). Writes DIR/rounds.jsonl (one object per round, with the live check of the
// aggregate's MSE against its exact expectation) and DIR/summary.json.
//
// Built with CORBIN_WITH_TORCH. To run on a GPU, configure against a CUDA build of libtorch
// (-DCMAKE_PREFIX_PATH=/path/to/libtorch) and pass --device cuda; Debian's libtorch is CPU-only
// and --device cuda then stops with an error.

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "corbin/fl/live_check.hpp"
#include "corbin/fl/model.hpp"
#include "corbin/fl/split.hpp"
#include "corbin/number/error.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct FlArgs {
  BudgetOptions budget;
  std::string data = "/usr/share/datasets/fashion-mnist", out = "fl-run", mechanism = "corbin", device = "cpu",
              z_transport = "encrypted", entropy = "seeded";
  std::string clients = "50", rounds = "10", bits = "5", gamma = "1/2", delta = "1e-5", dropout = "0",
              lambda = "1", seed = "0", per_client = "0", patience = "5", threads = "0";
};

void run_fl(const FlArgs& a) {
  fl::MechanismConfig mech;
  mech.kind = fl::parse_mechanism(a.mechanism);
  if (mech.kind != fl::Mechanism::vanilla) mech.budget = a.budget.budget();
  mech.bits = static_cast<unsigned>(parse_count(a.bits, "--bits", 32));
  mech.gamma = parse_rational(a.gamma, "--gamma");
  mech.delta = parse_rational(a.delta, "--delta");
  mech.dropout = parse_rational(a.dropout, "--dropout");
  mech.seed = parse_count(a.seed, "--seed", ~0ul);
  mech.protocol.transport = fl::parse_z_transport(a.z_transport);
  mech.protocol.entropy = fl::parse_entropy(a.entropy);
  fl::check_mechanism(mech);
  const std::size_t n = parse_count(a.clients, "--clients", 100000);
  if (n < 2) throw invalid_argument("--clients", a.clients, "at least 2");
  const unsigned long rounds = parse_count(a.rounds, "--rounds", 1000000);
  const Rational lambda = parse_rational(a.lambda, "--lambda");
  if (lambda <= 0 || lambda > 1) throw invalid_argument("--lambda", a.lambda, "in (0, 1]");
  const std::size_t per_client = parse_count(a.per_client, "--per-client", ~0ul);
  const unsigned long patience = parse_count(a.patience, "--patience", 1000000);
  const unsigned long threads = parse_count(a.threads, "--threads", 1024);
  if (a.device != "cpu" && a.device != "cuda") throw invalid_argument("--device", quote(a.device), "cpu or cuda");
  if (a.device == "cuda" && !torch::cuda::is_available())
    throw invalid_argument("--device", "cuda", "a device this libtorch can use (it has no CUDA; see the comment in cmd_fl.cpp)");
  const torch::Device device(a.device == "cuda" ? torch::kCUDA : torch::kCPU);
  if (threads > 0) torch::set_num_threads(static_cast<int>(threads));
  fl::keep_freed_memory();

  const fl::MnistFiles files = fl::load_mnist_dir(a.data);
  const std::size_t total = files.train.images.count + files.test.images.count;
  fl::Split split = fl::split_iid(total, n, mech.seed);
  if (per_client > 0)
    for (auto& shard : split.clients) shard.resize(std::min(shard.size(), per_client));
  torch::manual_seed(mech.seed);
  fl::MnistNet net(static_cast<std::int64_t>(files.train.images.rows));
  net->to(device);
  std::vector<fl::Batch> shards;
  for (const auto& shard : split.clients) shards.push_back(fl::gather(files, shard, device));
  const fl::Batch test = fl::gather(files, split.test, device), validation = fl::gather(files, split.validation, device);
  std::vector<float> global = fl::flatten(net);
  const std::vector<fl::Layer> layers = fl::layers_of(net);

  std::filesystem::create_directories(a.out);
  std::ofstream log(std::filesystem::path(a.out) / "rounds.jsonl");
  const bool tty = isatty(2);
  double best_validation = -1;
  unsigned long since_best = 0, round = 0;
  const double lam = to_double(lambda);
  fl::Evaluation final_test;
  const auto start = std::chrono::steady_clock::now();
  for (; round < rounds; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::vector<float>> params;
    for (std::size_t i = 0; i < n; ++i) {
      fl::assign(net, global);
      fl::train_epoch(net, shards[i], derive_seed(mech.seed, "round " + std::to_string(round) + " client " + std::to_string(i) + " training"), device);
      params.push_back(fl::flatten(net));
    }
    const auto t1 = std::chrono::steady_clock::now();
    const fl::RoundResult r = fl::obfuscated_mean(params, global, layers, mech, round);
    const auto t2 = std::chrono::steady_clock::now();
    // The theorems checked live on a sample of coordinates (not counted as mechanism time).
    std::optional<fl::LiveCheck> check;
    if (mech.kind != fl::Mechanism::vanilla && r.survivors() > 0)
      check = fl::live_check(params, global, layers, mech, r, round);
    for (std::size_t t = 0; t < global.size(); ++t)
      global[t] = static_cast<float>((1 - lam) * global[t] + lam * r.aggregate[t]);
    fl::assign(net, global);
    const fl::Evaluation te = fl::evaluate(net, test), va = fl::evaluate(net, validation);
    final_test = te;
    Json row = Json::object();
    row["round"] = round;
    row["mechanism"] = a.mechanism;
    row["eps"] = mech.kind == fl::Mechanism::vanilla || mech.kind == fl::Mechanism::cq ? Json(nullptr) : Json(midpoint_of(mech.budget.eps_interval()).convert_to<double>());
    row["bits"] = mech.bits;
    row["gamma"] = to_double(mech.gamma);
    row["lambda"] = lam;
    row["dropout"] = to_double(mech.dropout);
    row["test_accuracy"] = te.accuracy;
    row["test_loss"] = te.loss;
    row["validation_accuracy"] = va.accuracy;
    row["mse_empirical"] = r.mse_empirical;
    row["mse_expected"] = check ? Json(check->mse_expected) : Json(nullptr);
    row["mse_empirical_sampled"] = check ? Json(check->mse_empirical) : Json(nullptr);
    row["mse_z"] = check ? Json(check->z) : Json(nullptr);
    row["mse_bound"] = check && check->mse_bound ? Json(*check->mse_bound) : Json(nullptr);
    row["mse_check_coordinates"] = check ? check->coordinates : 0;
    // Bytes per client: the mean over the n clients of what each sent plus received, and by
    // purpose (means too), for the chosen Z transport.
    Json bytes = Json::object();
    double total = 0, most = 0;
    const auto mean_of = [&](auto field) {
      double sum = 0;
      for (const fl::Traffic& t : r.traffic) sum += static_cast<double>(field(t));
      return sum / static_cast<double>(r.traffic.size());
    };
    for (const fl::Traffic& t : r.traffic) {
      total += static_cast<double>(t.up() + t.down());
      most = std::max(most, static_cast<double>(t.up() + t.down()));
    }
    bytes["up"] = mean_of([](const fl::Traffic& t) { return t.up(); });
    bytes["down"] = mean_of([](const fl::Traffic& t) { return t.down(); });
    bytes["model_down"] = mean_of([](const fl::Traffic& t) { return t.model_down; });
    bytes["key_exchange"] = mean_of([](const fl::Traffic& t) { return t.key_up + t.key_down; });
    bytes["election"] = mean_of([](const fl::Traffic& t) { return t.election_up + t.election_down; });
    bytes["z"] = mean_of([](const fl::Traffic& t) { return t.z_up + t.z_down; });
    bytes["update_up"] = mean_of([](const fl::Traffic& t) { return t.update_up; });
    row["bytes_per_client"] = total / static_cast<double>(r.traffic.size());
    row["bytes_per_client_max"] = most;
    row["bytes"] = bytes;
    row["z_transport"] = fl::to_string(mech.protocol.transport);
    row["survivors"] = r.survivors();
    row["alone"] = r.alone();
    row["pairs"] = r.pairs();
    row["seconds_training"] = std::chrono::duration<double>(t1 - t0).count();
    row["seconds_mechanism"] = std::chrono::duration<double>(t2 - t1).count();
    row["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    row["threads"] = torch::get_num_threads();
    row["seed"] = mech.seed;
    log << row.dump() << "\n" << std::flush;
    if (tty)
      std::cerr << "\rcorbin fl: round " << round + 1 << "/" << rounds << "  test accuracy " << te.accuracy
                << "  (" << static_cast<int>(row["seconds"].get<double>()) << " s/round)   " << std::flush;
    if (va.accuracy > best_validation) {
      best_validation = va.accuracy;
      since_best = 0;
    } else if (++since_best >= patience) {
      ++round;
      break;  // early stopping on validation accuracy
    }
  }
  if (tty) std::cerr << "\n";
  Json summary = Json::object();
  summary["mechanism"] = a.mechanism;
  summary["clients"] = n;
  summary["rounds_run"] = round;
  summary["parameters"] = global.size();
  summary["final_test_accuracy"] = final_test.accuracy;
  summary["best_validation_accuracy"] = best_validation;
  summary["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary["seed"] = mech.seed;
  std::ofstream(std::filesystem::path(a.out) / "summary.json") << summary.dump(1) << "\n";
  emit(std::cout, summary, false);
}

}  // namespace

void add_fl(CLI::App& app) {
  auto args = std::make_shared<FlArgs>();
  auto* cmd = app.add_subcommand("fl", "federated training with a privacy mechanism (libtorch)");
  args->budget.add(*cmd);
  cmd->add_option("--data", args->data, "MNIST-format directory (default: Debian's Fashion-MNIST)");
  cmd->add_option("--out", args->out, "output directory (default fl-run)");
  cmd->add_option("--mechanism", args->mechanism, "vanilla | ldp | corbin | augcorbin | gaussian | laplace | cq");
  cmd->add_option("--z-transport", args->z_transport,
                  "encrypted (the leader sends Z, ChaCha20-Poly1305; default) | derived (from the X25519 key)");
  cmd->add_option("--entropy", args->entropy,
                  "seeded (clients' secrets from --seed: reproducible; default) | os (the OS's randomness)");
  cmd->add_option("--clients", args->clients, "clients n (default 50)");
  cmd->add_option("--rounds", args->rounds, "rounds (default 10)");
  cmd->add_option("--bits", args->bits, "shared bits d (default 5)");
  cmd->add_option("--gamma", args->gamma, "AugCorBin-FL's LDPQ fraction (default 1/2)");
  cmd->add_option("--delta", args->delta, "Gaussian δ (default 1e-5)");
  cmd->add_option("--dropout", args->dropout, "per-round dropout probability (default 0)");
  cmd->add_option("--lambda", args->lambda, "global smoothing λ in (0, 1] (default 1)");
  cmd->add_option("--seed", args->seed, "seed (default 0)");
  cmd->add_option("--per-client", args->per_client, "cap on examples per client (0: all)");
  cmd->add_option("--patience", args->patience, "rounds without validation gain before stopping (default 5)");
  cmd->add_option("--device", args->device, "cpu | cuda");
  cmd->add_option("--threads", args->threads, "intra-op threads (0: libtorch's default)");
  cmd->callback([args] { run_fl(*args); });
}

}  // namespace corbin::cli
