// `corbin fl`: federated training with a privacy mechanism on an MNIST-format dataset (Alg. 3,
// Section 5). Writes DIR/rounds.jsonl (one object per round: accuracy, the live check of the
// aggregate's MSE against its exact expectation, bytes per client), DIR/summary.json,
// DIR/accuracy.png, loss.png, privacy.png (where ε is accounted) and mse.png, and a checkpoint each round (DIR/checkpoint, for --resume).
//
// The server's loop (rounds, λ smoothing, the checkpoint and patience, the accountant's hook) is
// fl/server.hpp; the clients' training fl/clients.hpp; the accounting of AugCorBin-FL, and of
// CorBin-FL or AugCorBin-FL with dropout, fl/accounting.hpp: each row carries the certified
// ε_upper(δ) after the rounds so far, per coordinate and over the model, and --target-eps stops the
// run before a round would take the model's past the target. CorBin-FL without dropout has no LDPQ client, outside
// Theorem 3's configuration, and is not accounted. This file parses, runs and prints.
//
// Built with CORBIN_WITH_TORCH. Local training runs one client at a time (the CPU default) or
// all clients at once as one stack (client_stack.hpp; the default on a GPU), and the stack's
// round mechanism runs where its weights are (device_round.hpp). To run on a GPU, build with
// CORBIN_WITH_CUDA against a CUDA libtorch (docs/fl.md, "On a GPU") and pass --device cuda; Debian's
// libtorch is CPU-only and --device cuda then stops with an error.
//
// Data: --split iid (the paper's equal shares) or --split dirichlet --beta B (non-IID labels,
// fl/split.hpp). A Dirichlet split's shards are unequal, so its clients train one at a time (the
// stack needs equal shards); the server still averages them equally, as Alg. 3.
//
// Under `mpirun -np K` (built with CORBIN_WITH_MPI) the clients are spread over the ranks and rank
// 0 is the server (fl/mpi_clients.hpp): every rank parses the same options and builds its own
// block's clients; rank 0 alone owns the output directory, the checkpoint and the log, and
// its rows gain the bytes each rank moved. The results are the single process's, bit for bit.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
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
#include "corbin/fl/accounting.hpp"
#include "corbin/fl/server.hpp"
#include "corbin/fl/split.hpp"
#include "corbin/io/files.hpp"
#include "corbin/io/spawn.hpp"
#include "corbin/privacy/run/infinite_eps.hpp"
#include "corbin/number/error.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run_app.hpp"
#include "corbin/fl/mpi_clients.hpp"  // its Layout without MPI too; the rest under CORBIN_WITH_MPI

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
  bool resume = false, force = false, no_figures = false;
};

/// How the rounds are computed where that changes their floats: libtorch's intra-op threads (the
/// effective count: a reduction split over 2 threads adds in another order than over 1, and the
/// trained weights differ in their last bits, ~1e-10 relative in the MSEs after a round), the
/// device, and one client at a time or the stack (its convolutions too).
struct Computation {
  int threads = 1;
  std::string device;
  bool stacked = false;
  std::string stacked_conv;
};

