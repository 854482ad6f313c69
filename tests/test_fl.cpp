// The federated run's parts that do not need libtorch: IDX files, the data split and the
// round mechanism (roles, dropout, and the empirical MSE against the exact expectation).

#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "corbin/fl/idx.hpp"
#include "corbin/fl/live_check.hpp"
#include "idx_writer.hpp"
#include "corbin/fl/mechanism.hpp"
#include "corbin/fl/protocol.hpp"
#include "corbin/quantizer/sampler.hpp"
#include "corbin/fl/split.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/cq.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "parameter_of.hpp"

using namespace corbin;
using namespace corbin::fl;

TEST_CASE("IDX files load plain or gzipped, and bad files are refused by name", "[fl][unit]") {
  for (bool gz : {false, true}) {
    const fs::path dir = tiny_dir(gz ? "gz" : "plain", 12, gz);
    const MnistFiles files = load_mnist_dir(dir.string());
    CHECK(files.train.images.count == 12);
    CHECK(files.train.images.rows == 2);
    CHECK(files.train.images.cols == 3);
    CHECK(files.test.labels[11] == 1);
    CHECK(files.train.images.pixels[6 * 5 + 2] == 32);
    fs::remove_all(dir);
  }
  CHECK(parameter_of([] { load_mnist_dir("/nonexistent/corbin"); }) == "data");
  const fs::path dir = tiny_dir("bad", 5, false);
  // Truncated image file.
  std::string bytes = idx_bytes(0x803, {5, 2, 3}, std::vector<std::uint8_t>(29, 1));
  write_plain(dir / "train-images-idx3-ubyte", bytes);
  CHECK(parameter_of([&] { load_mnist_dir(dir.string()); }) == "data");
  // Wrong magic.
  write_plain(dir / "train-images-idx3-ubyte", idx_bytes(0x801, {5, 2, 3}, std::vector<std::uint8_t>(30, 1)));
  CHECK(parameter_of([&] { load_mnist_dir(dir.string()); }) == "data");
  fs::remove_all(dir);
}

TEST_CASE("the split is reproducible, disjoint and sized as the paper's", "[fl][unit]") {
  const Split s = split_iid(1000, 4, 7);
  CHECK(s.test.size() == 200);
  CHECK(s.validation.size() == 160);
  REQUIRE(s.clients.size() == 4);
  std::set<std::size_t> seen(s.test.begin(), s.test.end());
  seen.insert(s.validation.begin(), s.validation.end());
  for (const auto& c : s.clients) {
    CHECK(c.size() == 160);
    seen.insert(c.begin(), c.end());
  }
  CHECK(seen.size() == 1000);
  CHECK(split_iid(1000, 4, 7).clients[2] == s.clients[2]);
  CHECK(split_iid(1000, 4, 8).clients[2] != s.clients[2]);
  CHECK(parameter_of([] { split_iid(1000, 1, 0); }) == "clients");
  // Permutations of 3 are uniform: chi-square over 6000 keys, 5 degrees of freedom.
  std::map<std::vector<std::size_t>, int> counts;
  for (std::uint64_t k = 0; k < 6000; ++k) ++counts[permutation(3, derive_key(k, "perm test"))];
  REQUIRE(counts.size() == 6);
  double chi2 = 0;
  for (const auto& [p, c] : counts) chi2 += (c - 1000.0) * (c - 1000.0) / 1000.0;
  CHECK(chi2 < 20.5);  // P(chi2_5 > 20.5) < 0.001
}

