// `corbin fl`: federated training with a privacy mechanism on an MNIST-format dataset (Alg. 3,
// Section 5). Writes DIR/rounds.jsonl (one object per round: accuracy, the live check of the
// aggregate's MSE against its exact expectation, bytes per client), DIR/summary.json,
// DIR/accuracy.png and DIR/mse.png, and a checkpoint each round (DIR/checkpoint, for --resume).
//
// Privacy accounting (AugCorBin-FL, and CorBin-FL or AugCorBin-FL with dropout): each row carries
// the certified ε_upper(δ) after the rounds so far, per coordinate and over the model
// (privacy/run_accountant.hpp), and --target-eps stops the run before a round would take the
// model's past the target. Neighbours are replace-one: the server counts the clients it averages,
// so the participant set is public, and under remove-one the two sums have different numbers of
// terms and disjoint supports (aggregate_law.hpp), an infinite ε that says nothing about the
// mechanism. With dropout the survivors of a round are random: δ is split in halves, one for the
// mechanism at the survivors every round is guaranteed except with probability β, and one for
// those failures, β = δ / (2 · --rounds) a round (privacy/dropout_floor.hpp); the floors and β go
// into summary.json. CorBin-FL without dropout has no LDPQ client, outside Theorem 3's
// configuration, and is not accounted.
//
// Built with CORBIN_WITH_TORCH. Local training runs one client at a time (the CPU default) or
// all clients at once as one stack (client_stack.hpp; the default on a GPU), and the stack's
// round mechanism runs where its weights are (device_round.hpp). To run on a GPU, build with
// CORBIN_WITH_CUDA against a CUDA libtorch (README, "On a GPU") and pass --device cuda; Debian's
// libtorch is CPU-only and --device cuda then stops with an error.
//
// Data: --split iid (the paper's equal shares) or --split dirichlet --beta B (non-IID labels,
// fl/split.hpp). A Dirichlet split's shards are unequal, so its clients train one at a time (the
// stack needs equal shards); the server still averages them equally, as Alg. 3.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>

#include "commands.hpp"
#include "data_files.hpp"
#include "fl_checkpoint.hpp"
#include "corbin/fl/client_stack.hpp"
#include "corbin/fl/device_round.hpp"
#include "corbin/fl/live_check.hpp"
#include "corbin/fl/model.hpp"
#include "corbin/fl/split.hpp"
#include "corbin/io/files.hpp"
#include "corbin/io/spawn.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/directed.hpp"
#include "corbin/privacy/dropout_floor.hpp"
#include "corbin/privacy/run_accountant.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct FlArgs {
  BudgetOptions budget;
  std::string data = "/usr/share/datasets/fashion-mnist", out = "fl-run", mechanism = "corbin", device = "cpu",
              z_transport = "encrypted", entropy = "seeded", python = "/usr/bin/python3", model = "cnn",
              training = "auto", normalisation = "half", stacked_conv = "grouped", split = "iid";
  std::string clients = "50", rounds = "10", bits = "5", gamma = "1/2", delta = "1e-5", dropout = "0",
              lambda = "1", seed = "0", per_client = "0", patience = "5", threads = "0", eval_limit = "0", batch = "64";
  std::string target_eps;  ///< empty: no budget stop
  std::string beta;        ///< empty: not given (--split dirichlet requires it)
  bool resume = false, no_figures = false;
};

