// `corbin fl` end to end on a tiny MNIST-format directory (8×8 images): 4 clients, 2 rounds,
// the rounds.jsonl contract, reproducibility from --seed, its bad-input errors, the certified
// ε per round with the --target-eps stop, and the Dirichlet split (--split, --beta).

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <iomanip>
#include <map>
#include <numeric>
#include <sstream>

#include "corbin/fl/registry.hpp"
#include "corbin/fl/split.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/run/run_accountant.hpp"
#include "idx_writer.hpp"
#include "process.hpp"

namespace {

struct Result {
  int status;
  std::string err;
};

/// `corbin fl` with `args` split at spaces into its argument vector (started without a shell);
/// its standard output is not read.
Result run(const std::string& args) {
  std::vector<std::string> argv{CORBIN_CLI_PATH, "fl"};
  std::stringstream in(args);
  for (std::string word; in >> word;) argv.push_back(word);
  const Outcome o = run_process(argv);
  return {o.status, o.err};
}

/// The same, replacing the run its --out holds (--force): for the runs below that reuse one folder.
Result fresh(const std::string& args) { return run(args + " --force"); }

std::vector<nlohmann::json> rounds(const fs::path& dir) {
  std::vector<nlohmann::json> out;
  std::ifstream f(dir / "rounds.jsonl");
  for (std::string line; std::getline(f, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

}  // namespace

TEST_CASE("corbin fl trains 4 clients for 2 rounds and logs each round", "[fl][unit]") {
  const fs::path data = tiny_dir("flrun", 60, true, 8, 8);
  const fs::path out = fs::temp_directory_path() / ("corbin_fl_out" + std::to_string(getpid()));
  const std::string common = "--data " + data.string() + " --clients 4 --rounds 2 --patience 10 --threads 1 ";
  for (const std::string mechanism : {"corbin", "augcorbin", "gaussian", "cq"}) {
    INFO(mechanism);
    REQUIRE(fresh(common + "--mechanism " + mechanism + " --exp-eps 3 --dropout 1/4 --out " + out.string()).status == 0);
    const auto log = rounds(out);
    REQUIRE(log.size() == 2);
    for (const char* key : {"round", "mechanism", "eps", "bits", "gamma", "lambda", "test_accuracy", "test_loss",
                            "mse_empirical", "mse_expected", "mse_z", "mse_bound", "bytes_per_client", "seconds",
                            "seed"})
      CHECK(log[1].contains(key));
    CHECK(log[1]["mechanism"] == mechanism);
    CHECK(log[1]["survivors"].get<int>() <= 4);
    CHECK(log[0]["test_accuracy"].get<double>() >= 0);
    CHECK(std::abs(log[1]["mse_z"].get<double>()) < 5);
    if (mechanism == "cq") {
      CHECK(log[1]["mse_bound"].is_null());
      CHECK(log[1]["eps"].is_null());
    } else {
      CHECK(log[1]["mse_bound"].get<double>() >= log[1]["mse_expected"].get<double>());
    }
    CHECK(fs::exists(out / "accuracy.png"));
    CHECK(fs::exists(out / "mse.png"));
    CHECK(fs::exists(out / "loss.png"));
    // The privacy spent is drawn where the run accounts it (AugCorBin-FL; CorBin-FL with dropout).
    CHECK(fs::exists(out / "privacy.png") == !log[1]["eps_upper_model"].is_null());
  }
  // Another model: McMahan et al.'s 2NN on the 8×8 images (64·200 + 200 + 200·200 + 200 + 200·10 + 10
  // parameters), its float32 download in every client's bytes.
  REQUIRE(fresh(common + "--exp-eps 3 --no-figures --model mlp --out " + out.string()).status == 0);
  const auto mlp = rounds(out);
  CHECK(mlp[0]["bytes"]["model_down"].get<double>() == 4 * 55210 + 8 * 6 + 4);
  // Bytes: the model down (4 per parameter) for everyone; with Z exchanged, a pair's leader
  // sends ⌈5m/8⌉ + 16 bytes more than with Z derived from the key.
  const std::string quiet = common + "--exp-eps 3 --no-figures --out " + out.string();
  REQUIRE(fresh(quiet + " --z-transport derived").status == 0);
  const auto derived = rounds(out);
  REQUIRE(fresh(quiet + " --z-transport encrypted").status == 0);
  const auto encrypted = rounds(out);
  CHECK(derived[0]["bytes"]["z"].get<double>() == 0);
  CHECK(encrypted[0]["bytes"]["z"].get<double>() > 0);
  CHECK(derived[0]["bytes"]["key_exchange"].get<double>() == 64);
  CHECK(derived[0]["test_loss"] != encrypted[0]["test_loss"]);  // another Z, another run
  // --resume continues exactly: 1 round then 1 more equals 2 rounds at once.
  const std::string two = common + "--exp-eps 3 --no-figures --seed 8 --out " + out.string();
  REQUIRE(fresh(two).status == 0);
  const auto straight = rounds(out);
  std::string one = two;
  one.replace(one.find("--rounds 2"), 10, "--rounds 1");
  REQUIRE(fresh(one).status == 0);
  REQUIRE(run(two + " --resume").status == 0);
  const auto resumed = rounds(out);
  REQUIRE(resumed.size() == 2);
  for (const char* key : {"test_loss", "validation_accuracy", "mse_empirical", "mse_expected", "bytes_per_client"})
    CHECK(resumed[1][key] == straight[1][key]);
  CHECK(run(common + "--exp-eps 5 --seed 8 --no-figures --resume --out " + out.string()).err.find("--resume") !=
        std::string::npos);
  // Reproducible from --seed: the same run twice gives the same accuracies and MSEs.
  REQUIRE(fresh(common + "--exp-eps 3 --seed 5 --out " + out.string()).status == 0);
  const auto first = rounds(out);
  REQUIRE(fresh(common + "--exp-eps 3 --seed 5 --out " + out.string()).status == 0);
  const auto second = rounds(out);
  CHECK(first[1]["test_loss"] == second[1]["test_loss"]);
  CHECK(first[1]["mse_empirical"] == second[1]["mse_empirical"]);
  // Stacked training (all clients at once; the GPU's path, here on the CPU) agrees with one
  // client at a time: the same masks, orders and Adam, only the order of sums inside the kernels
  // may differ, so the losses agree to float rounding and the live check still holds.
  const std::string both = common + "--exp-eps 3 --no-figures --seed 9 --out " + out.string();
  REQUIRE(fresh(both + " --training one-at-a-time").status == 0);
  const auto alone = rounds(out);
  for (const char* conv : {"grouped", "gemm"}) {
    INFO(conv);
    REQUIRE(fresh(both + " --training stacked --stacked-conv " + std::string(conv)).status == 0);
    const auto stacked = rounds(out);
    CHECK(stacked[0]["training"] == "stacked");
    CHECK(alone[0]["training"] == "one-at-a-time");
    CHECK(stacked[1]["test_loss"].get<double>() == Approx(alone[1]["test_loss"].get<double>()).epsilon(1e-4));
    CHECK(std::abs(stacked[1]["mse_z"].get<double>()) < 5);
  }
  REQUIRE(fresh(both + " --batch 3 --normalisation mnist").status == 0);
  CHECK(rounds(out)[0]["batch"] == 3);
  // Bad input: one line naming the option.
  CHECK(run(common + "--exp-eps 3 --training together").err.find("--training") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --stacked-conv fft").err.find("--stacked-conv") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --normalisation z").err.find("--normalisation") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --batch 0").err.find("--batch") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --device cuda --out " + out.string()).err.find("--device") != std::string::npos);
  CHECK(run("--data /nonexistent --exp-eps 3").err.find("--data") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --clients 1").err.find("--clients") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --gamma 2").err.find("--gamma") != std::string::npos);
  CHECK(run(common + "--eps 0").err.find("--eps") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --bits -1").status == 2);
  CHECK(run(common + "--exp-eps 3 --model resnet").err.find("--model") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --z-transport plain").err.find("--z-transport") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --patience 0").err.find("--patience") != std::string::npos);
  CHECK(run(common + "--exp-eps 3 --resume --out " + (out / "none").string()).err.find("--resume") !=
        std::string::npos);
  fs::remove_all(data);
  fs::remove_all(out);
}