TEST_CASE("round roles: pairs, odd client out, AugCorBin-FL and dropout fallback", "[fl][unit]") {
  const std::vector<float> global{-1.0f, 1.0f, 0.0f, 0.5f};
  const std::vector<Layer> layers{{0, 4}};
  MechanismConfig c;
  c.seed = 3;
  const auto run = [&](std::size_t n) {
    return obfuscated_mean(std::vector<std::vector<float>>(n, global), global, layers, c, 0);
  };
  c.mechanism = &Registry::global().find("corbin");
  CHECK(run(6).pairs() == 3);
  CHECK(run(7).pairs() == 3);
  CHECK(run(7).alone() == 1);
  c.mechanism = &Registry::global().find("augcorbin");  // γ = 1/2: 3 of 6 alone, then one pair and an odd one out
  CHECK(run(6).alone() == 4);
  CHECK(run(6).pairs() == 1);
  c.mechanism = &Registry::global().find("corbin");
  c.dropout = Rational(1, 2);
  for (std::uint64_t round = 0; round < 20; ++round) {
    const auto r = obfuscated_mean(std::vector<std::vector<float>>(10, global), global, layers, c, round);
    CHECK(r.survivors() == r.alone() + 2 * r.pairs());
    CHECK(r.survivors() <= 10);
  }
  c.gamma = Rational(3, 2);
  CHECK(parameter_of([&] { run(4); }) == "gamma");
  CHECK(parameter_of([] { parse_mechanism("cauchy"); }) == "mechanism");
}

TEST_CASE("empirical MSE of a round agrees with the exact expectation (fixed seed)", "[fl][unit]") {
  // 4 clients, each with one constant weight over a layer of 2^16 coordinates, so that every
  // coordinate is an independent draw of the same round; c = 0, r = 1 from the global model.
  const std::size_t size = std::size_t{1} << 16;
  std::vector<float> global(size, 0.0f);
  global[0] = -1.0f;
  global[1] = 1.0f;
  const std::vector<float> values{0.5f, -0.25f, 0.75f, 0.0f};
  std::vector<std::vector<float>> clients;
  for (float v : values) {
    std::vector<float> w(size, v);
    w[0] = -1.0f;  // keep the two coordinates that fix c and r identical for everyone
    w[1] = 1.0f;
    clients.push_back(w);
  }
  for (const char* kind : {"ldp", "corbin"}) {
    MechanismConfig c;
    c.mechanism = &Registry::global().find(kind);
    c.seed = 11;
    const RoundResult r = obfuscated_mean(clients, global, {{0, size}}, c, 0);
    REQUIRE(r.survivors() == 4);
    // Exact expectation per coordinate (coordinates 2..): LDPQ variances, or the pairs' laws.
    const Rational alpha(2), zero(0), one(1);
    Rational expected(0);
    if (std::string(kind) == "ldp") {
      for (float v : values) expected += ldpq_mse(alpha, zero, one, Rational(to_rational(Real(v))));
    } else {
      // The pairing is the server's random order; recompute it from the same key.
      const auto order = permutation(4, derive_key(11, "round 0 pairing"));
      for (std::size_t k = 0; k < 4; k += 2) {
        const Rational a = to_rational(Real(values[order[k]])), b = to_rational(Real(values[order[k + 1]]));
        const auto law = corbinq_joint_law(alpha, zero, one, a, b, 5, Variant::corrected);
        const Rational x = a + b;
        expected += law.pp * (4 - x) * (4 - x) + (law.pm + law.mp) * x * x + law.mm * (4 + x) * (4 + x);
      }
    }
    expected /= 16;  // (1/n²) Σ
    double mean = 0, second = 0;
    const double m = static_cast<double>(size - 2);
    for (std::size_t t = 2; t < size; ++t) {
      const double e = static_cast<double>(r.aggregate[t]) - r.clipped_mean[t];
      mean += e * e / m;
      second += e * e * e * e / m;
    }
    const double se = std::sqrt((second - mean * mean) / m);
    const double z = (mean - to_double(expected)) / se;
    INFO(kind << ": empirical " << mean << " expected " << to_double(expected) << " z " << z);
    CHECK(std::abs(z) < 4);
  }
}