/// The options that determine a run's rounds, in canonical form (numbers as exact "p/q", so
/// that `--exp-eps 3.0` resumes a run started with `3`): a resumed run must repeat them
/// (--rounds may grow).
Json settings_of(const FlArgs& a) {
  Json s = Json::object();
  s["data"] = std::filesystem::absolute(a.data).lexically_normal().string();
  s["mechanism"] = a.mechanism;
  s["model"] = a.model;
  const auto exact = [](const std::string& text, const char* option) {
    return text.empty() ? std::string() : to_string(parse_rational(text, option));
  };
  s["alpha"] = exact(a.budget.alpha, "--alpha");
  s["exp_eps"] = exact(a.budget.exp_eps, "--exp-eps");
  s["eps"] = exact(a.budget.eps, "--eps");
  for (const auto& [key, value, option] :
       {std::tuple{"clients", a.clients, "--clients"}, {"bits", a.bits, "--bits"}, {"gamma", a.gamma, "--gamma"},
        {"delta", a.delta, "--delta"}, {"dropout", a.dropout, "--dropout"}, {"lambda", a.lambda, "--lambda"},
        {"seed", a.seed, "--seed"}, {"per_client", a.per_client, "--per-client"},
        {"patience", a.patience, "--patience"}, {"eval_limit", a.eval_limit, "--eval-limit"},
        {"batch", a.batch, "--batch"}})
    s[key] = exact(value, option);
  s["z_transport"] = a.z_transport;
  s["entropy"] = a.entropy;
  s["normalisation"] = a.normalisation;
  // Only a non-IID split is recorded, so that runs (and checkpoints) from before --split existed
  // keep their settings; load_checkpoint compares keys both ways, so neither side can hide one.
  if (a.split != "iid") {
    s["split"] = a.split;
    s["beta"] = exact(a.beta, "--beta");
  }
  return s;
}

/// Mean over the clients of what each sent plus received in the round, and by purpose.
void put_traffic(Json& row, const std::vector<fl::Traffic>& traffic) {
  const auto mean_of = [&](auto field) {
    double sum = 0;
    for (const fl::Traffic& t : traffic) sum += static_cast<double>(field(t));
    return sum / static_cast<double>(traffic.size());
  };
  double most = 0;
  for (const fl::Traffic& t : traffic) most = std::max(most, static_cast<double>(t.up() + t.down()));
  Json bytes = Json::object();
  bytes["up"] = mean_of([](const fl::Traffic& t) { return t.up(); });
  bytes["down"] = mean_of([](const fl::Traffic& t) { return t.down(); });
  bytes["model_down"] = mean_of([](const fl::Traffic& t) { return t.model_down; });
  bytes["key_exchange"] = mean_of([](const fl::Traffic& t) { return t.key_up + t.key_down; });
  bytes["election"] = mean_of([](const fl::Traffic& t) { return t.election_up + t.election_down; });
  bytes["z"] = mean_of([](const fl::Traffic& t) { return t.z_up + t.z_down; });
  bytes["update_up"] = mean_of([](const fl::Traffic& t) { return t.update_up; });
  row["bytes_per_client"] = bytes["up"].get<double>() + bytes["down"].get<double>();
  row["bytes_per_client_max"] = most;
  row["bytes"] = bytes;
}

/// Keeps the first `count` lines of DIR/rounds.jsonl (the rounds a checkpoint covers; a kill may
/// have left one more, or a part of one), after checking them against the checkpoint's checksum:
/// a log edited or damaged inside those lines is refused, not silently cut.
void restore_log(const std::filesystem::path& path, const FlCheckpoint& state) {
  std::vector<std::string> lines;
  {
    std::ifstream f(path);
    for (std::string line; lines.size() < state.next_round && std::getline(f, line);) lines.push_back(line);
  }
  std::uint64_t checksum = kEmptyLogChecksum;
  std::string kept;
  for (const auto& line : lines) {
    checksum = extend_log_checksum(checksum, line);
    kept += line + "\n";
  }
  if (lines.size() < state.next_round || checksum != state.log_checksum)
    throw invalid_argument("--resume", quote(path.string()),
                           "the " + std::to_string(state.next_round) + " rounds its checkpoint recorded, unchanged");
  io::write_atomically(path, kept, "--out");
}

void progress(unsigned long round, unsigned long rounds, double accuracy, double seconds_per_round) {
  constexpr int kWidth = 24;
  const int filled = static_cast<int>(kWidth * (round + 1) / std::max(1ul, rounds));
  const long eta = static_cast<long>(seconds_per_round * static_cast<double>(rounds - round - 1));
  std::cerr << "\rcorbin fl [" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] round "
            << round + 1 << "/" << rounds << "  test accuracy " << std::fixed << std::setprecision(4) << accuracy
            << "  " << std::setprecision(1) << seconds_per_round << " s/round  ETA " << eta / 60 << "m"
            << std::setw(2) << std::setfill('0') << eta % 60 << "s " << std::setfill(' ') << std::flush;
}