TEST_CASE("corbin fl logs the certified ε_upper per round and stops at --target-eps", "[fl][unit]") {
  const fs::path data = tiny_dir("fleps", 60, true, 8, 8);
  const fs::path out = fs::temp_directory_path() / ("corbin_fl_eps" + std::to_string(getpid()));
  const std::string common = "--data " + data.string() + " --clients 4 --patience 10 --threads 1 --no-figures " +
                             "--exp-eps 3 --delta 1e-5 --out " + out.string() + " ";
  // γ = 1: all four clients quantize alone every round, so the run is one LDPQ-role accountant.
  const std::string lone = common + "--mechanism augcorbin --gamma 1 ";
  REQUIRE(run(lone + "--rounds 3").status == 0);
  const auto log = rounds(out);
  REQUIRE(log.size() == 3);
  nlohmann::json summary;
  std::ifstream(out / "summary.json") >> summary;
  CHECK(summary["stopped_by_target_eps"] == false);
  // summary.json's privacy: the last round's certified bounds, finite here, so no reason.
  CHECK(summary["privacy"]["accounted"] == true);
  CHECK(summary["privacy"]["delta"] == "1/100000");
  CHECK(summary["privacy"]["rounds"] == 3);
  CHECK(summary["privacy"]["eps_upper_model"] == log.back()["eps_upper_model"]);
  CHECK(summary["privacy"]["eps_upper_coordinate"] == log.back()["eps_upper_coordinate"]);
  CHECK(summary["privacy"]["infinite_because"].is_null());
  CHECK(log.back()["eps_upper_model_ldpq_role"].is_null());  // shown beside an infinite bound only
  const std::uint64_t m = summary["parameters"].get<std::uint64_t>();
  corbin::AccountSetting s;
  s.n = 4;
  s.gamma = corbin::Rational(1);
  s.budget = corbin::Budget::make(corbin::Budget::Kind::exp_eps, corbin::Rational(3));
  s.bits = 5;
  const corbin::Rational delta(1, 100000);
  const corbin::Accountant one(s), model_round = one.compose(m);
  for (std::size_t r = 0; r < log.size(); ++r) {
    INFO("round " << r);
    const double coordinate = log[r]["eps_upper_coordinate"].get<double>();
    const double model = log[r]["eps_upper_model"].get<double>();
    CHECK(coordinate == one.compose(r + 1).epsilon(delta).upper);
    CHECK(model == model_round.compose(r + 1).epsilon(delta).upper);
    CHECK(model > coordinate);
    if (r > 0) {
      CHECK(coordinate > log[r - 1]["eps_upper_coordinate"].get<double>());
      CHECK(model > log[r - 1]["eps_upper_model"].get<double>());
    }
  }
  // A target between the model's bounds after 2 and after 3 rounds: two rounds run, not three.
  const double between = (log[1]["eps_upper_model"].get<double>() + log[2]["eps_upper_model"].get<double>()) / 2;
  std::ostringstream target;
  target << std::setprecision(17) << between;
  const Result stopped = fresh(lone + "--rounds 3 --target-eps " + target.str());
  CHECK(stopped.status == 0);
  CHECK(stopped.err.find("--target-eps") != std::string::npos);
  CHECK(rounds(out).size() == 2);
  std::ifstream(out / "summary.json") >> summary;
  CHECK(summary["stopped_by_target_eps"] == true);
  CHECK(summary["rounds_run"] == 2);
  // Below the first round's bound, no round runs.
  std::ostringstream low;
  low << std::setprecision(17) << log[0]["eps_upper_model"].get<double>() / 2;
  REQUIRE(fresh(lone + "--rounds 3 --target-eps " + low.str()).status == 0);
  CHECK(rounds(out).empty());
  // γ = 1/2 at n = 4: a paired client at c − r can make the sum's extreme value, impossible at
  // c + r, with probability far above δ: no finite ε is certified.
  const Result paired = fresh(common + "--mechanism augcorbin --gamma 1/2 --rounds 1");
  REQUIRE(paired.status == 0);
  const auto infinite = rounds(out);
  CHECK(infinite[0]["eps_upper_model"] == "infinite");
  // Said why, with a client on LDPQ every round beside it (2 of the 4 clients are on LDPQ): in the
  // row, the warning, summary.json and (drawn) privacy.png's caption.
  corbin::RoundKind alone;
  alone.setting = s;
  alone.setting.gamma = corbin::Rational(1, 2);
  alone.role = corbin::TargetClient::Role::ldpq;
  alone.coordinates = m;
  const corbin::RunAccountant::Bounds ldpq = corbin::RunAccountant(alone, delta).after(1);
  CHECK(infinite[0]["eps_upper_model_ldpq_role"].get<double>() == ldpq.model);
  CHECK(infinite[0]["eps_upper_coordinate_ldpq_role"].get<double>() == ldpq.coordinate);
  CHECK(paired.err.find("client 1 as a pair's member") != std::string::npos);
  CHECK(paired.err.find("S1") != std::string::npos);
  CHECK(paired.err.find("a client on LDPQ every round: ") != std::string::npos);
  std::ifstream(out / "summary.json") >> summary;
  const nlohmann::json& privacy = summary["privacy"];
  CHECK(privacy["eps_upper_model"] == "infinite");
  CHECK(privacy["infinite_because"].get<std::string>().find("no finite ε is certified: client 1 as a pair's member") == 0);
  CHECK(privacy["ldpq_role"]["eps_upper_model"].get<double>() == ldpq.model);
  CHECK(privacy["ldpq_role"]["eps_upper_coordinate"].get<double>() == ldpq.coordinate);
  // With dropout and every client on LDPQ, each round is the mixture over who survived
  // (round.hpp): no floors, no share of δ, and the same bounds as the accountant
  // asked for the same rounds. It is no looser than the floors were (a population of one at δ/2:
  // four clients at p = 1/4 leave no floor above 0), and never past ln 3 a round.
  REQUIRE(fresh(lone + "--dropout 1/4 --rounds 2").status == 0);
  std::ifstream(out / "summary.json") >> summary;
  CHECK_FALSE(summary.contains("dropout_accounting"));
  corbin::RoundKind dropping;
  dropping.setting = s;
  dropping.dropout = corbin::Rational(1, 4);
  dropping.coordinates = m;
  corbin::RunAccountant expected(dropping, corbin::Rational(1, 100000));
  corbin::AccountSetting single = s;
  single.counts = corbin::PopulationCounts{1, 0};
  corbin::RoundKind floor;  // the floors' population, at the mechanism's half of δ
  floor.setting = single;
  floor.coordinates = m;
  corbin::RunAccountant floors(floor, corbin::Rational(1, 200000));
  const auto dropped = rounds(out);
  REQUIRE(dropped.size() == 2);
  for (std::size_t r = 0; r < dropped.size(); ++r) {
    const corbin::RunAccountant::Bounds b = expected.after(r + 1);
    CHECK(dropped[r]["eps_upper_coordinate"].get<double>() == b.coordinate);
    CHECK(dropped[r]["eps_upper_model"].get<double>() == b.model);
    const corbin::RunAccountant::Bounds f = floors.after(r + 1);
    CHECK(b.coordinate <= f.coordinate);
    CHECK(b.model <= f.model);
    CHECK(b.coordinate <= std::log(3.0) * static_cast<double>(r + 1) * (1 + 1e-12));
  }
  // CorBin-FL with dropout is accounted too: a paired client with no other noise is exposed, so
  // the bound is infinite and a target stops the run before its first round.
  REQUIRE(fresh(common + "--mechanism corbin --dropout 1/4 --rounds 1").status == 0);
  CHECK(rounds(out)[0]["eps_upper_model"] == "infinite");
  const Result exposed = fresh(common + "--mechanism corbin --dropout 1/4 --rounds 2 --target-eps 1000");
  CHECK(exposed.status == 0);
  CHECK(exposed.err.find("infinite") != std::string::npos);
  CHECK(rounds(out).empty());
  // CorBin-FL without dropout is not accounted: null fields, and --target-eps refused with the reason.
  REQUIRE(fresh(common + "--mechanism corbin --rounds 1").status == 0);
  CHECK(rounds(out)[0]["eps_upper_model"].is_null());
  CHECK(rounds(out)[0]["eps_upper_coordinate"].is_null());
  std::ifstream(out / "summary.json") >> summary;
  CHECK(summary["privacy"]["accounted"] == false);
  CHECK(summary["privacy"]["why_not"].get<std::string>().find("dropout") != std::string::npos);
  const Result unaccounted = fresh(common + "--mechanism corbin --rounds 1 --target-eps 10");
  CHECK(unaccounted.status == 2);
  CHECK(unaccounted.err.find("--target-eps") != std::string::npos);
  CHECK(unaccounted.err.find("dropout") != std::string::npos);
  // Every room with a builder of its own is accounted (Mechanism::round_accountant): LDP-FL's
  // round is the LDPQ role's above, the same numbers; the Gaussian's and the Laplace's ε grow round
  // by round; CQ's is infinite from the first round (at c ± r a client sends its input whatever
  // the shared shift), so --target-eps stops the run before round 0, saying so.
  REQUIRE(fresh(common + "--mechanism ldp --rounds 3").status == 0);
  const auto ldp = rounds(out);
  for (std::size_t r = 0; r < ldp.size(); ++r) {
    CHECK(std::abs(ldp[r]["eps_upper_model"].get<double>() - log[r]["eps_upper_model"].get<double>()) <=
          1e-9 * log[r]["eps_upper_model"].get<double>());
  }
  // With dropout a lone room's round is the mixture over who survived (lone_clients_round): PBM
  // with one trial, four clients, dropout 1/4, each round's ε the room's own accountant's; the
  // Gaussian's too (noise_sum.hpp); CQ, whose clients share the server's randomness, refuses it,
  // saying why.
  REQUIRE(fresh(common + "--mechanism pbm1 --dropout 1/4 --rounds 2").status == 0);
  const auto pbm = rounds(out);
  REQUIRE(pbm.size() == 2);
  // The room's round at the run's setting: e^ε = 3, dropout 1/4, four clients (the run's --delta
  // is also the Gaussian's calibration δ); one coordinate's, and the whole round's m coordinates,
  // which share the draw.
  const auto room_round = [](const char* name, std::uint64_t coordinates) {
    corbin::fl::CoordinateSetting s;
    s.budget = corbin::Budget::make(corbin::Budget::Kind::exp_eps, corbin::Rational(3));
    s.dropout = corbin::Rational(1, 4);
    s.delta = corbin::Rational(1, 100000);
    s.coordinates = coordinates;
    std::string why;
    return corbin::fl::Registry::global().find(name).round_accountant(s, 4, corbin::PldLimits{}, why);
  };
  {
    const std::optional<corbin::Accountant> round = room_round("pbm1", 1), whole = room_round("pbm1", m);
    REQUIRE(round);
    REQUIRE(whole);
    corbin::RunAccountant expected(*round, *whole, m, corbin::Rational(1, 100000));
    // Drawn anew per coordinate the model's ε would be smaller: the draw is shared.
    CHECK(expected.after(1).model > corbin::RunAccountant(*round, m, corbin::Rational(1, 100000)).after(1).model);
    for (std::size_t r = 0; r < pbm.size(); ++r) {
      const corbin::RunAccountant::Bounds b = expected.after(r + 1);
      CHECK(pbm[r]["eps_upper_model"].get<double>() == b.model);
      CHECK(pbm[r]["eps_upper_coordinate"].get<double>() == b.coordinate);
    }
    CHECK(pbm[1]["eps_upper_model"].get<double>() > pbm[0]["eps_upper_model"].get<double>());
  }
  REQUIRE(fresh(common + "--mechanism gaussian --dropout 1/4 --rounds 1").status == 0);
  {
    const auto noisy = rounds(out);
    REQUIRE(noisy.size() == 1);
    const std::optional<corbin::Accountant> round = room_round("gaussian", 1), whole = room_round("gaussian", m);
    REQUIRE(round);
    REQUIRE(whole);
    CHECK(noisy[0]["eps_upper_model"].get<double>() ==
          corbin::RunAccountant(*round, *whole, m, corbin::Rational(1, 100000)).after(1).model);
  }
  REQUIRE(fresh(common + "--mechanism cq --dropout 1/4 --rounds 1").status == 0);
  {
    nlohmann::json refused;
    std::ifstream(out / "summary.json") >> refused;
    CHECK(refused["privacy"]["accounted"] == false);
    CHECK(refused["privacy"]["why_not"].get<std::string>().find("without dropout") != std::string::npos);
  }
  REQUIRE(fresh(common + "--mechanism gaussian --rounds 2").status == 0);
  const auto gaussian = rounds(out);
  CHECK(gaussian[1]["eps_upper_model"].get<double>() > gaussian[0]["eps_upper_model"].get<double>());
  REQUIRE(fresh(common + "--mechanism laplace --rounds 2").status == 0);
  const auto laplace = rounds(out);
  CHECK(laplace[1]["eps_upper_model"].get<double>() > laplace[0]["eps_upper_model"].get<double>());
  const Result cq = fresh(common + "--mechanism cq --rounds 1 --target-eps 10");
  CHECK(cq.status == 0);
  CHECK(cq.err.find("stopped before round 0") != std::string::npos);
  CHECK(cq.err.find("infinite") != std::string::npos);
  nlohmann::json cq_summary;
  std::ifstream(out / "summary.json") >> cq_summary;
  CHECK(cq_summary["stopped_by_target_eps"] == true);
  for (const char* bad : {"0", "-1", "nan", "abc", "inf"}) {
    INFO(bad);
    const Result r = fresh(lone + "--rounds 1 --target-eps " + std::string(bad));
    CHECK(r.status == 2);
    CHECK(r.err.find("--target-eps") != std::string::npos);
  }
  fs::remove_all(data);
  fs::remove_all(out);
}