TEST_CASE("the live check: empirical and exact expected MSE agree round after round", "[fl][unit]") {
  // 6 clients with spread weights over two layers; the check samples 512 coordinates per layer.
  const std::size_t size = 4096;
  std::vector<float> global(2 * size);
  for (std::size_t t = 0; t < global.size(); ++t) global[t] = static_cast<float>(std::sin(0.37 * t));
  std::vector<std::vector<float>> clients;
  for (int i = 0; i < 6; ++i) {
    std::vector<float> w(global.size());
    for (std::size_t t = 0; t < w.size(); ++t) w[t] = static_cast<float>(std::sin(0.37 * t + 0.5 * i) * 1.1);
    clients.push_back(w);
  }
  const std::vector<Layer> layers{{0, size}, {size, size}};
  for (const char* kind : {"ldp", "corbin", "augcorbin", "gaussian", "laplace", "cq", "pbm1", "pbm2", "rqm2", "rqm3"}) {
    MechanismConfig c;
    c.mechanism = &Registry::global().find(kind);
    c.seed = 21;
    c.dropout = Rational(1, 5);
    c.protocol.transport = std::string(kind) == "augcorbin" ? ZTransport::derived : ZTransport::encrypted;
    for (std::uint64_t round = 0; round < 3; ++round) {
      const RoundResult r = obfuscated_mean(clients, global, layers, c, round);
      if (r.survivors() == 0) continue;
      const LiveCheck check = live_check(clients, global, layers, c, r, round, 512);
      INFO(kind << " round " << round << ": empirical " << check.mse_empirical << " expected "
                           << check.mse_expected << " z " << check.z << " bound " << check.mse_bound.value_or(-1));
      CHECK(check.coordinates == 1024);
      CHECK(std::abs(check.z) < 4.5);
      // The paper's bounds cover its own mechanisms and baselines, not CQ or the authors' others.
      const std::string name = kind;
      CHECK(check.mse_bound.has_value() == (name != "cq" && name.substr(0, 3) != "pbm" && name.substr(0, 3) != "rqm"));
      if (check.mse_bound) CHECK(*check.mse_bound >= check.mse_expected * (1 - 1e-9));
      CHECK(check.mse_expected > 0);
    }
  }
  MechanismConfig vanilla;
  vanilla.mechanism = &Registry::global().find("vanilla");
  const RoundResult r = obfuscated_mean(clients, global, layers, vanilla, 0);
  CHECK(parameter_of([&] { live_check(clients, global, layers, vanilla, r, 0); }) == "mechanism");
}

TEST_CASE("Z sent as bytes gives the same outputs as Z derived from the shared key", "[fl][unit]") {
  const FixedPointLaw law(Budget::make(Budget::Kind::exp_eps, 3), Rational(0), Rational(1));
  const std::size_t count = CorbinqPairSampler::kChunk * 2 + 1234;  // a partial last chunk
  std::vector<float> w1(count), w2(count);
  for (std::size_t t = 0; t < count; ++t) {
    w1[t] = static_cast<float>(std::sin(0.1 * t));
    w2[t] = static_cast<float>(std::cos(0.3 * t));
  }
  for (unsigned bits : {0u, 1u, 3u, 5u, 8u, 13u, 32u}) {
    const Key shared = derive_key(bits, "shared"), p1 = derive_key(1, "p1"), p2 = derive_key(2, "p2");
    const CorbinqPairSampler sampler(law, bits, shared, p1, p2, 7);
    std::vector<float> a1(count), a2(count), b1(count), b2(count);
    sampler.sample(w1.data(), w2.data(), a1.data(), a2.data(), count);
    std::vector<std::uint8_t> z(CorbinqPairSampler::packed_z_bytes(count, bits));
    CHECK(z.size() == 2 * CorbinqPairSampler::kChunk * bits / 8 + (1234 * bits + 7) / 8);
    CorbinqPairSampler::packed_z(shared, 7, bits, z.data(), count);
    sampler.sample_with_z(z.data(), w1.data(), w2.data(), b1.data(), b2.data(), count);
    CHECK(a1 == b1);
    CHECK(a2 == b2);
    if (bits > 0) {  // and Z matters: another Z changes the outputs
      for (auto& byte : z) byte ^= 0xff;
      sampler.sample_with_z(z.data(), w1.data(), w2.data(), b1.data(), b2.data(), count);
      CHECK((a1 != b1 || a2 != b2));
    }
  }
}