/// Waits for the device's queued work, so that the host clock measures it.
void synchronize(const torch::Device& device) {
  if (device.is_cuda()) torch::cuda::synchronize();
}

/// A certified bound as JSON: the double itself (exact, and printed so that it reads back to the
/// same double), or "infinite" where no finite ε is certified.
Json bound_json(double x) { return std::isinf(x) ? Json("infinite") : Json(x); }

/// --beta for the split: β > 0 (a double) with --split dirichlet, refused with --split iid.
double split_beta(const FlArgs& a, fl::SplitKind kind) {
  if (kind == fl::SplitKind::iid) {
    if (!a.beta.empty()) throw invalid_argument("--beta", a.beta, "given only with --split dirichlet");
    return 0;
  }
  if (a.beta.empty()) throw invalid_argument("--beta", "missing", "given with --split dirichlet (a number > 0)");
  const Rational exact = parse_rational(a.beta, "--beta");
  const double beta = to_double(exact);
  if (exact <= 0 || beta == 0 || std::isinf(beta))
    throw invalid_argument("--beta", a.beta, "> 0 and within the range of a double");
  return beta;
}

/// summary.json's "split": the kind, β, the clients the Dirichlet split filled, the pool's size,
/// and per client the examples trained on (after --per-client) and their label counts.
Json split_json(const FlArgs& a, fl::SplitKind kind, const fl::Split& split, const std::vector<std::uint8_t>& labels,
                std::size_t pool) {
  const bool iid = kind == fl::SplitKind::iid;
  Json out = {{"kind", fl::to_string(kind)},
              {"beta", iid ? Json(nullptr) : Json(to_string(parse_rational(a.beta, "--beta")))},
              {"filled", iid ? Json(nullptr) : Json(split.filled)},
              {"pool_examples", pool}};
  const std::size_t classes = 1 + *std::max_element(labels.begin(), labels.end());
  Json sizes = Json::array(), counts = Json::array();
  for (const auto& shard : split.clients) {
    sizes.push_back(shard.size());
    counts.push_back(fl::label_counts(shard, labels, classes));
  }
  out["client_sizes"] = sizes;
  out["client_label_counts"] = counts;
  return out;
}