TEST_CASE("corbin fl --split dirichlet: per-client sizes and labels in summary.json, --beta checked", "[fl][unit]") {
  const fs::path data = tiny_dir("flsplit", 60, true, 8, 8);
  const fs::path out = fs::temp_directory_path() / ("corbin_fl_split" + std::to_string(getpid()));
  const std::string common = "--data " + data.string() + " --clients 4 --rounds 1 --patience 10 --threads 1 " +
                             "--no-figures --exp-eps 3 --seed 3 --out " + out.string() + " ";
  const auto summary_of = [&] {
    nlohmann::json s;
    std::ifstream(out / "summary.json") >> s;
    return s;
  };
  // 120 pooled images: 24 test, 96 train of which 19 validation, so the client pool holds 77.
  constexpr std::size_t kPool = 77;
  std::vector<std::uint8_t> labels;
  for (int file = 0; file < 2; ++file)
    for (std::uint8_t i = 0; i < 60; ++i) labels.push_back(i % 10);  // tiny_dir's labels
  REQUIRE(fresh(common + "--split dirichlet --beta 0.5").status == 0);
  const auto log = rounds(out);
  REQUIRE(log.size() == 1);
  CHECK(std::abs(log[0]["mse_z"].get<double>()) < 5);  // the live check holds on unequal shards
  nlohmann::json split = summary_of()["split"];
  CHECK(split["kind"] == "dirichlet");
  CHECK(split["beta"] == "1/2");
  CHECK(split["pool_examples"] == kPool);
  const auto sizes = split["client_sizes"].get<std::vector<std::size_t>>();
  REQUIRE(sizes.size() == 4);
  CHECK(std::accumulate(sizes.begin(), sizes.end(), std::size_t{0}) == kPool);  // a partition of the pool
  const corbin::fl::Split expected = corbin::fl::split_dirichlet(labels, 4, 0.5, 3);
  CHECK(split["filled"] == expected.filled);
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("client " << i);
    CHECK(sizes[i] == expected.clients[i].size());
    const auto counts = split["client_label_counts"][i].get<std::vector<std::size_t>>();
    CHECK(counts == corbin::fl::label_counts(expected.clients[i], labels, 10));
  }
  // --per-client caps each client's shard; the sizes are the ones trained on.
  REQUIRE(fresh(common + "--split dirichlet --beta 0.5 --per-client 10").status == 0);
  split = summary_of()["split"];
  for (std::size_t i = 0; i < 4; ++i) CHECK(split["client_sizes"][i] == std::min<std::size_t>(sizes[i], 10));
  // --resume refuses another split or β, and continues the same one.
  std::string two = common + "--split dirichlet --beta 0.5";
  two.replace(two.find("--rounds 1"), 10, "--rounds 2");
  const std::string iid_two = two.substr(0, two.find("--split"));
  REQUIRE(fresh(common + "--split dirichlet --beta 0.5").status == 0);
  const Result other_split = run(iid_two + " --resume");
  CHECK(other_split.status == 2);
  CHECK(other_split.err.find("--resume") != std::string::npos);
  CHECK(other_split.err.find("split") != std::string::npos);
  std::string other_beta = two;
  other_beta.replace(other_beta.find("0.5"), 3, "1/4");
  CHECK(run(other_beta + " --resume").err.find("beta") != std::string::npos);
  REQUIRE(run(two + " --resume").status == 0);
  CHECK(rounds(out).size() == 2);
  // The IID split is the default: equal shares of the pool, no β.
  REQUIRE(fresh(common).status == 0);
  split = summary_of()["split"];
  CHECK(split["kind"] == "iid");
  CHECK(split["beta"].is_null());
  CHECK(split["filled"].is_null());
  CHECK(split["client_sizes"] == nlohmann::json({19, 19, 19, 19}));
  // And an IID run resumed as a Dirichlet one.
  const Result as_dirichlet = run(two + " --resume");
  CHECK(as_dirichlet.status == 2);
  CHECK(as_dirichlet.err.find("split") != std::string::npos);
  // The stack trains equal shards only.
  CHECK(fresh(common + "--split dirichlet --beta 0.5 --training stacked").err.find("--training") != std::string::npos);
  // Bad input: exit 2, one line naming the option.
  for (const std::string bad : {"0", "-1", "nan", "inf", "abc", "1e-400", "1e400", "-0"}) {
    INFO("--beta " << bad);
    const Result r = run(common + "--split dirichlet --beta " + bad);
    CHECK(r.status == 2);
    CHECK(r.err.find("--beta") != std::string::npos);
  }
  const Result missing = run(common + "--split dirichlet");
  CHECK(missing.status == 2);
  CHECK(missing.err.find("--beta") != std::string::npos);
  for (const std::string iid : {"", "--split iid "}) {
    const Result with_iid = run(common + iid + "--beta 0.5");
    CHECK(with_iid.status == 2);
    CHECK(with_iid.err.find("--beta") != std::string::npos);
  }
  const Result unknown = run(common + "--split noniid --beta 0.5");
  CHECK(unknown.status == 2);
  CHECK(unknown.err.find("--split") != std::string::npos);
  fs::remove_all(data);
  fs::remove_all(out);
}