TEST_CASE("the pair protocol: X25519 through the relay, election, Z encrypted or derived, bytes counted",
          "[fl][unit]") {
  const std::vector<Layer> layers{{0, 1000}, {1000, 70000}};
  const std::vector<std::pair<std::size_t, std::size_t>> pairs{{3, 1}, {0, 2}};
  const unsigned bits = 5;
  const std::uint64_t z_bytes = CorbinqPairSampler::packed_z_bytes(1000, bits) +
                                CorbinqPairSampler::packed_z_bytes(70000, bits);
  CHECK(z_bytes == (1000 * 5 + 7) / 8 + 32768 * 2 * 5 / 8 + (4464 * 5 + 7) / 8);
  ProtocolConfig config;
  for (const ZTransport transport : {ZTransport::encrypted, ZTransport::derived}) {
    config.transport = transport;
    Relay relay(4);
    std::vector<std::vector<std::uint8_t>> seen;
    relay.in_transit = [&](Relay::Purpose, std::vector<std::uint8_t>& bytes) { seen.push_back(bytes); };
    const auto channels = establish_pairs(pairs, layers, bits, config, 9, 4, relay);
    REQUIRE(channels.size() == 2);
    for (std::size_t p = 0; p < 2; ++p) {
      const auto [i, j] = pairs[p];
      const PairChannel& c = channels[p];
      CHECK(((c.leader == i && c.follower == j) || (c.leader == j && c.follower == i)));
      // The election rule of Alg. 3 from the two private bits.
      const int yi = client_secret(config, 9, 4, i, "election")[0] & 1, yj = client_secret(config, 9, 4, j, "election")[0] & 1;
      CHECK(c.leader == (yi == yj ? std::min(i, j) : std::max(i, j)));
      if (transport == ZTransport::encrypted) {
        // The follower holds exactly the Z the leader drew from its own secret.
        REQUIRE(c.z.size() == 2);
        const Key source = client_secret(config, 9, 4, c.leader, "shared vector Z");
        for (std::size_t l = 0; l < 2; ++l) {
          std::vector<std::uint8_t> expected(CorbinqPairSampler::packed_z_bytes(layers[l].size, bits));
          CorbinqPairSampler::packed_z(source, static_cast<std::uint32_t>(l), bits, expected.data(), layers[l].size);
          CHECK(c.z[l] == expected);
          // The server never saw it: no 16-byte window of Z occurs in any relayed message.
          for (const auto& message : seen)
            CHECK(std::search(message.begin(), message.end(), expected.begin(), expected.begin() + 16) ==
                  message.end());
        }
      } else {
        CHECK(c.z.empty());
      }
      // Bytes: 32-byte public keys both ways, 1 + 16 for the sealed bit both ways, Z (+ tag)
      // from leader to follower.
      const Traffic& lead = relay.traffic()[c.leader];
      const Traffic& follow = relay.traffic()[c.follower];
      CHECK(lead.key_up == 32);
      CHECK(lead.key_down == 32);
      CHECK(follow.election_up == 17);
      CHECK(follow.election_down == 17);
      const std::uint64_t z_sent = transport == ZTransport::encrypted ? z_bytes + 16 : 0;
      CHECK(lead.z_up == z_sent);
      CHECK(follow.z_down == z_sent);
      CHECK(lead.z_down == 0);
      CHECK(follow.z_up == 0);
    }
  }
  // Both ends derive the same Z key, and it differs between pairs and rounds.
  config.transport = ZTransport::derived;
  Relay r1(4), r2(4);
  const auto round4 = establish_pairs(pairs, layers, bits, config, 9, 4, r1);
  const auto round5 = establish_pairs(pairs, layers, bits, config, 9, 5, r2);
  CHECK(round4[0].z_key != round4[1].z_key);
  CHECK(round4[0].z_key != round5[0].z_key);
  // A message altered in transit fails authentication, by name.
  config.transport = ZTransport::encrypted;
  Relay tampered(4);
  tampered.in_transit = [](Relay::Purpose purpose, std::vector<std::uint8_t>& bytes) {
    if (purpose == Relay::Purpose::z) bytes[bytes.size() / 2] ^= 1;
  };
  CHECK_THROWS_WITH(establish_pairs(pairs, layers, bits, config, 9, 4, tampered), Catch::Contains("authentication"));
  // OS entropy: a deployment's secrets, different on every call; the election still agrees.
  config.entropy = Entropy::os;
  Relay o1(4), o2(4);
  const auto a = establish_pairs(pairs, layers, bits, config, 9, 4, o1);
  const auto b = establish_pairs(pairs, layers, bits, config, 9, 4, o2);
  CHECK(a[0].z != b[0].z);
  CHECK(parameter_of([] { parse_z_transport("plain"); }) == "z_transport");
  CHECK(parameter_of([] { parse_entropy("dice"); }) == "entropy");
}