void run_fl(const FlArgs& a) {
  fl::MechanismConfig mech;
  mech.mechanism = &fl::parse_mechanism(a.mechanism);
  if (!mech.mechanism->federated())
    throw invalid_argument("--mechanism", a.mechanism, "one with an averaging round (" + mech.mechanism->summary() + ")");
  const bool private_mechanism = mech.mechanism->takes_budget();
  // Every budget option given is validated, even where the mechanism does not use it.
  if (private_mechanism || a.budget.given()) mech.budget = a.budget.budget();
  (void)a.budget.precision_bits(0);
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
  const std::size_t eval_limit = parse_count(a.eval_limit, "--eval-limit", ~0ul);
  const unsigned long patience = parse_count(a.patience, "--patience", 1000000);
  if (patience == 0) throw invalid_argument("--patience", "0", "at least 1");
  // The LDPQ share of the run's accountant, where the mechanism has one (else why not).
  std::string unaccounted;
  const std::optional<Rational> accountant_gamma = mech.mechanism->accountant_gamma(mech, unaccounted);
  std::optional<Rational> target_eps;
  if (!a.target_eps.empty()) {
    target_eps = parse_rational(a.target_eps, "--target-eps");
    if (*target_eps <= 0) throw invalid_argument("--target-eps", a.target_eps, "> 0");
    if (!accountant_gamma)
      throw invalid_argument("--target-eps", a.target_eps + " with --mechanism " + a.mechanism, unaccounted);
  }
  // More intra-op threads than cores only slows libtorch down (1024 took minutes a round).
  const unsigned long cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned long threads = parse_count(a.threads, "--threads", cores);
  if (a.device != "cpu" && a.device != "cuda") throw invalid_argument("--device", quote(a.device), "cpu or cuda");
  if (a.device == "cuda" && !torch::cuda::is_available())
    throw invalid_argument("--device", "cuda", "a device this libtorch can use (it has no CUDA; see the comment in cmd_fl.cpp)");
  const torch::Device device(a.device == "cuda" ? torch::kCUDA : torch::kCPU);
  if (threads > 0) torch::set_num_threads(static_cast<int>(threads));
  fl::keep_freed_memory();
  if (a.training != "auto" && a.training != "stacked" && a.training != "one-at-a-time")
    throw invalid_argument("--training", quote(a.training), "auto, stacked or one-at-a-time");
  const fl::SplitKind split_kind = fl::parse_split(a.split);
  const double beta = split_beta(a, split_kind);
  fl::LocalTraining local;
  local.batch = static_cast<std::int64_t>(parse_count(a.batch, "--batch", 1u << 20));
  if (local.batch == 0) throw invalid_argument("--batch", "0", "at least 1");
  fl::StackedConvolution convolution = fl::StackedConvolution::grouped;
  try {
    convolution = fl::parse_stacked_convolution(a.stacked_conv);
  } catch (const invalid_argument&) {
    throw invalid_argument("--stacked-conv", quote(a.stacked_conv), "grouped or gemm");
  }
  fl::Normalisation normalisation;
  try {
    normalisation = fl::parse_normalisation(a.normalisation);
  } catch (const invalid_argument&) {
    throw invalid_argument("--normalisation", quote(a.normalisation), "half or mnist");
  }
  // cuDNN times its algorithms for each new shape and keeps the fastest (the grouped convolutions
  // of the stack gain most). The choice, and some of cuDNN's algorithms, make GPU runs reproducible
  // only to floating-point rounding, unlike the mechanism's randomness, which is exact.
  if (device.is_cuda()) at::globalContext().setBenchmarkCuDNN(true);

  const fl::MnistFiles files = fl::load_mnist_dir(a.data);
  if (files.train.images.rows != files.train.images.cols)
    throw invalid_argument("--data",
                           quote(a.data) + " (images " + std::to_string(files.train.images.rows) + " × " +
                               std::to_string(files.train.images.cols) + ")",
                           "square images (the models take side × side)");
  const std::size_t total = files.train.images.count + files.test.images.count;
  const std::vector<std::uint8_t> labels = fl::pooled_labels(files);
  fl::Split split = split_kind == fl::SplitKind::iid ? fl::split_iid(total, n, mech.seed)
                                                     : fl::split_dirichlet(labels, n, beta, mech.seed);
  const std::size_t pool = total - split.test.size() - split.validation.size();
  // A shard's order is random (split.hpp), so the cap keeps a uniform sample of each client's data.
  if (per_client > 0)
    for (auto& shard : split.clients) shard.resize(std::min(shard.size(), per_client));
  const Json split_summary = split_json(a, split_kind, split, labels, pool);
  // The stack trains equal shards only (client_stack.hpp).
  const bool equal_shards = std::all_of(split.clients.begin(), split.clients.end(),
                                        [&](const auto& shard) { return shard.size() == split.clients[0].size(); });
  if (a.training == "stacked" && !equal_shards)
    throw invalid_argument("--training", "stacked with --split " + a.split,
                           "one-at-a-time or auto (the stack trains equal shards; these are unequal)");
  const bool stacked = a.training == "stacked" || (a.training == "auto" && device.is_cuda() && equal_shards);
  if (eval_limit > 0) {
    split.test.resize(std::min(split.test.size(), eval_limit));
    split.validation.resize(std::min(split.validation.size(), eval_limit));
  }
  torch::manual_seed(mech.seed);
  const fl::Model net = fl::make_model(a.model, static_cast<std::int64_t>(files.train.images.rows));
  net->to(device);
  std::vector<fl::Batch> shards;
  for (const auto& shard : split.clients) shards.push_back(fl::gather(files, shard, device, normalisation));
  const fl::Batch test = fl::gather(files, split.test, device, normalisation),
                  validation = fl::gather(files, split.validation, device, normalisation);
  fl::StackedShards stacked_shards;
  std::optional<fl::ClientStack> stack;
  if (stacked) {
    stacked_shards = fl::stack_shards(shards);
    shards.clear();
    stack.emplace(a.model, static_cast<std::int64_t>(files.train.images.rows), static_cast<std::int64_t>(n), device,
                  torch::kFloat, convolution);
  }
  const std::vector<fl::Layer> layers = fl::layers_of(*net);
  // The run's accountant: its n, γ, budget and d; one round is m compositions (every parameter).
  std::optional<RunAccountant> accountant;
  Json dropout_accounting = nullptr;  // with dropout: how δ is split, and the survivors' floors
  if (accountant_gamma) {
    const std::uint64_t m = fl::parameter_count(*net);
    if (rounds > 0 && m > kMaxCompositions / rounds)
      throw invalid_argument("--rounds", a.rounds,
                             "at most " + std::to_string(kMaxCompositions / m) + " for the accountant (m·rounds <= " +
                                 std::to_string(kMaxCompositions) + ", m = " + std::to_string(m) + ")");
    AccountSetting population;
    population.n = n;
    population.gamma = *accountant_gamma;
    population.budget = mech.budget;
    population.bits = mech.bits;
    population.variant = Variant::corrected;  // the one the rounds run (round_kernel_steps.hpp)
    if (mech.dropout == 0) {
      accountant.emplace(population, m, mech.delta);
    } else {
      // Half of δ for the rounds whose survivors fall below the floors, β a round.
      const Rational half = Rational(mech.delta / 2);
      const double beta = directed::div_down(directed::pred(to_double(half)), static_cast<double>(std::max(rounds, 1ul)));
      const DropoutFloor floor = dropout_floor(n, population.gamma, mech.dropout, beta);
      std::optional<AccountSetting> alone = population, paired;
      alone->counts = floor.alone;
      if (floor.paired) {
        paired = population;
        paired->counts = *floor.paired;
      }
      accountant.emplace(alone, paired, m, half);
      dropout_accounting = Json{{"delta_mechanism", to_string(half)},
                                {"failure_budget_per_round", beta},
                                {"failure_per_round", floor.failure},
                                {"floor_ldpq_survivors", floor.ldpq},
                                {"floor_broken_pairs", floor.broken},
                                {"floor_complete_pairs", floor.complete}};
    }
  }
  bool stopped_by_target = false;

  // The output directory: checked, created (not for --resume, whose directory must exist) and
  // locked for the run, so that a second run into it stops instead of interleaving.
  if (a.resume && !std::filesystem::exists(std::filesystem::path(a.out) / "checkpoint"))
    throw invalid_argument("--resume", quote(a.out), "a directory holding a checkpoint of a run");
  const std::filesystem::path out = io::prepare_output_directory(a.out, "--out");
  const io::DirectoryLock lock(out, "--out");
  FlCheckpoint state;
  state.settings = settings_of(a);
  if (a.resume) {
    state = load_checkpoint(out, state.settings, fl::parameter_count(*net));
    restore_log(out / "rounds.jsonl", state);
  } else {
    state.global = fl::flatten(*net);
    state.best = state.global;
    state.log_checksum = kEmptyLogChecksum;
  }
  io::LineFile log(out / "rounds.jsonl", !a.resume, "--out");
  const bool tty = isatty(2);
  const double lam = to_double(lambda);
  const auto start = std::chrono::steady_clock::now();
  double seconds_sum = 0;
  const unsigned long first_round = state.next_round;
  unsigned long round = first_round;
  for (; round < rounds; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    // The privacy spent once this round is done, known before it runs (it depends on no data).
    std::optional<RunAccountant::Bounds> spent;
    if (accountant) spent = accountant->after(round + 1);
    if (target_eps && (std::isinf(spent->model) || Rational(spent->model) > *target_eps)) {
      if (tty) std::cerr << "\n";
      std::cerr << "corbin fl: stopped before round " << round << " (0-based): after it the model's certified "
                << "eps_upper at delta = " << to_string(mech.delta) << " would be "
                << (std::isinf(spent->model) ? std::string("infinite") : std::to_string(spent->model))
                << ", past --target-eps " << a.target_eps << "\n";
      stopped_by_target = true;
      break;
    }
    std::vector<std::uint64_t> seeds(n);
    for (std::size_t i = 0; i < n; ++i)
      seeds[i] = derive_seed(mech.seed, "round " + std::to_string(round) + " client " + std::to_string(i) + " training");
    // Train, obfuscate and aggregate; keep the clients' weights at the live check's coordinates.
    const bool checked = mech.mechanism->randomised();
    fl::SampledWeights sampled;
    if (checked) sampled.coordinates = fl::live_check_coordinates(layers, mech.seed, round);
    fl::RoundResult r;
    auto t1 = t0;
    if (stacked) {
      stack->load(state.global);
      stack->train_epoch(stacked_shards, seeds, local);
      synchronize(device);
      t1 = std::chrono::steady_clock::now();
      const torch::Tensor rows = stack->rows();
      r = fl::obfuscated_mean_rows(rows, state.global, layers, mech, round);
      if (checked) {
        const std::vector<std::int64_t> at(sampled.coordinates.begin(), sampled.coordinates.end());
        const torch::Tensor index = torch::tensor(at, torch::kLong).to(device);
        const torch::Tensor picked = rows.index_select(1, index).cpu().contiguous();
        sampled.values.assign(picked.data_ptr<float>(), picked.data_ptr<float>() + picked.numel());
      }
    } else {
      std::vector<std::vector<float>> params;
      for (std::size_t i = 0; i < n; ++i) {
        fl::assign(*net, state.global);
        fl::train_epoch(*net, shards[i], seeds[i], device, local);
        params.push_back(fl::flatten(*net));
      }
      t1 = std::chrono::steady_clock::now();
      r = fl::obfuscated_mean(params, state.global, layers, mech, round);
      if (checked) sampled = fl::sample_weights(params, std::move(sampled.coordinates));
    }
    const auto t2 = std::chrono::steady_clock::now();
    // The theorems checked live on a sample of coordinates (not counted as mechanism time).
    std::optional<fl::LiveCheck> check;
    if (checked && r.survivors() > 0) check = fl::live_check(sampled, state.global, layers, mech, r);
    const auto t3 = std::chrono::steady_clock::now();
    for (std::size_t t = 0; t < state.global.size(); ++t)
      state.global[t] = static_cast<float>((1 - lam) * state.global[t] + lam * r.aggregate[t]);
    fl::assign(*net, state.global);
    const fl::Evaluation te = fl::evaluate(*net, test), va = fl::evaluate(*net, validation);
    const auto t4 = std::chrono::steady_clock::now();
    // The paper's checkpoint: keep the best model on validation accuracy, and reload it after
    // `patience` rounds without a gain.
    bool reloaded = false;
    if (va.accuracy > state.best_validation) {
      state.best_validation = va.accuracy;
      state.best_round = round;
      state.best = state.global;
      state.since_best = 0;
    } else if (++state.since_best >= patience) {
      state.global = state.best;
      state.since_best = 0;
      ++state.reloads;
      reloaded = true;
    }
    Json row = Json::object();
    row["round"] = round;
    row["mechanism"] = a.mechanism;
    row["eps"] = private_mechanism ? Json(midpoint_of(mech.budget.eps_interval()).convert_to<double>()) : Json(nullptr);
    row["eps_upper_coordinate"] = spent ? bound_json(spent->coordinate) : Json(nullptr);
    row["eps_upper_model"] = spent ? bound_json(spent->model) : Json(nullptr);
    row["bits"] = mech.bits;
    row["gamma"] = to_double(mech.gamma);
    row["lambda"] = lam;
    row["dropout"] = to_double(mech.dropout);
    row["clients"] = n;
    row["test_accuracy"] = te.accuracy;
    row["test_loss"] = te.loss;
    row["validation_accuracy"] = va.accuracy;
    row["reloaded_best"] = reloaded;
    row["mse_empirical"] = r.mse_empirical;
    row["mse_expected"] = check ? Json(check->mse_expected) : Json(nullptr);
    row["mse_empirical_sampled"] = check ? Json(check->mse_empirical) : Json(nullptr);
    row["mse_z"] = check ? Json(check->z) : Json(nullptr);
    row["mse_bound"] = check && check->mse_bound ? Json(*check->mse_bound) : Json(nullptr);
    row["mse_check_coordinates"] = check ? check->coordinates : 0;
    put_traffic(row, r.traffic);
    row["z_transport"] = fl::to_string(mech.protocol.transport);
    row["entropy"] = fl::to_string(mech.protocol.entropy);
    row["survivors"] = r.survivors();
    row["alone"] = r.alone();
    row["pairs"] = r.pairs();
    row["seconds_training"] = std::chrono::duration<double>(t1 - t0).count();
    row["seconds_mechanism"] = std::chrono::duration<double>(t2 - t1).count();
    row["seconds_live_check"] = std::chrono::duration<double>(t3 - t2).count();
    row["seconds_evaluation"] = std::chrono::duration<double>(t4 - t3).count();
    row["device"] = a.device;
    row["training"] = stacked ? "stacked" : "one-at-a-time";
    row["batch"] = local.batch;
    row["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    row["threads"] = torch::get_num_threads();
    row["seed"] = mech.seed;
    const std::string line = row.dump();
    log.append(line);
    state.log_checksum = extend_log_checksum(state.log_checksum, line);
    state.next_round = round + 1;
    save_checkpoint(out, state);
    seconds_sum += row["seconds"].get<double>();
    if (tty) progress(round, rounds, te.accuracy, seconds_sum / static_cast<double>(round + 1 - first_round));
  }
  if (tty) std::cerr << "\n";
  // The summary reads the whole log, so that a resumed run reports every round.
  std::vector<Json> all;
  {
    std::ifstream f(out / "rounds.jsonl");
    for (std::string line; std::getline(f, line);) {
      try {
        all.push_back(Json::parse(line));
      } catch (const nlohmann::json::exception&) {
        throw invalid_argument("--out", quote((out / "rounds.jsonl").string()), "a log of JSON lines");
      }
    }
  }
  Json summary = Json::object();
  summary["mechanism"] = a.mechanism;
  summary["clients"] = n;
  summary["rounds_run"] = all.size();
  summary["parameters"] = state.global.size();
  summary["final_test_accuracy"] = all.empty() ? Json(nullptr) : all.back()["test_accuracy"];
  summary["best_validation_accuracy"] = state.best_validation;
  summary["best_round"] = state.best_round;
  summary["test_accuracy_at_best_round"] =
      state.best_round < all.size() ? all[state.best_round]["test_accuracy"] : Json(nullptr);
  summary["reloads"] = state.reloads;
  summary["stopped_by_target_eps"] = stopped_by_target;
  summary["target_eps"] = target_eps ? Json(a.target_eps) : Json(nullptr);
  summary["dropout_accounting"] = dropout_accounting;
  summary["split"] = split_summary;
  summary["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary["seed"] = mech.seed;
  summary["settings"] = state.settings;
  io::write_atomically(out / "summary.json", summary.dump(1) + "\n", "--out");
  if (!a.no_figures) {
    // Started with an argument vector, never through a shell: --python and --out stay values.
    if (io::run_program({a.python, data_file("notebooks/fl_figures.py").string(), out.string()}, out / "figures.log") != 0)
      std::cerr << "corbin fl: figures not drawn (matplotlib under " << a.python << "? see "
                << (out / "figures.log").string() << "); the data is in rounds.jsonl\n";
  }
  emit(std::cout, summary, false);
}

}  // namespace

void add_fl(CLI::App& app) {
  auto args = std::make_shared<FlArgs>();
  auto* cmd = app.add_subcommand("fl", "federated training with a privacy mechanism (libtorch)");
  args->budget.add(*cmd);
  cmd->add_option("--data", args->data, "MNIST-format directory (default: Debian's Fashion-MNIST)");
  cmd->add_option("--out", args->out, "output directory (default fl-run)");
  cmd->add_option("--mechanism", args->mechanism, "a registered mechanism: " + fl::Registry::global().names() + " (`corbin mechanisms`)");
  cmd->add_option("--z-transport", args->z_transport,
                  "encrypted (the leader sends Z, ChaCha20-Poly1305; default) | derived (from the X25519 key)");
  cmd->add_option("--entropy", args->entropy,
                  "seeded (clients' secrets from --seed: reproducible; default) | os (the OS's randomness)");
  cmd->add_option("--model", args->model, "cnn (the authors' MNIST model; default) | mlp (McMahan et al.'s 2NN)");
  cmd->add_option("--clients", args->clients, "clients n (default 50)");
  cmd->add_option("--rounds", args->rounds, "rounds (default 10)");
  cmd->add_option("--bits", args->bits, "shared bits d (default 5)");
  cmd->add_option("--gamma", args->gamma, "AugCorBin-FL's LDPQ fraction (default 1/2)");
  cmd->add_option("--delta", args->delta, "δ of the Gaussian baseline and of the accountant (default 1e-5)");
  cmd->add_option("--dropout", args->dropout, "per-round dropout probability (default 0)");
  cmd->add_option("--target-eps", args->target_eps,
                  "ε > 0: stop before a round would take the model's certified ε_upper(δ) past it (augcorbin, "
                  "or corbin with dropout)");
  cmd->add_option("--lambda", args->lambda, "global smoothing λ in (0, 1] (default 1)");
  cmd->add_option("--seed", args->seed, "seed (default 0)");
  cmd->add_option("--split", args->split,
                  "the clients' data: iid (equal shares of the shuffled pool, the paper's; default) | dirichlet "
                  "(each class shared out by proportions ~ Dir(β·1), β from --beta)");
  cmd->add_option("--beta", args->beta, "the Dirichlet split's concentration β > 0 (small: few labels per client)");
  cmd->add_option("--per-client", args->per_client, "cap on examples per client (0: all)");
  cmd->add_option("--patience", args->patience,
                  "rounds without a validation gain before the best model is reloaded (default 5)");
  cmd->add_option("--eval-limit", args->eval_limit, "evaluate on at most N test and N validation images (0: all)");
  cmd->add_flag("--resume", args->resume, "continue the run in --out from its checkpoint (same settings)");
  cmd->add_flag("--no-figures", args->no_figures, "skip the PNGs (accuracy.png, mse.png)");
  cmd->add_option("--python", args->python, "Python with matplotlib for the figures (default /usr/bin/python3)");
  cmd->add_option("--device", args->device, "cpu | cuda");
  cmd->add_option("--training", args->training,
                  "auto (stacked on a GPU, one-at-a-time on the CPU; default) | stacked (all clients at once) | "
                  "one-at-a-time");
  cmd->add_option("--stacked-conv", args->stacked_conv,
                  "how stacked training convolves: grouped (cuDNN's grouped convolutions; default) | gemm (columns "
                  "and batched matrix products; see fl_bench for which is faster where)");
  cmd->add_option("--batch", args->batch, "local batch size (default 64; the paper's Experiment 4 uses 32)");
  cmd->add_option("--normalisation", args->normalisation,
                  "half (pixels to [-1, 1]; default) | mnist (MNIST's mean and sd, as the authors' code)");
  cmd->add_option("--threads", args->threads, "intra-op threads (0: libtorch's default)");
  cmd->callback([args] { run_fl(*args); });
}

}  // namespace corbin::cli