/// The options that determine a run's rounds, in canonical form (numbers as exact "p/q", so
/// that `--exp-eps 3.0` resumes a run started with `3`): a resumed run must repeat them
/// (--rounds may grow). The data are named by their folder, resolved (`./data/`, `data` and a link
/// to it are one folder), and by their contents' SHA-256, so data rewritten in place is refused.
/// The computation is among them, so that a resumed run is the uninterrupted one bit for bit
/// (making the training's floats independent of the thread count would cost libtorch's parallel
/// reductions; refusing a change costs nothing).
fl::RunSettings settings_of(const FlArgs& a, const fl::MnistFiles& files, const Computation& computation) {
  fl::RunSettings s;
  std::filesystem::path folder = std::filesystem::weakly_canonical(std::filesystem::absolute(a.data));
  if (!folder.has_filename()) folder = folder.parent_path();  // "data/" resolves to ".../data/"
  s.emplace_back("data", folder.string());
  s.emplace_back("data_sha256", fl::content_sha256(files));
  s.emplace_back("mechanism", a.mechanism);
  s.emplace_back("model", a.model);
  const auto exact = [](const std::string& text, const char* option) {
    return text.empty() ? std::string() : to_string(parse_rational(text, option));
  };
  s.emplace_back("alpha", exact(a.budget.alpha, "--alpha"));
  s.emplace_back("exp_eps", exact(a.budget.exp_eps, "--exp-eps"));
  s.emplace_back("eps", exact(a.budget.eps, "--eps"));
  for (const auto& [key, value, option] :
       {std::tuple{"clients", a.clients, "--clients"}, {"bits", a.bits, "--bits"}, {"gamma", a.gamma, "--gamma"},
        {"delta", a.delta, "--delta"}, {"dropout", a.dropout, "--dropout"}, {"lambda", a.lambda, "--lambda"},
        {"seed", a.seed, "--seed"}, {"per_client", a.per_client, "--per-client"},
        {"patience", a.patience, "--patience"}, {"eval_limit", a.eval_limit, "--eval-limit"},
        {"batch", a.batch, "--batch"}})
    s.emplace_back(key, exact(value, option));
  s.emplace_back("z_transport", a.z_transport);
  s.emplace_back("entropy", a.entropy);
  s.emplace_back("normalisation", a.normalisation);
  // Only a non-IID split is recorded, so that runs (and checkpoints) from before --split existed
  // keep their settings; load_checkpoint compares keys both ways, so neither side can hide one.
  if (a.split != "iid") {
    s.emplace_back("split", a.split);
    s.emplace_back("beta", exact(a.beta, "--beta"));
  }
  s.emplace_back("threads", std::to_string(computation.threads));
  s.emplace_back("device", computation.device);
  s.emplace_back("training", computation.stacked ? "stacked" : "one-at-a-time");
  if (computation.stacked) s.emplace_back("stacked_conv", computation.stacked_conv);
  return s;
}

/// The files of a run in `dir` that mark it as one, as a run writes them (its log and summary as
/// regular files, its checkpoints as directories and the link to the last), those present; empty
/// where `dir` holds no run (absent, empty, or other files only).
std::vector<std::string> run_files(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> found;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return found;
  for (const char* name : {"rounds.jsonl", "summary.json"})
    if (fs::is_regular_file(fs::symlink_status(dir / name, ec))) found.emplace_back(name);
  // DIR/checkpoint (a link to checkpoint.<round>), and any checkpoint.* a kill left behind.
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::file_status status = entry.symlink_status(ec);
    if (entry.path().filename().string().rfind("checkpoint", 0) == 0 &&
        (fs::is_directory(status) || fs::is_symlink(status))) {
      found.emplace_back("checkpoint");
      break;
    }
  }
  return found;
}

/// A run is never written over by accident: into a directory that holds one, a run starts only
/// with --resume (which continues it) or --force (which replaces it). Checked before the data is
/// read or anything is written, so a refused run leaves the directory as it was.
void check_out_is_free(const FlArgs& a) {
  if (a.resume && a.force)
    throw invalid_argument("--force", "given with --resume", "absent there (--resume continues the run in --out, --force replaces it)");
  if (a.resume || a.force) return;
  const std::vector<std::string> found = run_files(a.out);
  if (found.empty()) return;
  std::string files;
  for (const std::string& f : found) files += (files.empty() ? "" : ", ") + f;
  throw invalid_argument("--out", quote(a.out) + " (it holds a run: " + files + ")",
                         "a directory without a run: --resume continues it, --force replaces it, or name another");
}

/// --force: the earlier run's files go before the new run writes any, so that a kill early in the
/// new run cannot leave the old checkpoint or summary beside the new log.
void remove_earlier_run(const std::filesystem::path& out) {
  std::vector<std::filesystem::path> earlier;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("checkpoint", 0) == 0 || name == "rounds.jsonl" || name == "summary.json" || name == "figures.log" ||
        name == "accuracy.png" || name == "loss.png" || name == "privacy.png" || name == "mse.png")
      earlier.push_back(entry.path());
  }
  for (const auto& path : earlier) io::remove_tree(path, "--out");
  io::sync_directory(out, "--out");
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
void restore_log(const std::filesystem::path& path, const fl::Checkpoint& state) {
  std::vector<std::string> lines;
  {
    std::ifstream f(path);
    for (std::string line; lines.size() < state.server.next_round && std::getline(f, line);) lines.push_back(line);
  }
  std::uint64_t checksum = fl::kEmptyLogChecksum;
  std::string kept;
  for (const auto& line : lines) {
    checksum = fl::extend_log_checksum(checksum, line);
    kept += line + "\n";
  }
  if (lines.size() < state.server.next_round || checksum != state.log_checksum)
    throw invalid_argument("--resume", quote(path.string()),
                           "the " + std::to_string(state.server.next_round) + " rounds its checkpoint recorded, unchanged");
  io::write_atomically(path, kept, "--out");
}