TEST_CASE("corbin fl off a terminal prints one plain line per round, numbered as rounds.jsonl, and warns once",
          "[fl][unit]") {
  // stderr to a file, as under nohup or CI: no bar, one line per round, rounds from 0.
  const fs::path data = tiny_dir("flwatch", 60, true, 8, 8);
  const fs::path out = fs::temp_directory_path() / ("corbin_fl_watch" + std::to_string(getpid()));
  const Result r = run("--data " + data.string() + " --clients 4 --rounds 3 --patience 10 --threads 1 " +
                       "--mechanism augcorbin --exp-eps 3 --out " + out.string());
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find('\r') == std::string::npos);
  const auto log = rounds(out);
  REQUIRE(log.size() == 3);
  const auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = r.err.find(needle); at != std::string::npos; at = r.err.find(needle, at + 1)) ++n;
    return n;
  };
  for (const auto& row : log) {
    const std::string line = "corbin fl: round " + std::to_string(row["round"].get<unsigned long>()) + " of 0-2: ";
    CHECK(count(line) == 1);
  }
  CHECK(count("corbin fl: round 3 ") == 0);
  // The warnings follow from what the log holds: infinite ε from its first infinite round on,
  // said once; divergence when the test loss is above twice its lowest and rose two rounds running.
  bool infinite = false, diverges = false;
  double lowest = INFINITY, previous = INFINITY, before = INFINITY;
  for (const auto& row : log) {
    infinite = infinite || row["eps_upper_model"].is_string();
    const double loss = row["test_loss"].get<double>();
    diverges = diverges || (row["round"] > 0 && loss > previous && previous > before && loss > 2 * lowest);
    lowest = std::min(lowest, loss);
    before = previous;
    previous = loss;
  }
  CHECK(count("warning: round") == static_cast<std::size_t>(infinite) + static_cast<std::size_t>(diverges));
  CHECK(count("certified eps_upper is infinite") == static_cast<std::size_t>(infinite));
  CHECK(count("the test loss is diverging") == static_cast<std::size_t>(diverges));
  fs::remove_all(out);
}

