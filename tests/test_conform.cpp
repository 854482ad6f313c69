// `corbin conform`: the laws it holds samplers to, the inputs it chooses, the honesty of its
// statistics (a sampler of the claimed law rejected at most at the stated rate; the claimed power
// met on a planted difference), planted faults caught and named, corbin's own samplers, and the
// command end to end through a real child process, bad samplers included.

#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <numeric>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "conform/algorithm_sampler.hpp"
#include "corbin/conform/builtin.hpp"
#include "corbin/conform/grid.hpp"
#include "corbin/conform/trial.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/keystream.hpp"
#include "parameter_of.hpp"
#include "process.hpp"

using corbin::Rational;
namespace cf = corbin::conform;
using conform_test::AlgorithmSampler;
using conform_test::Fault;
using conform_test::MultinomialSampler;

namespace {

const cf::Mechanism kPair{cf::Kind::corbinq, 0}, kLdpq{cf::Kind::ldpq, 0};

cf::Setting pair_setting(unsigned d, Rational e, Rational w1, Rational w2) {
  return cf::Setting{kPair, e, d, 0, 1, {w1, w2}, {}};
}

std::vector<cf::Setting> grid(const cf::Mechanism& m, cf::GridSize size,
                              const std::string& variant) {
  std::vector<cf::Setting> out;
  for (const cf::Group& g : cf::grid_groups(m, size))
    for (cf::Setting& s : cf::choose_settings(g, variant)) out.push_back(std::move(s));
  return out;
}

/// The settings of groups with these d, e^ε and geometry.
std::vector<cf::Setting> groups(const std::string& variant, std::vector<unsigned> bits,
                                std::vector<Rational> budgets, Rational c = 0, Rational r = 1) {
  std::vector<cf::Setting> out;
  for (const Rational& e : budgets)
    for (unsigned d : bits)
      for (cf::Setting& s : cf::choose_settings(cf::Group{kPair, e, d, c, r}, variant))
        out.push_back(std::move(s));
  return out;
}

std::vector<std::string> consistent(const cf::Report& r) {
  std::vector<std::string> out;
  for (const auto& c : r.laws)
    if (c.consistent) out.push_back(c.name);
  return out;
}

bool rejects(const cf::Report& r, const std::string& kind_prefix) {
  for (const auto& t : r.tests)
    if (t.rejected && t.kind.rfind(kind_prefix, 0) == 0) return true;
  return false;
}

/// P(Bin(n, p) >= k) and P(Bin(n, p) <= k).
double at_least(unsigned k, unsigned n, double p) {
  return k == 0 ? 1
                : boost::math::cdf(
                      boost::math::complement(boost::math::binomial_distribution<>(n, p), k - 1));
}
double at_most(unsigned k, unsigned n, double p) {
  return boost::math::cdf(boost::math::binomial_distribution<>(n, p), k);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Laws.

TEST_CASE("conform's CorBinQ laws are the closed form's, and the fault model keeps the marginals",
          "[conform][unit]") {
  for (const std::string v : {"corrected", "as-printed", "reference-code"}) {
    for (unsigned d : {1u, 2u, 5u})
      for (const Rational& w1 : {Rational(-1), Rational(1, 3), Rational(1)})
        for (const Rational& w2 : {Rational(-1), Rational(0), Rational(7, 8)}) {
          const cf::Setting s = pair_setting(d, 3, w1, w2);
          const cf::Law law = cf::exact_law(s, v);
          const auto j = corbin::corbinq_joint_law(Rational(2), Rational(0), Rational(1), w1, w2, d,
                                                   corbin::parse_variant(v));
          CHECK(law.prob == std::vector<Rational>{j.pp, j.pm, j.mp, j.mm});
          CHECK(law.prob[0] + law.prob[1] + law.prob[2] + law.prob[3] == 1);
          const auto ms = cf::marginals(s, law);
          REQUIRE(ms.size() == 2);
          CHECK(ms[0].prob[0] == j.plus1);
          CHECK(ms[1].prob[0] == j.plus2);
          if (v == "corrected") {
            CHECK(cf::bias(ms[0], w1) == 0);
            CHECK(cf::bias(ms[1], w2) == 0);
            const cf::Law shared = cf::exact_law(s, "shared-coin");
            const auto sm = cf::marginals(s, shared);
            CHECK(sm[0].prob == ms[0].prob);
            CHECK(sm[1].prob == ms[1].prob);
          }
        }
  }
  // At d = 1, e^ε = 3 and w = (−1, 1): u = v = 1/2, one common tie cell with f = 1/2, so the shared
  // coin moves (1/2 − 1/4)/2 = 1/8 into "+-" and "-+": TV 1/4.
  const cf::Setting s = pair_setting(1, 3, -1, 1);
  CHECK(cf::total_variation(cf::exact_law(s, "corrected"), cf::exact_law(s, "shared-coin")) ==
        Rational(1, 4));
  // As printed, Q2 is biased somewhere.
  const cf::Setting t = pair_setting(2, 3, 1, Rational(1, 64));
  CHECK(cf::bias(cf::marginals(t, cf::exact_law(t, "as-printed"))[1], Rational(1, 64)) != 0);
}

TEST_CASE("conform's one-client laws: LDPQ, and PBM and RQM from the registry's rooms",
          "[conform][unit]") {
  for (const std::string name : {"ldpq", "pbm1", "pbm2", "rqm2", "rqm3"}) {
    const cf::Mechanism m = cf::parse_mechanism(name);
    const Rational e = m.kind == cf::Kind::pbm && m.m == 2 ? Rational(9) : Rational(3);
    for (const Rational& w :
         {Rational(-1), Rational(-1, 2), Rational(0), Rational(1, 3), Rational(1)}) {
      const cf::Setting s{m, e, 0, 0, 1, {w}, {}};
      const cf::Law law = cf::exact_law(s, "standard");
      CHECK(law.labels == cf::output_labels(m));
      Rational total = 0;
      for (const Rational& p : law.prob) total += p;
      CHECK(total == 1);
      CHECK(cf::bias(cf::marginals(s, law)[0], w) == 0);  // every one of them is unbiased
    }
  }
  CHECK(cf::parse_mechanism("corbin") == kPair);
  CHECK(cf::parse_mechanism("ldp") == kLdpq);
}

TEST_CASE("conform's settings are validated, naming the parameter", "[conform][unit]") {
  const auto parameter_of = [](const cf::Setting& s) {
    try {
      cf::check_setting(s);
    } catch (const corbin::invalid_argument& e) {
      return e.parameter();
    }
    return std::string("none");
  };
  CHECK(parameter_of(pair_setting(2, 3, 0, 2)) == "inputs[1]");
  CHECK(parameter_of(pair_setting(0, 3, 0, 0)) == "bits");
  CHECK(parameter_of(pair_setting(2, 1, 0, 0)) == "exp_eps");
  CHECK(parameter_of(cf::Setting{kPair, 3, 2, 0, 1, {Rational(0)}, {}}) == "inputs");
  CHECK(parameter_of(cf::Setting{cf::parse_mechanism("pbm2"), 3, 0, 0, 1, {Rational(0)}, {}}) ==
        "exp_eps");
  CHECK(parameter_of(cf::Setting{kPair, 3, 2, 0, 0, {Rational(0), Rational(0)}, {}}) == "radius");
  CHECK_THROWS_AS(cf::parse_mechanism("cq"), corbin::invalid_argument);
  CHECK_THROWS_AS(cf::check_variant(kLdpq, "corrected"), corbin::invalid_argument);
  CHECK(cf::boundary_sensitive(pair_setting(3, 3, 0, 0)));  // 2^d q = 4
  CHECK(!cf::boundary_sensitive(pair_setting(3, 3, Rational(1, 3), Rational(1, 3))));
}

// ---------------------------------------------------------------------------------------------
// The inputs corbin chooses.

TEST_CASE("the largest-TV inputs beat every input of a fine grid, exactly", "[conform][unit]") {
  // Exhaustive over a small domain: u and v on every multiple of 1/4 of a cell in range, d <= 3.
  const std::vector<std::pair<std::string, std::string>> pairs{{"corrected", "as-printed"},
                                                               {"corrected", "reference-code"},
                                                               {"corrected", "shared-coin"},
                                                               {"as-printed", "reference-code"}};
  for (const Rational& e : {Rational(3), Rational(9)})
    for (unsigned d : {1u, 2u, 3u})
      for (const auto& [a, b] : pairs) {
        const cf::Group g{kPair, e, d, 0, 1};
        const cf::MaxTv best = cf::max_tv_inputs(g, a, b);
        CHECK(best.exhaustive);
        CHECK(corbin::to_double(best.tv) <= best.supremum + 1e-12);
        const Rational alpha = cf::alpha_of(e), two_d(corbin::pow2(d));
        const Rational lo = two_d * (1 - 1 / alpha) / 2, hi = two_d * (1 + 1 / alpha) / 2;
        Rational worst = 0;
        for (Rational u = corbin::floor_of(Rational(lo * 4)) / Rational(4); u <= hi;
             u += Rational(1, 4)) {
          if (u < lo) continue;
          for (Rational v = corbin::floor_of(Rational(lo * 4)) / Rational(4); v <= hi;
               v += Rational(1, 4)) {
            if (v < lo) continue;
            const Rational w1 = alpha * (2 * u / two_d - 1), w2 = -alpha * (2 * v / two_d - 1);
            const cf::Setting s = pair_setting(d, e, w1, w2);
            worst = std::max(worst, cf::total_variation(cf::exact_law(s, a), cf::exact_law(s, b)));
          }
        }
        INFO("e^eps = " << corbin::to_string(e) << ", d = " << d << ", " << a << " vs " << b);
        CHECK(best.tv >= worst);
      }
}

TEST_CASE("the grid places the ends, the centre and the top-cell boundary, each pair once",
          "[conform][unit]") {
  const auto settings = cf::choose_settings(cf::Group{kPair, 3, 2, 0, 1}, "corrected");
  std::vector<std::vector<Rational>> seen;
  bool top = false, centre = false;
  for (const auto& s : settings) {
    CHECK(std::find(seen.begin(), seen.end(), s.inputs) == seen.end());
    seen.push_back(s.inputs);
    for (const auto& p : s.purposes) {
      top = top || p.rfind("top-cell", 0) == 0;
      centre = centre || p == "centre";
    }
  }
  CHECK(top);  // d = 2, e^ε = 3: q reaches 3/4 = 1 − 2^−2
  CHECK(centre);
  CHECK(std::find(seen.begin(), seen.end(), std::vector<Rational>{-1, 1}) != seen.end());
  // d = 3: q stays below 7/8, the top cell is out of reach and the reference code equals the
  // corrected law.
  for (const auto& s : cf::choose_settings(cf::Group{kPair, 3, 3, 0, 1}, "corrected"))
    for (const auto& p : s.purposes) CHECK(p.find("reference-code") == std::string::npos);
  CHECK(cf::grid_groups(kPair, cf::GridSize::quick).size() == 3);
  CHECK(cf::grid_groups(kPair, cf::GridSize::standard).size() == 20);
  CHECK(cf::choose_settings(cf::Group{kLdpq, 3, 0, 0, 1}, "standard").size() == 5);
}

// ---------------------------------------------------------------------------------------------
// Statistics.

TEST_CASE("the binomial test's p-value is exact and its level holds for every n",
          "[conform][unit]") {
  for (unsigned n : {1u, 7u, 30u})
    for (double p : {0.1, 0.5, 0.73}) {
      std::vector<double> pmf(n + 1);
      for (unsigned k = 0; k <= n; ++k)
        pmf[k] = boost::math::pdf(boost::math::binomial_distribution<>(n, p), k);
      for (unsigned k = 0; k <= n; ++k) {
        double lower = 0, upper = 0;
        for (unsigned j = 0; j <= k; ++j) lower += pmf[j];
        for (unsigned j = k; j <= n; ++j) upper += pmf[j];
        CHECK(cf::binomial_test(k, n, p).p_value ==
              Approx(std::min(1.0, 2 * std::min(lower, upper))).epsilon(1e-9));
      }
      // P(p-value <= a) <= a, and the exact power at p1 = p0 is that probability.
      for (double a : {0.01, 0.05, 0.2}) {
        double size = 0;
        for (unsigned k = 0; k <= n; ++k)
          if (cf::binomial_test(k, n, p).p_value <= a) size += pmf[k];
        CHECK(size <= a + 1e-12);
        CHECK(cf::binomial_power(p, p, n, a) == Approx(size).margin(1e-12));
      }
    }
}

TEST_CASE("goodness of fit: zero cells reject, small cells pool, a perfect fit passes",
          "[conform][unit]") {
  const std::vector<Rational> law{Rational(1, 2), Rational(0), Rational(1, 4), Rational(1, 4)};
  const std::vector<std::string> labels{"++", "+-", "-+", "--"};
  const auto zero = cf::goodness_of_fit({50, 1, 25, 24}, law, labels);
  CHECK(zero.p_value == 0);
  CHECK(zero.note.find("'+-'") != std::string::npos);
  CHECK(cf::goodness_of_fit({500, 0, 250, 250}, law, labels).p_value > 0.99);
  CHECK(cf::goodness_of_fit({600, 0, 200, 200}, law, labels).p_value < 1e-8);
  // 10 draws of (0.97, 0.01, 0.01, 0.01): the three small cells pool, and with the large one make
  // two groups.
  const auto groups = cf::pool_cells({0.97, 0.01, 0.01, 0.01}, 10);
  CHECK(groups.size() == 1);
  CHECK(cf::pool_cells({0.97, 0.01, 0.01, 0.01}, 1000).size() == 4);
  CHECK(cf::pool_cells({0.97, 0.01, 0.01, 0.01}, 200).size() == 2);
  const auto holm = cf::holm({0.01, 0.04, 0.03, 0.005}, 0.05);
  CHECK(holm == std::vector<bool>{true, false, false, true});
}

TEST_CASE("Clopper–Pearson bounds cover, and the G-test's power grows with the draws",
          "[conform][unit]") {
  const unsigned n = 40;
  for (double p : {0.05, 0.3, 0.5, 0.9}) {
    double below = 0, above = 0;
    for (unsigned k = 0; k <= n; ++k) {
      const double mass = boost::math::pdf(boost::math::binomial_distribution<>(n, p), k);
      if (cf::clopper_pearson_lower(k, n, 0.05) > p) below += mass;
      if (cf::clopper_pearson_upper(k, n, 0.05) < p) above += mass;
    }
    CHECK(below <= 0.05);
    CHECK(above <= 0.05);
  }
  const std::vector<double> law{0.4, 0.1, 0.1, 0.4}, alt{0.35, 0.15, 0.1, 0.4};
  double last = 0;
  for (std::uint64_t draws : {100u, 1000u, 10000u, 100000u}) {
    const double power = cf::gof_power(law, alt, draws, 1e-4);
    CHECK(power >= last);
    last = power;
  }
  CHECK(last > 0.999);
  const auto power = [&](std::uint64_t draws) { return cf::gof_power(law, alt, draws, 1e-4); };
  const std::uint64_t needed = cf::draws_for_power(power, 0.9, 1000000);
  CHECK(power(needed) >= 0.9);
  CHECK(power(needed - needed / 200 - 1) < 0.9);  // within 1/256 of the smallest
  CHECK(cf::gof_power(law, {0.4, 0.1, 0.1, 0.39}, 1, 1e-4) < 1);
  CHECK(cf::gof_power({0.5, 0, 0.5, 0}, {0.5, 0.01, 0.49, 0}, 1000, 1e-4) >
        0.99);  // hits in a zero cell
  CHECK(cf::independence_test({{250, 250}, {250, 250}}).p_value > 0.99);
  CHECK(cf::independence_test({{400, 100}, {100, 400}}).p_value < 1e-10);
}

// ---------------------------------------------------------------------------------------------
// Honesty: level and power.

TEST_CASE("the G-test's chi-square p-values hold their level in the tail (20000 samples per law)",
          "[conform][unit]") {
  // Under the law itself, P(p <= a) must not exceed a: checked at a = 0.01 and 0.001 for laws with
  // large cells, with cells pooled (expected counts below 5), and with a zero cell.
  const std::vector<std::vector<Rational>> laws{
      {Rational(1, 4), Rational(1, 4), Rational(1, 4), Rational(1, 4)},
      {Rational(7, 16), Rational(1, 16), Rational(3, 16), Rational(5, 16)},
      {Rational(997, 1000), Rational(1, 1000), Rational(1, 1000), Rational(1, 1000)},
      {Rational(1, 2), Rational(0), Rational(1, 8), Rational(3, 8)}};
  const std::vector<std::string> labels{"++", "+-", "-+", "--"};
  std::mt19937_64 gen(20261122);
  constexpr unsigned kSamples = 20000;
  for (const auto& law : laws)
    for (std::uint64_t n : {1000u, 100000u}) {
      unsigned below_1 = 0, below_01 = 0;
      for (unsigned k = 0; k < kSamples; ++k) {
        std::vector<std::uint64_t> counts(4, 0);
        std::uint64_t left = n;
        double mass = 1;
        for (std::size_t c = 0; c + 1 < 4; ++c) {
          const double p = std::min(1.0, corbin::to_double(law[c]) / mass);
          counts[c] =
              p > 0 && left > 0 ? std::binomial_distribution<std::uint64_t>(left, p)(gen) : 0;
          left -= counts[c];
          mass -= corbin::to_double(law[c]);
        }
        counts[3] = left;
        const double pv = cf::goodness_of_fit(counts, law, labels).p_value;
        below_1 += pv <= 0.01;
        below_01 += pv <= 0.001;
      }
      INFO("law " << corbin::to_string(law[0]) << ", … n = " << n << ": " << below_1 << " and "
                  << below_01);
      CHECK(at_least(below_1, kSamples, 0.01) >= 1e-3);
      CHECK(at_least(below_01, kSamples, 0.001) >= 1e-3);
    }
}

TEST_CASE("a sampler of the claimed law is rejected at most at the stated rate (200 runs)",
          "[conform][unit]") {
  cf::Options o;
  o.level = 0.05;
  o.min_draws = 2000;
  o.max_draws = 200000;
  o.independence_draws = 4096;
  const cf::Plan base =
      cf::make_plan(groups("corrected", {1, 2}, {3}), "corrected", cf::exact_claim("corrected"), o);
  MultinomialSampler sampler;
  constexpr unsigned kRuns = 200;
  unsigned rejected = 0;
  for (unsigned run = 0; run < kRuns; ++run) {
    cf::Plan plan = base;
    for (auto& r : plan.requests)
      r.seed = corbin::derive_seed(run, "honesty " + std::to_string(r.id));
    rejected += cf::run_trial(sampler, plan, o).conforms ? 0 : 1;
  }
  INFO(rejected << " of " << kRuns << " runs departed at level 0.05");
  CHECK(at_least(rejected, kRuns, o.level) >= 1e-3);
}

TEST_CASE("the power a plan claims is met against as-printed at its hardest setting (200 runs)",
          "[conform][unit]") {
  cf::Options o;
  o.min_draws = 1;  // every setting gets exactly what the power calculation asks
  o.independence = false;
  const cf::Plan plan = cf::make_plan(groups("corrected", {2, 3, 5}, {3, 9}), "corrected",
                                      cf::exact_claim("corrected"), o);
  std::size_t hardest = 0, index = 0;
  std::uint64_t most = 0;
  for (std::size_t i = 0; i < plan.settings.size(); ++i)
    for (std::size_t k = 0; k < plan.settings[i].alternatives.size(); ++k) {
      const auto& a = plan.settings[i].alternatives[k];
      if (a.name == "as-printed" && a.needed > most && plan.settings[i].draws == a.needed) {
        most = a.needed;
        hardest = i;
        index = k;
      }
    }
  REQUIRE(most > 0);
  const cf::PlannedSetting& ps = plan.settings[hardest];
  const double claimed = ps.alternatives[index].power;
  CHECK(claimed >= o.power);
  MultinomialSampler as_printed("as-printed");
  constexpr unsigned kRuns = 200;
  unsigned rejected = 0;
  const auto ms = cf::marginals(ps.setting, ps.claimed);
  for (unsigned run = 0; run < kRuns; ++run) {
    cf::Request r = plan.requests[hardest];
    r.seed = corbin::derive_seed(run, "power");
    const cf::Answer a = as_printed.draw(r);
    // The setting's own tests at the per-test level (Bonferroni; Holm would reject at least these).
    bool any = cf::goodness_of_fit(a.counts, ps.claimed.prob, ps.claimed.labels).p_value <=
               plan.per_test_level;
    for (const auto& m : ms) {
      std::vector<std::uint64_t> mc;
      for (const auto& cells : m.cells) {
        std::uint64_t k = 0;
        for (std::size_t c : cells) k += a.counts[c];
        mc.push_back(k);
      }
      any = any || cf::goodness_of_fit(mc, m.prob, m.labels).p_value <= plan.per_test_level;
    }
    rejected += any ? 1 : 0;
  }
  INFO("setting " << cf::describe(ps.setting) << ": " << ps.draws << " draws, claimed power "
                  << claimed << ", " << rejected << " of " << kRuns << " rejected");
  CHECK(at_most(rejected, kRuns, claimed) >= 1e-3);
}

// ---------------------------------------------------------------------------------------------
// Planted faults, in process.

namespace {

cf::Report trial(cf::Sampler& sampler, const std::vector<cf::Setting>& settings,
                 const cf::Options& o = {}, const std::string& variant = "corrected") {
  return cf::run_trial(sampler, cf::make_plan(settings, variant, cf::exact_claim(variant), o), o);
}

}  // namespace

TEST_CASE("Algorithm 2 coded from the paper conforms, as printed departs and is named",
          "[conform][unit]") {
  const auto settings = grid(kPair, cf::GridSize::quick, "corrected");
  AlgorithmSampler good;
  const cf::Report ok = trial(good, settings);
  CHECK(ok.conforms);
  CHECK(consistent(ok) == std::vector<std::string>{"corrected"});
  AlgorithmSampler printed(Fault::as_printed);
  const cf::Report bad = trial(printed, settings);
  CHECK(!bad.conforms);
  CHECK(consistent(bad) == std::vector<std::string>{"as-printed"});
  // The same sampler claiming as-printed conforms, and its own variant's run names the corrected
  // one inconsistent.
  const cf::Report own =
      trial(printed, grid(kPair, cf::GridSize::quick, "as-printed"), {}, "as-printed");
  CHECK(own.conforms);
}

TEST_CASE("the authors' tie rule departs at the top-cell settings only, and is named",
          "[conform][unit]") {
  const auto settings = grid(kPair, cf::GridSize::quick, "corrected");
  AlgorithmSampler reference(Fault::reference_tie);
  const cf::Plan plan = cf::make_plan(settings, "corrected", cf::exact_claim("corrected"), {});
  const cf::Report r = cf::run_trial(reference, plan, {});
  CHECK(!r.conforms);
  CHECK(consistent(r) == std::vector<std::string>{"reference-code"});
  for (const auto& t : r.tests) {
    if (!t.rejected || t.settings.size() != 1) continue;
    const cf::Setting& s = plan.settings[t.settings[0]].setting;
    bool top = false;
    for (const Rational& x : cf::threshold_positions(s))
      top = top || corbin::floor_of(x) == corbin::pow2(s.bits) - 1;
    INFO(t.kind << " rejects at " << cf::describe(s));
    CHECK(top);
  }
}

TEST_CASE("planted faults are caught at the draws the plan chooses", "[conform][unit]") {
  const auto settings = grid(kPair, cf::GridSize::quick, "corrected");
  SECTION("an off-by-one threshold") {
    AlgorithmSampler s(Fault::off_by_one);
    const cf::Report r = trial(s, settings);
    CHECK(!r.conforms);
    CHECK(consistent(r).empty());
  }
  SECTION("a private coin shared by the pair") {
    AlgorithmSampler s(Fault::shared_coin);
    const cf::Report r = trial(s, settings);
    CHECK(!r.conforms);
    CHECK(consistent(r) == std::vector<std::string>{"shared-coin"});
    CHECK(!rejects(r, "marginal"));  // the marginals are right: only the joint law shows it
  }
  SECTION("a private coin reused across draws") {
    AlgorithmSampler s(Fault::reused_coin);
    const cf::Report r = trial(s, settings);
    CHECK(!r.conforms);
    CHECK(rejects(r, "independence lag 1"));
  }
  SECTION("a shared Z not refreshed") {
    AlgorithmSampler s(Fault::stale_z);
    const cf::Report r = trial(s, settings);
    CHECK(!r.conforms);
    CHECK(rejects(r, "independence lag 1"));
  }
  SECTION("a sampler that ignores the seed repeats itself across calls") {
    AlgorithmSampler s(Fault::fixed_seed);
    const cf::Report r = trial(s, settings);
    CHECK(!r.conforms);
    CHECK(rejects(r, "independence across calls"));
    CHECK(!rejects(r, "law"));
  }
  SECTION("float32 probabilities: caught at a far centre, invisible at c = 0, r = 1") {
    AlgorithmSampler s(Fault::float32);
    CHECK(trial(s, settings).conforms);  // rounding 2^−24 of q: far below what any sample can see
    const cf::Report far = trial(s, groups("corrected", {1, 2, 3}, {3}, 1000, Rational(1, 1000)));
    CHECK(!far.conforms);
    CHECK(rejects(far, "law"));
  }
  SECTION("a sampler biased by 1e-3, with --effect 1e-3") {
    cf::Options o;
    o.effect = 1e-3;
    o.max_draws = 20000000;
    const auto ldpq = cf::choose_settings(cf::Group{kLdpq, 3, 0, 0, 1}, "standard");
    const cf::Plan plan = cf::make_plan(ldpq, "standard", cf::exact_claim("standard"), o);
    for (const auto& ps : plan.settings) CHECK(ps.effect_note.empty());
    AlgorithmSampler biased(Fault::bias, 1e-3);
    CHECK(!cf::run_trial(biased, plan, o).conforms);
    AlgorithmSampler fair;
    CHECK(cf::run_trial(fair, plan, o).conforms);
  }
}

// ---------------------------------------------------------------------------------------------
// corbin's own samplers.

TEST_CASE("builtin:cpu conforms to the fixed-point law it claims, for every mechanism",
          "[conform][unit]") {
  cf::Options o;
  o.min_draws = 20000;
  for (const cf::Mechanism& m : cf::all_mechanisms()) {
    const std::string variant = cf::variants_of(m).front();
    const auto settings = grid(m, cf::GridSize::quick, variant);
    cf::CpuSampler cpu;
    const cf::Report r =
        cf::run_trial(cpu, cf::make_plan(settings, variant, cf::fixed_point_law, o), o);
    INFO(m.name());
    CHECK(r.conforms);
    for (const auto& s : settings) {
      const cf::FixedPointDistance d = cf::fixed_point_distance(s);
      CHECK(d.at_float_inputs <= Rational(1, 100000000));  // rounding q to 32 bits only
    }
  }
  cf::CpuSampler cpu;
  cf::Request r{1, pair_setting(2, 3, 0, 0), "as-printed", 10, 1, false};
  CHECK_THROWS_AS(cpu.draw(r), corbin::invalid_argument);
}

TEST_CASE("the round kernels on the host draw what builtin:cpu draws, and conform", "[conform][unit]") {
  namespace k = corbin::fl::kernels;
  cf::KernelSampler kernels(k::Backend::host);
  cf::CpuSampler cpu;
  const cf::Mechanism ldpq = cf::parse_mechanism("ldpq");
  // Within the kernels' first block the outputs are the CPU sampler's, draw by draw (the same keys,
  // streams, fixed-point rule and tie coins); 70 000 draws cross builtin:cpu's 2^16 block and the
  // CorBinQ chunk of 32 768.
  for (const cf::Setting& s : {pair_setting(2, 3, 0, 0), pair_setting(3, 9, 1, -1),
                               pair_setting(1, 2, Rational(1, 3), Rational(1, 3))}) {
    const cf::Request r{1, s, "corrected", 70000, 11, true};
    const cf::Answer a = kernels.draw(r), b = cpu.draw(r);
    CHECK(a.counts == b.counts);
    CHECK(a.sequence == b.sequence);
    cf::Setting one = s;
    one.mechanism = ldpq;
    one.bits = 0;
    one.inputs.resize(1);
    const cf::Request q{2, one, cf::variants_of(ldpq).front(), 70000, 12, true};
    CHECK(kernels.draw(q).sequence == cpu.draw(q).sequence);
  }
  // Beyond the first block each block is a stream of its own: the counts still add up, and the run
  // conforms to the fixed-point law.
  const cf::Request big{3, pair_setting(2, 3, 0, 0), "corrected", cf::kKernelBlock + 5, 4, false};
  const cf::Answer a = kernels.draw(big);
  CHECK(std::accumulate(a.counts.begin(), a.counts.end(), std::uint64_t{0}) == cf::kKernelBlock + 5);
  cf::Options o;
  o.min_draws = 20000;
  for (const cf::Mechanism& m : {ldpq, kPair}) {
    const std::string variant = cf::variants_of(m).front();
    const auto settings = grid(m, cf::GridSize::quick, variant);
    INFO(m.name());
    CHECK(cf::run_trial(kernels, cf::make_plan(settings, variant, cf::fixed_point_law, o), o).conforms);
  }
  // What the kernels do not sample is refused by name, and so is a device this build lacks.
  const cf::Mechanism pbm = cf::parse_mechanism("pbm1");
  CHECK(parameter_of([&] { cf::builtin_sampler("builtin:kernels", pbm, cf::variants_of(pbm).front()); }) ==
        "mechanism");
  CHECK(parameter_of([&] { cf::builtin_sampler("builtin:kernels", kPair, "as-printed"); }) == "variant");
  CHECK(parameter_of([&] { cf::builtin_sampler("builtin:gpu", kPair, "corrected"); }) == "sampler");
  if (!k::cuda_available())
    CHECK(parameter_of([&] { cf::builtin_sampler("builtin:cuda", kPair, "corrected"); }) == "sampler");
  CHECK(cf::builtin_sampler("builtin:kernels", kPair, "corrected").fixed_point);
  CHECK(!cf::builtin_sampler("builtin:exact", kPair, "as-printed").fixed_point);
}

TEST_CASE("builtin:cuda draws what the kernels draw on the host (where a CUDA device is)",
          "[conform][unit][cuda]") {
  namespace k = corbin::fl::kernels;
  if (!k::cuda_available()) {
    SUCCEED("no CUDA device: the host backend runs the same per-job code (the test above)");
    return;
  }
  cf::KernelSampler gpu(k::Backend::cuda), host(k::Backend::host);
  const cf::Mechanism ldpq = cf::parse_mechanism("ldpq");
  for (const cf::Setting& s : {pair_setting(2, 3, 0, 0), pair_setting(3, 9, 1, -1),
                               pair_setting(8, 2, Rational(1, 3), Rational(-1, 7))}) {
    const cf::Request r{1, s, "corrected", cf::kKernelBlock + 70000, 11, true};
    CHECK(gpu.draw(r).sequence == host.draw(r).sequence);
    cf::Setting one = s;
    one.mechanism = ldpq;
    one.bits = 0;
    one.inputs.resize(1);
    const cf::Request q{2, one, cf::variants_of(ldpq).front(), cf::kKernelBlock + 70000, 12, true};
    CHECK(gpu.draw(q).sequence == host.draw(q).sequence);
  }
}

TEST_CASE("builtin:exact conforms for every variant, and a run is repeatable from its seed",
          "[conform][unit]") {
  for (const std::string v : {"corrected", "as-printed", "reference-code"}) {
    cf::ExactSampler exact;
    CHECK(trial(exact, grid(kPair, cf::GridSize::quick, v), {}, v).conforms);
  }
  cf::ExactSampler exact;
  const auto settings = grid(kPair, cf::GridSize::quick, "corrected");
  const cf::Report a = trial(exact, settings), b = trial(exact, settings);
  REQUIRE(a.tests.size() == b.tests.size());
  for (std::size_t i = 0; i < a.tests.size(); ++i)
    CHECK(a.tests[i].outcome.p_value == b.tests[i].outcome.p_value);
}

TEST_CASE("answers that do not fit their request are refused, saying why", "[conform][unit]") {
  cf::Request r{7, pair_setting(2, 3, 0, 0), "corrected", 100, 1, false};
  const auto message = [&](const cf::Answer& a) {
    try {
      cf::check_answer(r, a);
    } catch (const cf::ProtocolError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message({{25, 25, 25, 25}, {}, {}}) == "accepted");
  CHECK(message({{25, 25, 25, 24}, {}, {}}).find("add up to 99") != std::string::npos);
  CHECK(message({{50, 50}, {}, {}}).find("2 counts for the 4 outputs") != std::string::npos);
  r.outputs = true;
  CHECK(message({{25, 25, 25, 25}, {}, {}}).find("gave counts only") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// The command, end to end, through real child processes.

namespace {

struct Run {
  int status;
  std::string out, err;
};

Run conform(std::vector<std::string> args, const std::vector<std::string>& sampler_args = {}) {
  std::vector<std::string> argv{CORBIN_CLI_PATH, "conform"};
  argv.insert(argv.end(), args.begin(), args.end());
  if (!sampler_args.empty()) {
    argv.push_back("--sampler");
    argv.insert(argv.end(), sampler_args.begin(), sampler_args.end());
  }
  const Outcome o = run_process(argv);
  return {o.status, o.out, o.err};
}

std::vector<std::string> sampler(std::vector<std::string> args = {}) {
  args.insert(args.begin(), CONFORM_SAMPLER_PATH);
  return args;
}

/// Whether a process is gone (or a zombie waiting for its reaper).
bool gone(long pid) {
  for (int i = 0; i < 200; ++i) {
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    if (paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z')
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::vector<long> read_pids(const std::string& path) {
  std::ifstream in(path);
  std::vector<long> pids;
  for (long p; in >> p;) pids.push_back(p);
  return pids;
}

const std::vector<std::string> kQuick{
    "--grid", "quick", "--min-draws", "20000", "--independence-draws", "4096"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("corbin conform: a correct program conforms, as printed departs and is named",
          "[conform][cli]") {
  const Run ok = conform(kQuick, sampler());
  INFO(ok.err);
  CHECK(ok.status == 0);
  CHECK(ok.out.rfind("corbin conform: conforms", 0) == 0);
  const auto junit =
      std::filesystem::temp_directory_path() / ("conform_" + std::to_string(getpid()) + ".xml");
  const Run bad = conform(with(kQuick, {"--json", "--junit", junit.string()}),
                          sampler({"--fault", "as-printed"}));
  CHECK(bad.status == 1);
  const auto j = nlohmann::json::parse(bad.out);
  CHECK(j["verdict"] == "departs");
  CHECK(j["consistent_with"] == nlohmann::json::array({"as-printed"}));
  CHECK(j["sampler_end"] == "exited with status 0");
  std::ifstream xml(junit);
  const std::string text((std::istreambuf_iterator<char>(xml)), std::istreambuf_iterator<char>());
  CHECK(text.find("<failure message=\"rejects") != std::string::npos);
  std::filesystem::remove(junit);
  // Decoded values: right ones pass (exact strings and decimals), a level 1% off departs whatever
  // the counts.
  const Run values = conform(kQuick, sampler({"--values"}));
  CHECK(values.status == 0);
  const Run wrong =
      conform(with(kQuick, {"--json"}), sampler({"--values", "--misbehave", "wrong-value"}));
  CHECK(wrong.status == 1);
  const auto w = nlohmann::json::parse(wrong.out);
  bool decoded = false;
  for (const auto& t : w["test_results"])
    decoded = decoded || (t["test"] == "decoded values" && t["rejected"] == true);
  CHECK(decoded);
  // Outputs in place of counts, and the same seed gives the same answer.
  const Run a = conform(with(kQuick, {"--json"}), sampler({"--outputs"}));
  const Run b = conform(with(kQuick, {"--json"}), sampler({"--outputs"}));
  REQUIRE(a.status == 0);
  CHECK(nlohmann::json::parse(a.out)["test_results"] ==
        nlohmann::json::parse(b.out)["test_results"]);
}

TEST_CASE(
    "corbin conform: a bad sampler gets exit 2, one line naming what happened, nothing left "
    "running",
    "[conform][cli]") {
  struct Case {
    std::string misbehave, at, expect;
  };
  const std::vector<Case> cases{
      {"hang", "1", "did not answer request 1 "},
      {"crash", "2", "ended before answering request 2 "},
      {"exit", "1", "it exited with status 0"},
      {"garbage", "1", "not a protocol answer"},
      {"stderr-flood", "1", "more than --stderr-limit 100000 bytes"},
      {"wrong-count", "1", "add up to"},
      {"missing-id", "1", "which was not sent yet"},
      {"repeat-id", "2", "answered request 1 again"},
      {"refuse", "1", "refused request 1"},
      {"grandchild-hang", "1", "did not answer request 1 "},
  };
  SECTION("each misbehaviour") {
    for (const Case& c : cases) {
      const std::string pid_file = (std::filesystem::temp_directory_path() /
                                    ("conform_pid_" + std::to_string(getpid()) + "_" + c.misbehave))
                                       .string();
      std::filesystem::remove(pid_file);
      const auto start = std::chrono::steady_clock::now();
      const Run r =
          conform(with(kQuick, {"--timeout", "1", "--stderr-limit", "100000"}),
                  sampler({"--misbehave", c.misbehave, "--at", c.at, "--pid-file", pid_file}));
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      INFO(c.misbehave << ": " << r.err);
      CHECK(r.status == 2);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.err.rfind("corbin: conform: the sampler ", 0) == 0);
      CHECK(r.err.find(c.expect) != std::string::npos);
      CHECK(seconds < 10);
      const auto pids = read_pids(pid_file);
      CHECK(!pids.empty());
      for (long pid : pids) CHECK(gone(pid));
      std::filesystem::remove(pid_file);
    }
  }
  SECTION("a crash names the signal") {
    const Run r = conform(kQuick, sampler({"--misbehave", "crash"}));
    CHECK(r.err.find("killed by signal 11 (SIGSEGV)") != std::string::npos);
  }
  SECTION("a sampler that outlives its input is stopped, and the verdict stands") {
    const std::string pid_file = (std::filesystem::temp_directory_path() /
                                  ("conform_pid_" + std::to_string(getpid()) + "_eof"))
                                     .string();
    std::filesystem::remove(pid_file);
    const Run r = conform(with(kQuick, {"--json"}),
                          sampler({"--misbehave", "ignore-eof", "--pid-file", pid_file}));
    CHECK(r.status == 0);
    CHECK(nlohmann::json::parse(r.out)["sampler_end"] ==
          "did not exit within 2 s of its input's end and was stopped");
    for (long pid : read_pids(pid_file)) CHECK(gone(pid));
    std::filesystem::remove(pid_file);
  }
}

TEST_CASE("corbin conform: killed while its sampler hangs, it takes the sampler with it",
          "[conform][cli]") {
  const std::string pid_file = (std::filesystem::temp_directory_path() /
                                ("conform_pid_" + std::to_string(getpid()) + "_term"))
                                   .string();
  std::filesystem::remove(pid_file);
  std::vector<std::string> argv{CORBIN_CLI_PATH, "conform",
                                "--grid",        "quick",
                                "--timeout",     "100",
                                "--sampler",     CONFORM_SAMPLER_PATH,
                                "--misbehave",   "grandchild-hang",
                                "--pid-file",    pid_file};
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t corbin = 0;
  REQUIRE(posix_spawn(&corbin, args[0], &actions, nullptr, args.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  std::vector<long> pids;
  for (int i = 0; i < 500 && pids.size() < 2;
       ++i) {  // the sampler and its grandchild, once it hangs
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    pids = read_pids(pid_file);
  }
  REQUIRE(pids.size() == 2);
  ::kill(corbin, SIGTERM);
  int raw = 0;
  ::waitpid(corbin, &raw, 0);
  CHECK(WIFSIGNALED(raw));
  CHECK(WTERMSIG(raw) == SIGTERM);
  for (long pid : pids) CHECK(gone(pid));
  std::filesystem::remove(pid_file);
}

TEST_CASE("corbin conform: bad options exit 2 naming the option", "[conform][cli]") {
  const auto line = [](const Run& r) { return r.err; };
  Run r = conform({"--mechanism", "cq"}, {"builtin:cpu"});
  CHECK(r.status == 2);
  CHECK(line(r).find("--mechanism is 'cq'") != std::string::npos);
  r = conform({"--grid", "quick"});
  CHECK(r.status == 2);
  CHECK(line(r).find("--sampler is missing") != std::string::npos);
  r = conform({"--variant", "as-printed"}, {"builtin:cpu"});
  CHECK(r.status == 2);
  CHECK(line(r).find("--variant is 'as-printed'") != std::string::npos);
  r = conform({"--grid", "/nonexistent/grid.json"}, {"builtin:cpu"});
  CHECK(r.status == 2);
  r = conform({"--level", "2"}, {"builtin:cpu"});
  CHECK(r.status == 2);
  CHECK(line(r).find("--level is '2'") != std::string::npos);
  r = conform({"--grid", "quick"}, {"/nonexistent/sampler"});
  CHECK(r.status == 2);
  CHECK(line(r).find(
            "--sampler is '/nonexistent/sampler', but must be a program that can be started") !=
        std::string::npos);
  r = conform({"--grid", "quick"}, {"builtin:cpu", "--json"});
  CHECK(r.status == 2);
  CHECK(line(r).find("without arguments") != std::string::npos);
  r = conform({"--mechanism", "rqm2"}, {"builtin:kernels"});
  CHECK(r.status == 2);
  CHECK(line(r).find("--mechanism is rqm2, but must be ldpq or corbinq with builtin:kernels") != std::string::npos);
  if (!corbin::fl::kernels::cuda_available()) {
    r = conform({"--grid", "quick"}, {"builtin:cuda"});
    CHECK(r.status == 2);
    CHECK(line(r).find("--sampler is builtin:cuda") != std::string::npos);
  }
}

TEST_CASE("corbin conform: the round kernels on the host conform", "[conform][cli]") {
  const Run r = conform({"--grid", "quick", "--mechanism", "ldpq", "--json", "--min-draws", "20000"},
                        {"builtin:kernels"});
  CHECK(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["verdict"] == "conforms");
  CHECK(j["claimed_law"] == "the fixed-point law builtin:kernels realises");
  CHECK(j["fixed_point"].size() == j["settings"].size());
}

TEST_CASE("corbin conform: a grid file, and the docs' Python adapter", "[conform][cli]") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("conform_grid_" + std::to_string(getpid()) + ".json");
  std::ofstream(path) << R"({"groups": [{"exp_eps": "3", "bits": [1, 2]}],
                             "settings": [{"exp_eps": "9", "bits": 3, "center": "0", "radius": "1", "inputs": ["1/3", "-1"]}]})";
  Run r = conform({"--grid", path.string(), "--json", "--min-draws", "20000"}, {"builtin:cpu"});
  CHECK(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["settings"].back()["inputs"] == nlohmann::json::array({"1/3", "-1"}));
  std::ofstream(path) << R"({"settings": [{"exp_eps": "3", "bits": 2, "inputs": ["1/3", "5"]}]})";
  r = conform({"--grid", path.string()}, {"builtin:cpu"});
  CHECK(r.status == 2);
  CHECK(r.err.find(": settings[0].inputs[1] is 5, but must be in [c − r, c + r] = [-1, 1]") !=
        std::string::npos);
  // A key given twice (was: the last kept), and a 100 000-character input (was: echoed whole),
  // each named on one short line.
  std::ofstream(path) << R"({"settings": [{"exp_eps": "3", "bits": 2, "bits": 3, "inputs": ["1/3", "0"]}]})";
  r = conform({"--grid", path.string()}, {"builtin:cpu"});
  CHECK(r.status == 2);
  CHECK(r.err.find("at settings[0].bits is given twice, but must be each key once") != std::string::npos);
  std::ofstream(path) << R"({"settings": [{"exp_eps": "3", "bits": 2, "inputs": ["1/3", ")" +
                             std::string(100000, '1') + R"("]}]})";
  r = conform({"--grid", path.string()}, {"builtin:cpu"});
  CHECK(r.status == 2);
  CHECK(r.err.find(": settings[0].inputs[1] is 1111") != std::string::npos);
  CHECK(r.err.find("(100000 characters), but must be in [c − r, c + r]") != std::string::npos);
  CHECK(r.err.size() < 300);
  std::filesystem::remove(path);
  if (access("/usr/bin/python3", X_OK) == 0) {
    r = conform(
        {"--mechanism", "ldpq", "--grid", "quick", "--min-draws", "20000", "--independence-draws",
         "4096"},
        {"/usr/bin/python3", std::string(CORBIN_SOURCE_DIR) + "/tests/conform/adapter_example.py"});
    INFO(r.err);
    CHECK(r.status == 0);
  }
}