// Rounds are numbered from 0 everywhere a person or a program reads them: rounds.jsonl's
// "round", summary.json's best_round, the bar, the plain lines, the figures and the messages.

/// On a terminal: one line redrawn in place.
void progress(unsigned long round, unsigned long rounds, double accuracy, double seconds_per_round) {
  constexpr int kWidth = 24;
  const int filled = static_cast<int>(kWidth * (round + 1) / std::max(1ul, rounds));
  const long eta = static_cast<long>(seconds_per_round * static_cast<double>(rounds - round - 1));
  std::cerr << "\rcorbin fl [" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] round "
            << round << " of 0-" << rounds - 1 << "  test accuracy " << std::fixed << std::setprecision(4) << accuracy
            << "  " << std::setprecision(1) << seconds_per_round << " s/round  ETA " << eta / 60 << "m"
            << std::setw(2) << std::setfill('0') << eta % 60 << "s " << std::setfill(' ') << std::flush;
}

/// x to 4 significant digits, for a person reading a line.
std::string four_digits(double x) {
  std::ostringstream s;
  s << std::setprecision(4) << x;
  return s.str();
}

/// Elsewhere (a log file, CI, nohup, a notebook cell): one plain line per round.
void round_line(unsigned long rounds, const fl::RoundReport& report, const Json& row) {
  std::ostringstream s;
  s << std::fixed << "corbin fl: round " << report.round << " of 0-" << rounds - 1 << ": test accuracy "
    << std::setprecision(4) << report.test.accuracy << ", test loss " << report.test.loss << ", validation accuracy "
    << report.validation.accuracy;
  const auto shown = [](const Json& eps) { return eps.is_string() ? eps.get<std::string>() : four_digits(eps.get<double>()); };
  const Json& eps = row["eps_upper_model"];
  if (!eps.is_null()) s << ", eps_upper (model) " << shown(eps);
  const Json& ldpq = row["eps_upper_model_ldpq_role"];
  if (!ldpq.is_null()) s << " (a client on LDPQ every round: " << shown(ldpq) << ")";
  s << ", " << std::setprecision(2) << report.seconds << " s";
  std::cerr << s.str() << "\n" << std::flush;
}

/// Warnings a person watching would want at once, each said once: the test loss diverging (above
/// twice its lowest and risen two rounds running, or not a number), and the certified ε becoming
/// infinite.
class RoundWarnings {
 public:
  /// `infinite_because`: why the model's bound is infinite (set where it is), said with the warning.
  void see(unsigned long round, double loss, const Json& eps_upper_model, const std::string& infinite_because,
           bool tty) {
    if (!std::isfinite(loss) || (round > 0 && loss > previous_ && previous_ > before_ && loss > 2 * lowest_)) {
      if (!diverged_) say(tty, "round " + std::to_string(round) + ": the test loss is diverging (" + four_digits(loss) +
                                   ", lowest so far " + four_digits(lowest_) + "); a smaller --lambda damps the update");
      diverged_ = true;
    }
    if (eps_upper_model.is_string() && !infinite_) {
      say(tty, "round " + std::to_string(round) + ": the model's certified eps_upper is infinite from here on (" +
                   infinite_because + "; rounds.jsonl says \"infinite\", and eps_upper_model_ldpq_role gives a "
                   "client on LDPQ every round)");
      infinite_ = true;
    }
    if (std::isfinite(loss)) lowest_ = std::min(lowest_, loss);
    before_ = previous_;
    previous_ = loss;
  }

 private:
  static void say(bool tty, const std::string& what) {
    std::cerr << (tty ? "\n" : "") << "corbin fl: warning: " << what << "\n" << std::flush;
  }
  double lowest_ = std::numeric_limits<double>::infinity();
  double previous_ = std::numeric_limits<double>::infinity(), before_ = std::numeric_limits<double>::infinity();
  bool diverged_ = false, infinite_ = false;
};