TEST_CASE("corbin fl never writes over a run: --out refused, --force replaces it, --resume runs what is left",
          "[fl][unit]") {
  const fs::path data = tiny_dir("flkeep", 60, true, 8, 8);
  const fs::path out = fs::temp_directory_path() / ("corbin_fl_keep" + std::to_string(getpid()));
  fs::remove_all(out);
  const std::string common = "--data " + data.string() + " --clients 4 --patience 10 --no-figures --seed 6 --out " +
                             out.string() + " ";
  // A finished run planted in --out (checkpoint, log, summary), every file's bytes kept.
  REQUIRE(run(common + "--exp-eps 3 --rounds 2 --threads 1").status == 0);
  const auto snapshot = [&] {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(out))
      if (e.is_regular_file()) {
        std::ifstream f(e.path(), std::ios::binary);
        files[e.path().string()] = std::string(std::istreambuf_iterator<char>(f), {});
      }
    return files;
  };
  const auto before = snapshot();
  REQUIRE(before.count((out / "summary.json").string()) == 1);
  // Another run into it, with other settings and without --resume: refused, one line naming
  // --out, every byte as it was (was: silently overwritten).
  for (const std::string other : {"--exp-eps 5 --rounds 1 --threads 1", "--exp-eps 3 --rounds 2 --threads 1"}) {
    INFO(other);
    const Result r = run(common + other);
    CHECK(r.status == 2);
    CHECK(r.err.find("corbin: --out is ") == 0);
    CHECK(r.err.find("--resume continues it, --force replaces it") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(snapshot() == before);
  }
  CHECK(run(common + "--exp-eps 3 --rounds 2 --threads 1 --resume --force").err.find("corbin: --force is ") == 0);
  CHECK(snapshot() == before);
  // --resume with --rounds at or below the rounds done runs nothing, says so, exit 0; the log is
  // as it was.
  const std::string log_before = before.at((out / "rounds.jsonl").string());
  for (const char* asked : {"1", "2"}) {
    INFO("--rounds " << asked);
    const Result r = run(common + "--exp-eps 3 --threads 1 --resume --rounds " + asked);
    CHECK(r.status == 0);
    CHECK(r.err.find("corbin fl: nothing to run: ") == 0);
    CHECK(r.err.find("has 2 rounds done") != std::string::npos);
    CHECK(snapshot().at((out / "rounds.jsonl").string()) == log_before);
  }
  // The thread count is a setting: libtorch sums in another order on 2 threads than on 1, so a
  // resume on 2 would not be the run it continues (about 1e-10 relative in the MSEs).
  const Result threads = run(common + "--exp-eps 3 --rounds 3 --threads 2 --resume");
  CHECK(threads.status == 2);
  CHECK(threads.err.find("threads") != std::string::npos);
  CHECK(snapshot().at((out / "rounds.jsonl").string()) == log_before);
  // --force replaces it: the earlier run's files go, the new run's settings are the summary's.
  REQUIRE(run(common + "--exp-eps 5 --rounds 1 --threads 2 --force").status == 0);
  CHECK(rounds(out).size() == 1);
  nlohmann::json summary;
  std::ifstream(out / "summary.json") >> summary;
  CHECK(summary["settings"]["exp_eps"] == "5");
  CHECK(summary["settings"]["threads"] == "2");
  // On 2 threads, 1 round then a resume to 2 is the straight 2-round run, bit for bit.
  REQUIRE(run(common + "--exp-eps 5 --rounds 2 --threads 2 --resume").status == 0);
  const auto resumed = rounds(out);
  REQUIRE(run(common + "--exp-eps 5 --rounds 2 --threads 2 --force").status == 0);
  const auto straight = rounds(out);
  REQUIRE(resumed.size() == 2);
  REQUIRE(straight.size() == 2);
  for (std::size_t r = 0; r < 2; ++r)
    for (const auto& [key, value] : straight[r].items())
      if (key.rfind("seconds", 0) != 0) {
        INFO("round " << r << " " << key);
        CHECK(resumed[r][key] == value);
      }
  fs::remove_all(data);
  fs::remove_all(out);
}