TEST_CASE("leader election is fair over rounds", "[fl][unit]") {
  ProtocolConfig config;
  config.transport = ZTransport::derived;
  int smaller = 0;
  const int rounds = 400;
  for (int round = 0; round < rounds; ++round) {
    Relay relay(2);
    smaller += establish_pairs({{0, 1}}, {{0, 8}}, 5, config, 3, static_cast<std::uint64_t>(round), relay)[0].leader == 0;
  }
  // Binomial(400, 1/2): mean 200, sd 10.
  CHECK(std::abs(smaller - 200) < 45);
}

TEST_CASE("CQ: identical clients at the midpoint aggregate exactly, and its bytes per round", "[fl][unit]") {
  // K even, every y = 1/2: slots 0..K/2−1 send the top level, the rest the bottom, whatever the
  // shift, so the mean is exactly c.
  const std::size_t size = 300;
  std::vector<float> global(size);
  for (std::size_t t = 0; t < size; ++t) global[t] = static_cast<float>(t % 7) - 3.0f;  // c = 0, r = 3
  const std::vector<std::vector<float>> clients(6, std::vector<float>(size, 0.0f));
  MechanismConfig c;
  c.mechanism = &Registry::global().find("cq");
  const RoundResult r = obfuscated_mean(clients, global, {{0, size}}, c, 0);
  CHECK(r.alone() == 6);
  for (float v : r.aggregate) CHECK(v == 0.0f);
  CHECK(r.mse_empirical == 0);
  // Each client: the model down (4·300 + 8 + 4 bytes), 300 bits up, no pair traffic.
  for (const Traffic& t : r.traffic) {
    CHECK(t.down() == 4 * size + 12);
    CHECK(t.up() == (size + 7) / 8);
  }
  // A Gaussian update is float32.
  c.mechanism = &Registry::global().find("gaussian");
  CHECK(obfuscated_mean(clients, global, {{0, size}}, c, 0).traffic[0].update_up == 4 * size);
}

TEST_CASE("CQ's exact error moments match a simulation of its rule", "[fl][unit]") {
  const std::vector<double> y{0.1, 0.35, 0.5, 0.77, 0.95};
  const CqMoments exact = cq_error_moments(y);
  const std::size_t k = y.size(), trials = 200000;
  const auto shifts = cq_shifts(derive_key(4, "cq test shifts"), 0, trials, k);
  std::vector<std::uint64_t> words(trials * k);
  keystream(derive_key(4, "cq test v"), 0, 0, reinterpret_cast<std::uint8_t*>(words.data()), words.size() * 8);
  double sum = 0, sum2 = 0, y_sum = 0;
  for (double v : y) y_sum += v;
  std::vector<std::size_t> shift_count(k);
  for (std::size_t n = 0; n < trials; ++n) {
    ++shift_count[shifts[n]];
    double d = -y_sum;
    for (std::size_t r = 0; r < k; ++r)
      d += cq_top(y[r], shifts[n], r, k, (static_cast<double>(words[n * k + r] >> 11) + 0.5) * 0x1p-53);
    sum += d;
    sum2 += d * d;
  }
  const double se2 = std::sqrt((exact.m4 - exact.m2 * exact.m2) / static_cast<double>(trials));
  INFO("E D² exact " << exact.m2 << " simulated " << sum2 / trials);
  CHECK(std::abs(sum2 / trials - exact.m2) < 4 * se2);
  CHECK(std::abs(sum / trials) < 4 * std::sqrt(exact.m2 / trials));  // unbiased
  for (std::size_t c : shift_count) CHECK(std::abs(static_cast<double>(c) - trials / 5.0) < 4 * std::sqrt(trials * 0.16));
  // Cancellation: an even number of clients all at y = 1/2 have no error at all; independent
  // rounding would have E D² = k/4.
  CHECK(cq_error_moments(std::vector<double>(6, 0.5)).m2 == 0);
  CHECK(parameter_of([] { cq_shifts(Key{}, 0, 4, 0); }) == "k");
}