/// A certified bound as JSON: the double itself (exact, and printed so that it reads back to the
/// same double), or "infinite" where no finite ε is certified.
Json bound_json(double x) { return std::isinf(x) ? Json("infinite") : Json(x); }

/// Why the model's certified ε is infinite after a round (privacy/run/infinite_eps.hpp's words),
/// from the LDPQ role's bound there (none: the population has no LDPQ position). `corbin fl`'s
/// accountant gives upper bounds only, so the reason says what is not certified.
std::string infinite_because(const Json& ldpq_model) {
  const std::optional<bool> ldpq_finite = ldpq_model.is_null() ? std::nullopt : std::optional<bool>(!ldpq_model.is_string());
  return infinite_eps_reason(Neighbour::replace_one, false, ldpq_finite, false);
}

/// summary.json's "privacy": the certified ε_upper(δ) after the last round logged (0 before any:
/// nothing released), per coordinate and over the model, with the reason where it is infinite and
/// a client on LDPQ every round beside it; for a run not accounted, why not.
Json privacy_json(const fl::RunAccounting& accounting, const fl::MechanismConfig& mech, const std::vector<Json>& rows) {
  if (!accounting.accountant)
    return Json{{"accounted", false}, {"why_not", accounting.why_not.empty() ? "no privacy to account" : accounting.why_not}};
  Json out = {{"accounted", true}, {"delta", to_string(mech.delta)}, {"rounds", rows.size()}};
  const Json none = nullptr;
  const Json& last = rows.empty() ? none : rows.back();
  const auto value = [&](const char* key) { return rows.empty() ? Json(0.0) : last.value(key, Json(nullptr)); };
  out["eps_upper_coordinate"] = value("eps_upper_coordinate");
  out["eps_upper_model"] = value("eps_upper_model");
  const bool infinite = out["eps_upper_model"].is_string();
  out["infinite_because"] = infinite ? Json(infinite_because(last.value("eps_upper_model_ldpq_role", Json(nullptr))))
                                     : Json(nullptr);
  out["ldpq_role"] = infinite ? Json{{"eps_upper_coordinate", last.value("eps_upper_coordinate_ldpq_role", Json(nullptr))},
                                     {"eps_upper_model", last.value("eps_upper_model_ldpq_role", Json(nullptr))}}
                              : Json(nullptr);
  return out;
}

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

/// The MPI world of a run (one rank without MPI), and whether every rank has finished setting up.
struct Distributed {
  int ranks = 1, rank = 0;
  bool agreed = false;
};

void run_fl(const FlArgs& a, Distributed& d) {
  fl::MechanismConfig mech;
  mech.mechanism = &fl::parse_mechanism(a.mechanism);
  if (!mech.mechanism->federated())
    throw invalid_argument("--mechanism", a.mechanism, "one with an averaging round (" + mech.mechanism->summary() + ")");
  const bool private_mechanism = mech.mechanism->takes_budget();
  // Every budget option given is validated, even where the mechanism does not use it; a mechanism
  // without a budget (vanilla) runs with none given.
  if (private_mechanism || a.budget.given()) mech.budget = a.budget.budget();
  else a.budget.validate_precision();
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
  if (static_cast<std::size_t>(d.ranks) > n)
    throw invalid_argument("the ranks (mpirun -np)", std::to_string(d.ranks),
                           "at most --clients (" + std::to_string(n) + "): each rank holds a client at least");
  // This rank's clients: [first, first + held) (all of them without MPI).
  const fl::mpi::Layout layout{d.ranks, d.rank, n};
  const std::size_t first = layout.first(layout.rank), held = layout.held();
  const unsigned long rounds = parse_count(a.rounds, "--rounds", 1000000);
  const Rational lambda = parse_rational(a.lambda, "--lambda");
  if (lambda <= 0 || lambda > 1) throw invalid_argument("--lambda", a.lambda, "in (0, 1]");
  const std::size_t per_client = parse_count(a.per_client, "--per-client", ~0ul);
  const std::size_t eval_limit = parse_count(a.eval_limit, "--eval-limit", ~0ul);
  const unsigned long patience = parse_count(a.patience, "--patience", 1000000);
  if (patience == 0) throw invalid_argument("--patience", "0", "at least 1");
  std::optional<Rational> target_eps;
  if (!a.target_eps.empty()) {
    target_eps = parse_rational(a.target_eps, "--target-eps");
    if (*target_eps <= 0) throw invalid_argument("--target-eps", a.target_eps, "> 0");
    // Checked once the run's accountant is built (fl::account_run), which says why there is none.
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
  try {
    (void)fl::smallest_side(a.model);  // names the model, before any data is read
  } catch (const invalid_argument&) {
    throw invalid_argument("--model", quote(a.model), "cnn or mlp");
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

  if (d.rank == 0) check_out_is_free(a);  // rank 0 alone owns --out; checked before the data are read
  const fl::MnistFiles files = fl::load_mnist_dir(a.data);
  if (files.train.images.rows != files.train.images.cols)
    throw invalid_argument("--data",
                           quote(a.data) + " (images " + std::to_string(files.train.images.rows) + " × " +
                               std::to_string(files.train.images.cols) + ")",
                           "square images (the models take side × side)");
  if (static_cast<std::int64_t>(files.train.images.rows) < fl::smallest_side(a.model))
    throw invalid_argument("--data",
                           quote(a.data) + " (images " + std::to_string(files.train.images.rows) + " × " +
                               std::to_string(files.train.images.cols) + ")",
                           "images at least " + std::to_string(fl::smallest_side(a.model)) + " × " +
                               std::to_string(fl::smallest_side(a.model)) + " for --model " + a.model +
                               (a.model == "cnn" ? " (two 2 × 2 poolings), or --model mlp" : ""));
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
  {
    // The budget fits this model: every layer's outputs (LDPQ's c ± rα) are floats at the start,
    // checked before --out is created (ε = 10^-300 makes α about 2·10^300).
    std::vector<float> start = fl::flatten(*net);
    for (const fl::Layer& layer : fl::layers_of(*net))
      (void)mech.mechanism->check(mech, fl::layer_geometry(start.data() + layer.offset, layer.size));
  }
  std::vector<fl::Batch> shards;
  for (std::size_t i = first; i < first + held; ++i) shards.push_back(fl::gather(files, split.clients[i], device, normalisation));
  std::unique_ptr<fl::Clients> clients;
  if (stacked) {
    clients = fl::clients_stacked(a.model, static_cast<std::int64_t>(files.train.images.rows),
                                  fl::stack_shards(shards), static_cast<std::int64_t>(held), device, convolution, local);
    shards.clear();  // the stack holds its own copy (on the device)
  } else {
    clients = fl::clients_one_at_a_time(net, std::move(shards), device, local);
  }
  const std::uint64_t parameters = fl::parameter_count(*net);
#ifdef CORBIN_WITH_MPI
  if (d.rank != 0) {
    // A worker: its block's clients, at rank 0's command, until the run ends.
    fl::mpi::agree(layout, nullptr, describe_exception);
    d.agreed = true;
    const int status = fl::mpi::serve(*clients, layout, fl::layers_of(*net), mech, parameters, describe_exception);
    if (status != 0) throw ExitStatus{status};
    return;
  }
#endif
  fl::Server server(mech, net, fl::gather(files, split.test, device, normalisation),
                    fl::gather(files, split.validation, device, normalisation), {to_double(lambda), patience});
  fl::RunAccounting accounting = fl::account_run(mech, n, parameters, rounds);
  if (target_eps && !accounting.accountant)
    throw invalid_argument("--target-eps", a.target_eps + " with --mechanism " + a.mechanism, accounting.why_not);
  if (accounting.accountant)
    server.account([&](std::uint64_t done) { return accounting.accountant->after(done); }, target_eps);

  // The output directory: checked, created (not for --resume, whose directory must exist) and
  // locked for the run, so that a second run into it stops instead of interleaving.
  if (a.resume && !std::filesystem::exists(std::filesystem::path(a.out) / "checkpoint"))
    throw invalid_argument("--resume", quote(a.out), "a directory holding a checkpoint of a run");
  const std::filesystem::path out = io::prepare_output_directory(a.out, "--out");
  const io::DirectoryLock lock(out, "--out");
  if (a.force) remove_earlier_run(out);
  fl::Checkpoint state;
  state.settings = settings_of(a, files, {torch::get_num_threads(), a.device, stacked, a.stacked_conv});
  if (a.resume) {
    state = fl::load_checkpoint(out, state.settings, parameters);
    restore_log(out / "rounds.jsonl", state);
    // Exit 0: the run asked for is there (a loop that resumes until done ends), and nothing is
    // undone or recomputed; only the files derived from the log are written again.
    if (state.server.next_round >= rounds)
      std::cerr << "corbin fl: nothing to run: " << quote(out.string()) << " has " << state.server.next_round
                << " rounds done"
                << (state.server.next_round > rounds ? ", past --rounds " + std::to_string(rounds) + " (rounds are never undone)"
                                                     : ", all that --rounds asks")
                << "; summary.json" << (a.no_figures ? "" : " and the figures") << " written again from its log\n";
  } else {
    state.server.global = fl::flatten(*net);
    state.server.best = state.server.global;
  }
  io::LineFile log(out / "rounds.jsonl", !a.resume, "--out");
#ifdef CORBIN_WITH_MPI
  fl::mpi::MpiClients* spread = nullptr;  // rank 0's view of the clients on every rank
  if (fl::mpi::active()) {
    fl::mpi::agree(layout, nullptr, describe_exception);
    d.agreed = true;
    auto over_ranks = std::make_unique<fl::mpi::MpiClients>(std::move(clients), layout, describe_exception);
    spread = over_ranks.get();
    clients = std::move(over_ranks);
  }
#endif
  const bool tty = isatty(2);
  RoundWarnings warnings;
  std::optional<RunAccountant> ldpq_role;
  bool ldpq_role_built = false;
  const auto start = std::chrono::steady_clock::now();
  double seconds_sum = 0;
  const unsigned long first_round = state.server.next_round;
  const auto sink = [&](const fl::RoundReport& report) {
    const fl::RoundResult& r = report.result;
    const std::optional<fl::LiveCheck>& check = report.check;
    Json row = Json::object();
    row["round"] = report.round;
    row["mechanism"] = a.mechanism;
    row["eps"] = private_mechanism ? Json(midpoint_of(mech.budget.eps_interval()).convert_to<double>()) : Json(nullptr);
    row["eps_upper_coordinate"] = report.spent ? bound_json(report.spent->coordinate) : Json(nullptr);
    row["eps_upper_model"] = report.spent ? bound_json(report.spent->model) : Json(nullptr);
    // Beside an infinite bound, a client on LDPQ in every round (built the first time it is needed).
    Json ldpq_coordinate = nullptr, ldpq_model = nullptr;
    if (report.spent && std::isinf(report.spent->model)) {
      if (!ldpq_role_built) {
        ldpq_role = fl::ldpq_role_accountant(accounting, mech.delta);
        ldpq_role_built = true;
      }
      if (ldpq_role) {
        const RunAccountant::Bounds b = ldpq_role->after(report.round + 1);
        ldpq_coordinate = bound_json(b.coordinate);
        ldpq_model = bound_json(b.model);
      }
    }
    row["eps_upper_coordinate_ldpq_role"] = ldpq_coordinate;
    row["eps_upper_model_ldpq_role"] = ldpq_model;
    row["bits"] = mech.bits;
    row["gamma"] = to_double(mech.gamma);
    row["lambda"] = to_double(lambda);
    row["dropout"] = to_double(mech.dropout);
    row["clients"] = n;
    row["test_accuracy"] = report.test.accuracy;
    row["test_loss"] = report.test.loss;
    row["validation_accuracy"] = report.validation.accuracy;
    row["reloaded_best"] = report.reloaded;
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
    row["seconds_training"] = report.seconds_training;
    row["seconds_mechanism"] = report.seconds_mechanism;
    row["seconds_live_check"] = report.seconds_live_check;
    row["seconds_evaluation"] = report.seconds_evaluation;
    row["device"] = a.device;
    row["training"] = stacked ? "stacked" : "one-at-a-time";
    row["batch"] = local.batch;
    row["seconds"] = report.seconds;
    row["threads"] = torch::get_num_threads();
    row["seed"] = mech.seed;
#ifdef CORBIN_WITH_MPI
    if (spread != nullptr) {
      row["ranks"] = d.ranks;
      row["mpi_bytes_sent"] = spread->last_round_bytes().sent;
      row["mpi_bytes_received"] = spread->last_round_bytes().received;
    }
#endif
    const std::string line = row.dump();
    log.append(line);
    seconds_sum += report.seconds;
    if (tty)
      progress(report.round, rounds, report.test.accuracy, seconds_sum / static_cast<double>(report.round + 1 - first_round));
    else
      round_line(rounds, report, row);
    warnings.see(report.round, report.test.loss, row["eps_upper_model"],
                 row["eps_upper_model"].is_string() ? infinite_because(ldpq_model) : std::string(), tty);
    return line;
  };
  fl::RunEnd end;
#ifdef CORBIN_WITH_MPI
  try {
    end = server.run(*clients, state, rounds, out, sink);
  } catch (const fl::mpi::RankFailure&) {
    throw;  // every rank knows
  } catch (...) {
    // Rank 0's own failure (evaluation, the checkpoint, the log): the other ranks are released.
    if (spread != nullptr) spread->finish(describe_exception(std::current_exception()).first);
    throw;
  }
  if (spread != nullptr) spread->finish(0);
#else
  end = server.run(*clients, state, rounds, out, sink);
#endif
  if (end.stopped_by_target) {
    if (tty) std::cerr << "\n";
    std::cerr << "corbin fl: stopped before round " << end.round << ": after it the model's certified "
              << "eps_upper at delta = " << to_string(mech.delta) << " would be "
              << (std::isinf(end.spent.model) ? std::string("infinite") : std::to_string(end.spent.model))
              << ", past --target-eps " << a.target_eps << "\n";
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
  summary["parameters"] = state.server.global.size();
  summary["final_test_accuracy"] = all.empty() ? Json(nullptr) : all.back()["test_accuracy"];
  summary["best_validation_accuracy"] = state.server.best_validation;
  summary["best_round"] = state.server.best_round;
  summary["test_accuracy_at_best_round"] =
      state.server.best_round < all.size() ? all[state.server.best_round]["test_accuracy"] : Json(nullptr);
  summary["reloads"] = state.server.reloads;
  summary["stopped_by_target_eps"] = end.stopped_by_target;
  summary["target_eps"] = target_eps ? Json(a.target_eps) : Json(nullptr);
  summary["privacy"] = privacy_json(accounting, mech, all);
  summary["split"] = split_summary;
  summary["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary["seed"] = mech.seed;
  Json settings = Json::object();
  for (const auto& [key, value] : state.settings) settings[key] = value;
  summary["settings"] = settings;
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

/// Runs on every rank; under MPI one line for the whole run's failure, printed by rank 0.
void run_fl_on_ranks(const FlArgs& a) {
  Distributed d;
#ifdef CORBIN_WITH_MPI
  if (!fl::mpi::active()) return run_fl(a, d);
  const fl::mpi::Layout world = fl::mpi::world();
  d.ranks = world.ranks;
  d.rank = world.rank;
  const auto report = [&](const fl::mpi::RankFailure& f) {
    if (d.rank == 0) std::cerr << "corbin: " << f.what() << "\n";
    throw ExitStatus{f.status};
  };
  try {
    run_fl(a, d);
  } catch (const fl::mpi::RankFailure& f) {
    report(f);
  } catch (const ExitStatus&) {
    throw;
  } catch (...) {
    if (d.agreed) throw;  // rank 0's own, after the setup: printed as it is
    // Before every rank was set up: the setup's agreement, joined as failed.
    try {
      fl::mpi::agree(world, std::current_exception(), describe_exception);
    } catch (const fl::mpi::RankFailure& f) {
      report(f);
    }
  }
#else
  run_fl(a, d);
#endif
}

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
  cmd->add_flag("--force", args->force,
                "replace the run in --out (without it, a directory holding a run is refused: a run is never "
                "overwritten by accident)");
  cmd->add_flag("--no-figures", args->no_figures, "skip the PNGs (accuracy.png, loss.png, privacy.png, mse.png)");
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
  cmd->callback([args] { run_fl_on_ranks(*args); });
}

}  // namespace corbin::cli
