// The certified accountant (issue 12): certified windows of binomial laws, the law of the
// aggregate for large n against the exact rational law, and two-sided ε(δ), δ(ε) bounds against
// exact k-fold composition (PrivacyLoss::power) and against the RDP bound.

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/pld/composition.hpp"
#include "corbin/privacy/pld/curve.hpp"
#include "corbin/privacy/pld/meet.hpp"
#include "corbin/privacy/pld/threads.hpp"
#include "corbin/privacy/worst_case/dropout_floor.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"
#include "corbin/privacy/exact/privacy_loss.hpp"
#include "corbin/privacy/run/run_accountant.hpp"
#include "corbin/privacy/run/run_ledger.hpp"

using namespace corbin;

namespace {

Rational choose(unsigned n, unsigned k) {
  BigInt out(1);
  for (unsigned i = 0; i < k; ++i) out = out * (n - i) / (i + 1);
  return Rational(out);
}

Rational power(const Rational& x, unsigned k) {
  Rational out(1);
  for (unsigned i = 0; i < k; ++i) out *= x;
  return out;
}

bool encloses(const WindowPmf& w, std::int64_t j, const Rational& exact) {
  const std::int64_t i = j - w.first;
  if (i < 0 || i >= static_cast<std::int64_t>(w.size())) return exact <= to_rational(w.tail);
  return to_rational(w.lo[static_cast<std::size_t>(i)]) <= exact &&
         exact <= to_rational(w.hi[static_cast<std::size_t>(i)]);
}

AccountSetting setting(unsigned long n, const Rational& gamma, TargetClient::Role role,
                       Neighbour rel, const Rational& center = Rational(0)) {
  AccountSetting s;
  s.n = n;
  s.gamma = gamma;
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
  s.center = center;
  s.role = role;
  s.relation = rel;
  return s;
}

/// f() raises invalid_argument naming `parameter`.
template <class F>
void names(F f, const char* parameter) {
  try {
    f();
    FAIL("no error");
  } catch (const invalid_argument& e) {
    CHECK(e.parameter() == parameter);
  }
}

ExactUcdpSetting exact_setting(const AccountSetting& s) {
  ExactUcdpSetting e;
  e.n = s.n;
  e.gamma = s.gamma;
  e.delta = Rational(1, 100000);
  e.geometry = {s.budget.alpha_exact(), s.center, s.radius, s.bits, s.variant};
  e.role = s.role;
  return e;
}

/// The exact laws at configuration c (client 1's candidate and j of the others at c + r).
std::pair<SumLaw, SumLaw> exact_laws(const AccountSetting& s, const Configuration& c = {}) {
  const ExactUcdpSetting e = exact_setting(s);
  return neighbouring_laws(e, c, s.relation);
}

/// The count j of "+" on p's world whose released value is `value`: value = n c + rα(2j − n).
std::int64_t count_of(const AccountSetting& s, const Rational& value) {
  const Rational level = s.radius * s.budget.alpha_exact();
  const Rational n(BigInt(s.n));
  const Rational j = Rational((value - n * s.center + level * n) / (2 * level));
  REQUIRE(denominator(j) == 1);
  return j.convert_to<std::int64_t>();
}

double ln_of(const Rational& x) {
  return std::log(to_double(x));
}

}  // namespace

TEST_CASE("outward rounding brackets exact results, subnormals and zero included",
          "[accountant][unit]") {
  using namespace directed;
  const std::vector<std::pair<double, double>> operands = {
      {1, 3}, {2, 7}, {1e-300, 1e-20}, {0x1p-1074, 0.5}, {0.1, 0.2}, {0, 5}, {4, 2}};
  for (const auto& [a, b] : operands) {
    const Rational ea = to_rational(a), eb = to_rational(b);
    INFO(a << " and " << b);
    CHECK(to_rational(add_down(a, b)) <= ea + eb);
    CHECK(ea + eb <= to_rational(add_up(a, b)));
    CHECK(to_rational(mul_down(a, b)) <= ea * eb);
    CHECK(ea * eb <= to_rational(mul_up(a, b)));
    CHECK(to_rational(div_down(a, b)) <= ea / eb);
    CHECK(ea / eb <= to_rational(div_up(a, b)));
    CHECK(to_rational(sub_down(a, b)) <= ea - eb);
    CHECK(ea - eb <= to_rational(sub_up(a, b)));
  }
  CHECK(div_up(1, 3) > div_down(1, 3));
  CHECK(succ(0.0) == std::numeric_limits<double>::denorm_min());
  CHECK(pred(0.0) == -std::numeric_limits<double>::denorm_min());
  // A sum of 1000 products 0.1·0.1 in round-to-nearest, widened, encloses the exact 1000·(0.1)².
  double s = 0;
  for (int i = 0; i < 1000; ++i) s += 0.1 * 0.1;
  const Rational exact = 1000 * to_rational(0.1) * to_rational(0.1);
  const SumWidening w(1000, 2);
  CHECK(to_rational(w.down(s)) <= exact);
  CHECK(exact <= to_rational(w.up(s)));
  CHECK(w.up(s) - w.down(s) <= 1e-12 * s);
}

using ExactP = std::integral_constant<int, 0>;     // p as a point enclosure
using EnclosedP = std::integral_constant<int, 1>;  // p known to within 2^-100

TEMPLATE_TEST_CASE(
    "binomial windows enclose every exact probability, and the tail bounds what is left out",
    "[accountant][unit]", ExactP, EnclosedP) {
  // Exact rational p (point enclosure) and a p known only to an interval of width 2^-100.
  const std::vector<std::pair<unsigned, Rational>> cases = {{1, Rational(1, 4)},
                                                            {7, Rational(3, 10)},
                                                            {60, Rational(1, 2)},
                                                            {300, Rational(1, 7)},
                                                            {900, Rational(9, 10)}};
  for (const auto& [n, p] : cases) {
    PrecisionScope scope(128);
    Interval enclosure = interval_from(p);
    if (TestType::value == 1)
      enclosure = Interval(enclosure + interval_hull(Real(0), Real(pow(Real(2), -100))));
    const WindowPmf w = binomial_pmf(n, enclosure, 1e-30);
    Rational outside(0);
    for (unsigned j = 0; j <= n; ++j) {
      const Rational exact = choose(n, j) * power(p, j) * power(Rational(1 - p), n - j);
      const std::int64_t i = static_cast<std::int64_t>(j) - w.first;
      INFO("n = " << n << ", j = " << j);
      if (i < 0 || i >= static_cast<std::int64_t>(w.size()))
        outside += exact;
      else
        CHECK(encloses(w, j, exact));
    }
    CHECK(outside <= to_rational(w.tail));
    CHECK(w.tail <= 1e-30);
    // The enclosures are tight: a relative width near the number of steps times 2^-52.
    for (std::size_t i = 0; i < w.size(); ++i)
      if (w.hi[i] > 1e-200) CHECK(w.hi[i] - w.lo[i] <= 1e-10 * w.hi[i]);
  }
}

TEST_CASE("a binomial window is the same at every working precision and on worker threads", "[accountant][unit]") {
  // Its arithmetic runs at its own 192 bits: built beside others on worker threads at d = 32 768
  // (where the working precision may not change), it once raced them for the process-wide
  // precision and computed a log-gamma at 32 896 bits, minutes instead of milliseconds.
  const auto window = [] { return binomial_pmf(100, interval_from(Rational(3, 4))); };
  WindowPmf at64;
  {
    PrecisionScope scope(64);
    at64 = window();
  }
  PrecisionScope scope(32896);
  std::vector<WindowPmf> built(4);
  run_on_threads(2, [&](unsigned t) {
    for (std::size_t i = t; i < built.size(); i += 2) built[i] = window();
  });
  for (const WindowPmf& w : built) {
    CHECK(w.first == at64.first);
    CHECK(w.lo == at64.lo);
    CHECK(w.hi == at64.hi);
    CHECK(w.tail == at64.tail);
  }
  // And a worker that asks for another working precision is stopped, whichever thread it is.
  CHECK_THROWS_AS(run_on_threads(2, [](unsigned t) { PrecisionScope other(t == 1 ? 64 : 32896 + 1000); }),
                  std::logic_error);
  // The caller's own precision is a no-op there, and is left as it was.
  run_on_threads(2, [](unsigned) { PrecisionScope same(32896); });
  CHECK(working_precision_bits() >= 32896);
}

TEST_CASE("a binomial law at p = 0 or 1 is a point mass, and a p straddling 0 is undecidable",
          "[accountant][unit]") {
  const WindowPmf zero = binomial_pmf(10, interval_from(Rational(0)));
  CHECK(zero.first == 0);
  CHECK(zero.hi == std::vector<double>{1.0});
  const WindowPmf one = binomial_pmf(10, interval_from(Rational(1)));
  CHECK(one.first == 10);
  CHECK_THROWS_AS(binomial_pmf(10, interval_hull(Real(0), Real(0.5))), undecidable);
}

TEST_CASE("the certified law of every configuration encloses its exact rational law",
          "[accountant][unit]") {
  struct Case {
    unsigned long n;
    Rational gamma;
    TargetClient::Role role;
    Neighbour rel;
    Rational center;
  };
  // c = rα = 2 (e^ε = 3): remove-one sums meet (c/(rα) = 1 is odd), so the laws overlap.
  const std::vector<Case> cases = {
      {9, Rational(1), TargetClient::Role::ldpq, Neighbour::replace_one, Rational(0)},
      {40, Rational(1, 2), TargetClient::Role::ldpq, Neighbour::replace_one, Rational(0)},
      {41, Rational(3, 10), TargetClient::Role::leader, Neighbour::replace_one, Rational(0)},
      {30, Rational(1, 2), TargetClient::Role::ldpq, Neighbour::remove_one, Rational(2)},
      {30, Rational(1, 2), TargetClient::Role::leader, Neighbour::remove_one, Rational(2)},
      {120, Rational(0), TargetClient::Role::leader, Neighbour::replace_one, Rational(0)}};
  PrecisionScope scope(128);
  for (const Case& c : cases) {
    const AccountSetting s = setting(c.n, c.gamma, c.role, c.rel, c.center);
    const AggregateFamily family(s);
    REQUIRE_FALSE(family.disjoint());
    for (std::size_t top : {std::size_t(0), family.other_ldpq() / 3, family.other_ldpq()})
      for (std::size_t cand = 0; cand < family.candidates(); ++cand) {
        const NeighbouringPmfs laws = family.laws(Configuration{cand, top});
        REQUIRE_FALSE(laws.disjoint);
        const auto [p, q] = exact_laws(s, Configuration{cand, top});
        INFO("n = " << c.n << ", γ = " << to_string(c.gamma) << ", " << to_string(c.rel)
                    << ", j = " << top << ", candidate " << cand);
        for (const auto& [value, prob] : p) CHECK(encloses(laws.p, count_of(s, value), prob));
        for (const auto& [value, prob] : q) CHECK(encloses(laws.q, count_of(s, value), prob));
      }
  }
}

TEST_CASE("the configuration named as attaining a lower bound attains it, in the order it names",
          "[accountant][unit]") {
  // For each query, the named parts (configurations in words, each used `uses` times, each pair of
  // datasets in its stated order) are found among the family's configurations, and their exact
  // composition's δ(ε) is at least the accountant's δ_lower. Where the other order of a lone part
  // has less, the order is what makes the name right: such cases must occur (n = 100: the lower
  // bound's member is the mirror image of one the family computed, used the other way round), or
  // the test could not tell a wrong order from a right one.
  PrecisionScope scope(128);
  int order_decides = 0;
  for (const auto& [n, gamma] : std::vector<std::pair<unsigned long, Rational>>{
           {8, Rational(1)}, {12, Rational(1, 2)}, {21, Rational(1, 3)}, {100, Rational(1, 2)}})
    for (const unsigned k : {1u, 2u, 3u})
      for (const Rational& at : {Rational(1, 4), Rational(1, 2), Rational(1)}) {
        const AccountSetting s = setting(n, gamma, TargetClient::Role::ldpq, Neighbour::replace_one);
        const AggregateFamily family(s);
        const Accountant account = Accountant(s).compose(k);
        const std::optional<AttainedBy> by = account.attaining_delta(at);
        REQUIRE(by.has_value());
        INFO("n = " << n << ", k = " << k << ", ε = " << to_string(at) << ", " << by->parts.size() << " parts");
        std::optional<PrivacyLoss> named, other;
        for (std::size_t i = 0; i < by->parts.size(); ++i) {
          const ConfigurationWords& w = by->parts[i];
          std::optional<Configuration> found;
          for (std::size_t c = 0; c < family.candidates() && !found; ++c)
            for (std::size_t top = 0; top <= family.other_ldpq() && !found; ++top) {
              const ConfigurationWords d = family.describe(Configuration{c, top});
              if (d.client_1 == w.client_1 && d.replaced_by == w.replaced_by && d.others_ldpq == w.others_ldpq)
                found = Configuration{c, top};
            }
          REQUIRE(found.has_value());
          const auto [p, q] = exact_laws(s, *found);
          const unsigned uses = static_cast<unsigned>(by->repeats[i]);
          const PrivacyLoss as_named = (by->reversed[i] ? PrivacyLoss::of(q, p) : PrivacyLoss::of(p, q)).power(uses);
          const PrivacyLoss reversed = (by->reversed[i] ? PrivacyLoss::of(p, q) : PrivacyLoss::of(q, p)).power(uses);
          named = named ? PrivacyLoss::compose(*named, as_named) : as_named;
          other = other ? PrivacyLoss::compose(*other, reversed) : reversed;
        }
        const Interval e = Interval(exp(interval_from(at)));
        const double lower = account.delta(at).lower;
        CHECK(lower <= upper_of(named->delta_at(e)).convert_to<double>() * (1 + 1e-12));
        if (by->parts.size() == 1 && upper_of(other->delta_at(e)).convert_to<double>() < lower) ++order_decides;
      }
  CHECK(order_decides > 0);
}

TEST_CASE("remove-one at c = 0 gives disjoint laws: δ = 1 at every ε, and no finite ε",
          "[accountant][unit]") {
  const AccountSetting s =
      setting(50, Rational(1, 2), TargetClient::Role::ldpq, Neighbour::remove_one);
  CHECK(AggregateFamily(s).disjoint());
  const auto [p, q] = exact_laws(s);
  CHECK(PrivacyLoss::of(p, q).infinite_mass == 1);  // the exact law agrees
  const Accountant a(s);
  const TwoSided d = a.delta(Rational(10));
  CHECK(d.lower == 1);
  CHECK(d.upper == 1);
  CHECK(std::isinf(a.compose(1000).epsilon(Rational(1, 100000)).lower));
}

TEST_CASE(
    "a pair of laws: ε_lower <= exact ε <= ε_upper for its exact k-fold composition, k = 1, 2, 3",
    "[accountant][unit]") {
  // The accountant of two given laws composes each order (P against Q, Q against P) with itself:
  // the same pair of datasets in every use, the peers' question.
  const Rational delta(1, 1000);
  PrecisionScope scope(128);
  for (const auto& [n, gamma, top] : std::vector<std::tuple<unsigned long, Rational, std::size_t>>{
           {8, Rational(1), 0}, {12, Rational(1, 2), 2}, {10, Rational(1, 5), 1}}) {
    const AccountSetting s = setting(n, gamma, TargetClient::Role::ldpq, Neighbour::replace_one);
    const AggregateFamily family(s);
    const NeighbouringPmfs laws = family.laws(Configuration{0, top});
    const auto [p, q] = exact_laws(s, Configuration{0, top});
    const Accountant one(laws.p, laws.q, laws.disjoint);
    for (unsigned k = 1; k <= 3; ++k) {
      const PrivacyLoss::AtDelta exact = exp_eps_for_delta(p, q, delta, k);
      REQUIRE_FALSE(exact.infinite);
      const double eps = ln_of(exact.exp_eps);
      const TwoSided b = one.compose(k).epsilon(delta);
      INFO("n = " << n << ", k = " << k << ": " << b.lower << " <= " << eps << " <= " << b.upper);
      CHECK(b.lower <= eps * (1 + 1e-12));
      CHECK(eps <= b.upper * (1 + 1e-12));
      CHECK(b.upper - b.lower <= 0.02 * b.upper + 1e-9);  // and the bracket is narrow
      // δ at the exact ε's neighbourhood, both directions, against the exact composition.
      const Rational at(Rational(to_rational(eps)));
      const Interval e = Interval(exp(interval_from(at)));
      const PrivacyLoss fwd = PrivacyLoss::of(p, q).power(k), bwd = PrivacyLoss::of(q, p).power(k);
      const Interval df = fwd.delta_at(e), db = bwd.delta_at(e);
      const double exact_lo = std::max(lower_of(df), lower_of(db)).convert_to<double>();
      const double exact_hi = std::max(upper_of(df), upper_of(db)).convert_to<double>();
      const TwoSided d = one.compose(k).delta(at);
      CHECK(d.lower <= exact_hi);
      CHECK(exact_lo <= d.upper);
    }
  }
}

TEST_CASE("where the worst configuration has disjoint mass above δ, both bounds are infinite",
          "[accountant][unit]") {
  // Client 1 in a pair at n = 10: some configuration has outputs one world cannot produce, with
  // mass above δ (the exact worst case says so, and names it).
  const Rational delta(1, 1000);
  const AccountSetting s =
      setting(10, Rational(1, 5), TargetClient::Role::leader, Neighbour::replace_one);
  const ExactUcdpResult worst = exact_ucdp(exact_setting(s), Neighbour::replace_one);
  REQUIRE(worst.infinite);
  REQUIRE(worst.disjoint_mass > delta);
  const TwoSided b = Accountant(s).epsilon(delta);
  CHECK(std::isinf(b.lower));
  CHECK(std::isinf(b.upper));
  const TwoSided d =
      Accountant(s).delta(Rational(1000));  // δ(ε) for large ε: the largest disjoint mass
  CHECK(to_rational(d.lower) <= worst.disjoint_mass + Rational(1, 1000000000));
  CHECK(worst.disjoint_mass <= to_rational(d.upper));
}

TEST_CASE(
    "a pair of laws: the RDP bound is never below ε_upper, and the bracket stays narrow for k up "
    "to 10^6",
    "[accountant][unit]") {
  const Rational delta(1, 100000);
  const AccountSetting s =
      setting(400, Rational(1, 2), TargetClient::Role::ldpq, Neighbour::replace_one);
  const auto [p, q] = exact_laws(s);
  PrecisionScope scope(128);
  const NeighbouringPmfs laws = AggregateFamily(s).laws(Configuration{});
  const Accountant one(laws.p, laws.q, laws.disjoint);
  for (const std::uint64_t k : {std::uint64_t(10), std::uint64_t(1000), std::uint64_t(1000000)}) {
    const RenyiBound rdp = rdp_epsilon(p, q, BigInt(k), delta);
    REQUIRE_FALSE(rdp.infinite);
    const TwoSided b = one.compose(k).epsilon(delta);
    INFO("k = " << k << ": [" << b.lower << ", " << b.upper << "], RDP "
                << rdp.eps.convert_to<double>());
    CHECK(b.lower <= b.upper);
    CHECK(b.upper <= rdp.eps.convert_to<double>());
    CHECK(b.upper / b.lower - 1 <= 0.01);
  }
}

TEST_CASE("the accountant's inputs are checked and named", "[accountant][unit]") {
  const AccountSetting s =
      setting(20, Rational(1, 2), TargetClient::Role::ldpq, Neighbour::replace_one);
  const Accountant a(s);
  names([&] { a.epsilon(Rational(0)); }, "delta");
  names([&] { a.epsilon(Rational(1)); }, "delta");
  names([&] { a.delta(Rational(-1)); }, "eps");
  names([&] { a.compose(0); }, "compositions");
  names([&] { a.compose(kMaxCompositions + 1); }, "compositions");
  AccountSetting big = s;
  big.n = kMaxAccountClients + 1;
  names([&] { AggregateFamily{big}; }, "n");
  AccountSetting none = s;
  none.gamma = Rational(0);
  names([&] { AggregateFamily{none}; }, "role");
}

namespace {

RoundKind kind_of(const AccountSetting& s, std::uint64_t m) {
  RoundKind k;
  k.setting = s;
  k.coordinates = m;
  return k;
}

}  // namespace

TEST_CASE(
    "a run with one role is that role's accountant composed R times, per coordinate and per model",
    "[accountant][unit]") {
  // γ = 1: every client quantizes alone every round, so the run is A^R exactly.
  const AccountSetting s =
      setting(40, Rational(1), TargetClient::Role::ldpq, Neighbour::replace_one);
  const Rational delta(1, 100000);
  constexpr std::uint64_t kM = 1000;
  RunAccountant run(kind_of(s, kM), delta);
  CHECK_FALSE(run.drawn());
  const Accountant one(s);
  double before = 0;
  for (std::uint64_t r = 1; r <= 3; ++r) {
    const RunAccountant::Bounds b = run.after(r);
    // The ledger's answer for the same run (corbin account's), per coordinate and over the model.
    RunLedger coordinate, model;
    coordinate.step(kind_of(s, 1), r);
    model.step(kind_of(s, kM), r);
    CHECK(b.coordinate == coordinate.epsilon(delta).bounds.upper);
    CHECK(b.model == model.epsilon(delta).bounds.upper);
    CHECK(b.model <= one.upper_only().compose(kM * r).epsilon(delta).upper);
    // Another certified composition of the same k (a round, then its rounds): the brackets overlap.
    CHECK(one.compose(kM).compose(r).epsilon(delta).lower <= b.model);
    CHECK(b.model > b.coordinate);
    CHECK(b.model > before);
    before = b.model;
  }
}

TEST_CASE("a run with both roles is the mixture over the server's draws of roles", "[accountant][unit]") {
  // n = 100, γ = 1/2: 50 LDPQ clients and 25 pairs, client 1 alone with probability 1/2; both
  // roles finite at δ = 1e-5.
  const AccountSetting alone =
      setting(100, Rational(1, 2), TargetClient::Role::ldpq, Neighbour::replace_one);
  AccountSetting paired = alone;
  paired.role = TargetClient::Role::leader;
  CHECK(alone_probability(alone) == Rational(1, 2));
  const Rational delta(1, 100000);
  constexpr std::uint64_t kM = 4;
  RunAccountant run(kind_of(alone, kM), delta);
  REQUIRE(run.drawn());
  const Accountant a = Accountant(alone).compose(kM), b = Accountant(paired).compose(kM);
  const Rational w(1, 2);
  // One round: δ(ε) of a labelled mixture is the mixture of the two δ(ε), for every ε.
  const Accountant round = a.mixture(w, b, "alone", "paired");
  for (const Rational eps : {Rational(1, 10), Rational(1, 2), Rational(1)}) {
    INFO("ε = " << to_string(eps));
    // The dominating pairs' (each role's own upper end may be tighter: its search of the
    // adversary's choices, which the mixture does not repeat).
    const double mixed = 0.5 * a.upper_only().delta(eps).upper + 0.5 * b.upper_only().delta(eps).upper;
    CHECK(round.delta(eps).upper >= 0.5 * a.delta(eps).lower + 0.5 * b.delta(eps).lower);
    // Linear but for the common grid the two are put on (0.034 % at ε = 1/10 here).
    CHECK(round.delta(eps).upper <= mixed * (1 + 1e-3));
    CHECK(round.delta(eps).lower <= round.delta(eps).upper);
    CHECK(round.delta(eps).lower >= 0.25 * (a.delta(eps).lower + b.delta(eps).lower));
  }
  std::vector<RunAccountant::Bounds> seen;
  // Built once (each builds both roles' worst cases): the ledger, stepped one round at a time (the
  // same doubles however the rounds come), and a pair dominating both roles every round (any
  // sequence, even an adversary's), never tighter.
  RunLedger ledger;
  RoundKind worst = kind_of(alone, kM);
  worst.any_role_sequence = true;
  RunAccountant any_sequence(worst, delta);
  for (std::uint64_t r = 1; r <= 3; ++r) {
    seen.push_back(run.after(r));
    REQUIRE(std::isfinite(seen.back().model));
    ledger.step(kind_of(alone, kM), 1);
    CHECK(seen.back().model == ledger.epsilon(delta).bounds.upper);
    CHECK(seen.back().model <= round.compose(r).epsilon_upper(delta));
    // Against every role sequence, each with its probability: the mixture's upper end covers the
    // mixture of the sequences' lower ends at its own ε (δ there is the mixture of theirs).
    const Rational at = to_rational(seen.back().model);
    double covered = 0;
    for (std::uint64_t lone = 0; lone <= r; ++lone) {
      const Accountant x = lone == 0   ? b.compose(r)
                           : lone == r ? a.compose(r)
                                       : a.compose(lone).then(b.compose(r - lone));
      covered += to_double(Rational(choose(r, lone)) / Rational(BigInt(1) << r)) * x.delta(at).lower;
    }
    CHECK(covered <= to_double(delta) * (1 + 1e-9));
    CHECK(any_sequence.after(r).model >= seen.back().model);
    if (r > 1) CHECK(seen[r - 1].model > seen[r - 2].model);
  }
  // Asked for fewer rounds, the same bounds.
  const RunAccountant::Bounds again = run.after(2);
  CHECK(again.coordinate == seen[1].coordinate);
  CHECK(again.model == seen[1].model);
}

TEST_CASE("a paired client of a small population is exposed: the run's bound is infinite",
          "[accountant][unit]") {
  // n = 50, γ = 1/2: with its partner at c − r, client 1's pair sums to one "+" at c + r, but can
  // give none at c − r; the other 25 LDPQ clients all say "−" with probability (2/3)^25: drawn
  // into a pair with probability 1/2, (2/3)^25 / 2 > 10^-5 is certainly lost.
  const AccountSetting s =
      setting(50, Rational(1, 2), TargetClient::Role::ldpq, Neighbour::replace_one);
  const Rational delta(1, 100000);
  RunAccountant run(kind_of(s, 10), delta);
  CHECK(std::isfinite(Accountant(s).epsilon(delta).upper));
  const RunAccountant::Bounds b = run.after(1);
  CHECK(std::isinf(b.coordinate));
  CHECK(std::isinf(b.model));
  CHECK(std::isinf(run.after(2).model));
}

namespace {

/// P(Bin(n, q) < x), exactly.
Rational below(unsigned n, const Rational& q, unsigned x) {
  Rational out(0);
  for (unsigned k = 0; k < x && k <= n; ++k)
    out += choose(n, k) * power(q, k) * power(Rational(1 - q), n - k);
  return out;
}

/// The floor's bound is certified, and one more survivor would break a third of the budget.
void check_floor(unsigned trials, const Rational& q, std::uint64_t floor, const Rational& share) {
  INFO("Bin(" << trials << ", " << to_string(q) << ") floor " << floor);
  CHECK(below(trials, q, static_cast<unsigned>(floor)) <= share);
  if (floor < trials) CHECK(below(trials, q, static_cast<unsigned>(floor) + 1) > share);
}

}  // namespace

TEST_CASE(
    "dropout floors are the largest whose exact binomial tails fit an equal share of the budget each",
    "[accountant][unit]") {
  const double budget = 1e-3;
  // The budget is shared among the binomials that have trials: LDPQ positions beside client 1,
  // and the other pairs' two (broken, complete).
  const Rational third = to_rational(budget) / 3, half = to_rational(budget) / 2;
  {  // CorBin-FL, n = 50, p = 1/4: 24 other pairs, broken w.p. 3/8, complete w.p. 9/16; no LDPQ.
    const Rational p(1, 4);
    const DropoutFloor f = dropout_floor(50, Rational(0), p, budget);
    CHECK(f.ldpq == 0);
    check_floor(24, Rational(3, 8), f.broken, half);
    check_floor(24, Rational(9, 16), f.complete, half);
    CHECK(f.broken > 0);
    CHECK(f.complete > 0);
    const Rational exact = below(24, Rational(3, 8), unsigned(f.broken)) +
                           below(24, Rational(9, 16), unsigned(f.complete));
    CHECK(exact <= to_rational(f.failure));
    CHECK(f.failure <= budget);
    CHECK(f.alone.ldpq == f.broken + 1);
    CHECK(f.alone.pairs == f.complete);
    REQUIRE(f.paired.has_value());
    CHECK(f.paired->ldpq == f.broken);
    CHECK(f.paired->pairs == f.complete + 1);
  }
  {  // AugCorBin-FL, n = 51, γ = 1/2: 26 LDPQ positions (25 others) and 12 other pairs.
    const Rational p(1, 10);
    const DropoutFloor f = dropout_floor(51, Rational(1, 2), p, budget);
    check_floor(25, Rational(9, 10), f.ldpq, third);
    check_floor(12, Rational(18, 100), f.broken, third);
    check_floor(12, Rational(81, 100), f.complete, third);
  }
  {  // γ = 1: nobody is ever paired.
    const DropoutFloor f = dropout_floor(40, Rational(1), Rational(1, 2), budget);
    check_floor(39, Rational(1, 2), f.ldpq, to_rational(budget));
    CHECK_FALSE(f.paired.has_value());
  }
  // More dropout never raises a floor.
  CHECK(dropout_floor(200, Rational(1), Rational(1, 2), budget).ldpq <
        dropout_floor(200, Rational(1), Rational(1, 10), budget).ldpq);
}

TEST_CASE("an accountant over explicit survivors is the population of the same counts",
          "[accountant][unit]") {
  const Rational delta(1, 100000);
  AccountSetting counted =
      setting(50, Rational(1), TargetClient::Role::ldpq, Neighbour::replace_one);
  counted.counts = PopulationCounts{21, 0};
  const AccountSetting same =
      setting(21, Rational(1), TargetClient::Role::ldpq, Neighbour::replace_one);
  RunAccountant a(kind_of(counted, 100), delta), b(kind_of(same, 100), delta);
  const RunAccountant::Bounds x = a.after(2), y = b.after(2);
  CHECK(x.coordinate == y.coordinate);
  CHECK(x.model == y.model);
  // Fewer survivors, less noise: a larger bound (the ladder's direction).
  AccountSetting fewer = counted;
  fewer.counts = PopulationCounts{6, 0};
  RunAccountant c(kind_of(fewer, 100), delta);
  CHECK(c.after(2).coordinate > x.coordinate);
  // A lone client with nobody else is randomized response with odds 3 at c ± r: ε(δ) is
  // ln(3 − 4δ), just below ln 3, and the certified bound sits within the grid's width of it.
  AccountSetting lone = counted;
  lone.counts = PopulationCounts{1, 0};
  const double alone = RunAccountant(kind_of(lone, 1), delta).after(1).coordinate;
  CHECK(alone >= std::log(3 - 4e-5) * (1 - 1e-12));
  CHECK(alone <= std::log(3.0) * 1.01);
}

TEST_CASE("dropout floors' and explicit counts' inputs are checked and named",
          "[accountant][unit]") {
  names([] { dropout_floor(1, Rational(0), Rational(1, 2), 1e-3); }, "n");
  names([] { dropout_floor(50, Rational(2), Rational(1, 2), 1e-3); }, "gamma");
  names([] { dropout_floor(50, Rational(0), Rational(0), 1e-3); }, "dropout");
  names([] { dropout_floor(50, Rational(0), Rational(1), 1e-3); }, "dropout");
  names([] { dropout_floor(50, Rational(0), Rational(1, 2), 0.0); }, "failure budget");
  names([] { dropout_floor(50, Rational(0), Rational(1, 2), std::nan("")); }, "failure budget");
  AccountSetting s = setting(50, Rational(1), TargetClient::Role::ldpq, Neighbour::replace_one);
  s.counts = PopulationCounts{0, 0};
  names([&] { AggregateFamily{s}; }, "counts");
  s.counts = PopulationCounts{0, 3};
  names([&] { AggregateFamily{s}; }, "role");
  names([&] { RunAccountant(kind_of(s, 0), Rational(1, 2)); }, "m");
  names([&] { RunAccountant(kind_of(setting(50, Rational(1), TargetClient::Role::ldpq, Neighbour::replace_one), 1),
                            Rational(1)); }, "delta");
}

TEST_CASE("either(a, b) dominates both, and every sequence of the two", "[accountant][unit]") {
  // Two mechanisms on different grids: 40 clients all on LDPQ at e^ε = 3, and 400 at e^ε = 2.
  const AccountSetting s1 = setting(40, Rational(1), TargetClient::Role::ldpq, Neighbour::replace_one);
  AccountSetting s2 = setting(400, Rational(1), TargetClient::Role::ldpq, Neighbour::replace_one);
  s2.budget = Budget::make(Budget::Kind::exp_eps, Rational(2));
  const Accountant a(s1), b(s2);
  const Accountant e = a.either(b);
  for (const Rational delta : {Rational(1, 10), Rational(1, 1000), Rational(1, 100000)}) {
    // Each alone is a member: the dominating pair's bound is at least each one's lower bound.
    CHECK(e.epsilon_upper(delta) >= a.epsilon(delta).lower);
    CHECK(e.epsilon_upper(delta) >= b.epsilon(delta).lower);
    // And at least each one's upper bound: its masses only move up onto the common grid, and its
    // moments are the larger of the two.
    CHECK(e.epsilon_upper(delta) >= a.epsilon_upper(delta));
    CHECK(e.epsilon_upper(delta) >= b.epsilon_upper(delta));
    // Any sequence: a then b, b then a, a twice; against the composition of the either.
    const Accountant e2 = e.compose(2);
    for (const Accountant& seq : {a.then(b), b.then(a), a.compose(2)})
      CHECK(e2.epsilon_upper(delta) >= seq.epsilon(delta).lower);
    // Its lower bound is attained by one of the two, used throughout: never above the larger
    // upper bound.
    const TwoSided x = e.epsilon(delta);
    CHECK(x.lower <= x.upper);
    CHECK(x.lower <= std::max(a.epsilon_upper(delta), b.epsilon_upper(delta)));
  }
  // Where one of the two is certainly disjoint (δ = 1 at every ε), so is the either.
  const AccountSetting disjoint =
      setting(50, Rational(1, 2), TargetClient::Role::ldpq, Neighbour::remove_one);
  CHECK(std::isinf(a.either(Accountant(disjoint)).epsilon_upper(Rational(1, 1000))));
  CHECK_THROWS_AS(a.either(b.compose(2)), corbin::invalid_argument);
}

TEST_CASE("an outcome off Q's window is an infinite loss only where the window leaves nothing out",
          "[accountant][unit]") {
  // Bin(2000, 0.6) against Bin(2000, 0.4), each on its certified window (tails at most 10^-60):
  // most of P's window lies past Q's, where Q has no mass in its window but is positive (every
  // loss is at most 2000·ln 1.5, about 811). The optimistic PLD counted that as P-mass at +∞, a
  // lower end of +∞ above a finite upper one.
  PrecisionScope scope(128);
  NeighbouringPmfs laws;
  append_aligned(binomial_pmf(2000, interval_from(Rational(3, 5))), binomial_pmf(2000, interval_from(Rational(2, 5))),
                 laws);
  REQUIRE(laws.q.tail > 0);
  const LowerPld lower = lower_pld(laws.p, laws.q, false, PldLimits{});
  CHECK(lower.infinite == 0);
  CHECK(delta_lower(lower, Rational(0)) > 0.99);  // total variation: the laws barely overlap
  const TwoSided eps = Accountant(laws.p, laws.q, false).epsilon(Rational(1, 100000));
  CHECK(std::isfinite(eps.lower));
  CHECK(eps.lower <= eps.upper);  // the upper end may be +∞: a pessimistic PLD sends Q's gaps there
  CHECK(eps.lower <= 2000 * std::log(1.5) * (1 + 1e-9));
  CHECK(eps.lower > 100);
  // Where Q is 0 exactly (a law on its whole support, nothing left out), the loss is infinite.
  const LowerPld exact = lower_pld(few_point_pmf({interval_from(Rational(1, 2)), interval_from(Rational(1, 2)), Interval(0)}),
                                   few_point_pmf({Interval(0), interval_from(Rational(1, 2)), interval_from(Rational(1, 2))}),
                                   false, PldLimits{});
  CHECK(exact.infinite == Approx(0.5).epsilon(1e-12));
}

TEST_CASE("a mixture of two laws of few outcomes far apart on the finest grid fits in memory",
          "[accountant][unit]") {
  // Client 1 leading a pair alone in its round (n = 12, γ = 1/2, e^ε = 3): its candidates' laws have
  // three outcomes, one or two of finite loss, each on a grid of step 2^-40; mixed with a round
  // it sat out (loss 0, 0.69 away) the common grid asked for 7.6·10^11 cells: std::bad_alloc.
  AccountSetting s;
  s.n = 12;
  s.gamma = Rational(1, 2);
  s.role = TargetClient::Role::leader;
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
  PrecisionScope scope(128);
  const AggregateFamily family(s);
  const PldLimits limits;
  const WindowPmf point = few_point_pmf({Interval(1)});
  const LowerPld silent = lower_pld(point, point, false, limits);
  for (std::size_t c = 0; c < family.candidates(); ++c) {
    const ClientCandidate<Interval>& x = family.candidate(c);
    NeighbouringPmfs laws;
    append_aligned(few_point_pmf(x.with), few_point_pmf(x.neighbour), laws);
    const LowerPld alone = lower_pld(laws.p, laws.q, false, limits);
    // Half the time it sat out: δ(0) halves (the optimistic PLD may only lose to the grid).
    const LowerPld mixed = mixture(alone, silent, Rational(1, 2), limits);
    CHECK(delta_lower(mixed, Rational(0)) <= delta_lower(alone, Rational(0)) / 2 * (1 + 1e-12));
    CHECK(delta_lower(mixed, Rational(0)) >= delta_lower(alone, Rational(0)) / 2 * (1 - 1e-6));
    CHECK(mixed.infinite == Approx(alone.infinite / 2).epsilon(1e-12));
  }
}

TEST_CASE("a likelihood ratio past the doubles stays in the optimistic PLD", "[accountant][unit]") {
  // Q's upper end at an outcome can be subnormal (a dropout of 10^-100000), so P/Q overflows: the
  // atom's cell was +∞ converted to an integer (undefined; in practice the lowest) and the atom
  // dropped, a lower end of 0. Kept in the top cell its loss is as large as a double's e^ε allows.
  PrecisionScope scope(128);
  const WindowPmf p = few_point_pmf({interval_from(Rational(1, 2)), interval_from(Rational(1, 2))});
  Rational tiny(1);
  for (int i = 0; i < 330; ++i) tiny /= 10;  // below the smallest subnormal, 4.9e-324
  const WindowPmf q = few_point_pmf({interval_from(Rational(1) - tiny), interval_from(tiny)});
  REQUIRE(q.hi[1] > 0);
  REQUIRE(q.hi[1] < 1e-320);
  const PldLimits limits;
  const LowerPld one = lower_pld(p, q, false, limits);
  CHECK(delta_lower(one, Rational(700)) >= 0.49);
  CHECK(eps_lower(one, Rational(1, 100)) >= 700);
  // Composed, the +∞ loss is grouped like any other (its cell was another undefined conversion).
  const LowerPld two = compose(one, one, limits);
  CHECK(delta_lower(two, Rational(700)) >= 0.74);
  CHECK(delta_lower(two, Rational(700)) <= 1);
}

namespace {

/// Randomized response at e^ε0 (two outputs), with weight d of each law moved to an output of
/// its own (P's and Q's disjoint): its δ(ε) = (1 − d)·RR's + d.
std::pair<WindowPmf, WindowPmf> leaky_response(double eps0, double d) {
  const double e = std::exp(eps0), keep = 1 - d;
  const auto at = [](double x) { return interval_from(to_rational(x)); };
  return {few_point_pmf({at(keep * e / (1 + e)), at(keep / (1 + e)), at(d), Interval(0)}),
          few_point_pmf({at(keep / (1 + e)), at(keep * e / (1 + e)), Interval(0), at(d)})};
}
double response_delta(double eps0, double d, double eps, int uses) {
  // k uses of the leaky response: Σ_j C(k, j) (keep p)^(k−j) (keep q)^j (1 − e^(ε − (k − 2j)ε0))₊
  // over the outputs without a leak, and 1 − keep^k for a leak in some use.
  const double e = std::exp(eps0), keep = 1 - d, p = e / (1 + e), q = 1 / (1 + e);
  double sum = 1 - std::pow(keep, uses);
  for (int j = 0; j <= uses; ++j) {
    const double loss = (uses - 2 * j) * eps0;
    if (loss <= eps) continue;
    sum += std::tgamma(uses + 1) / (std::tgamma(j + 1) * std::tgamma(uses - j + 1)) * std::pow(keep * p, uses - j) *
           std::pow(keep * q, j) * (1 - std::exp(eps - loss));
  }
  return sum;
}

}  // namespace

TEST_CASE("the meet of two dominating pairs is below both and still above the mechanism, composed too",
          "[accountant][unit]") {
  // The mechanism: randomized response at e^1. Two pairs dominate it in different places:
  // randomized response at e^1.3 (tight in the tail: no leak) and at e^0.9 with a tenth leaked
  // (tight in the body). Their δ curves cross, so the meet is below both somewhere.
  PldLimits limits;
  const auto [pa, qa] = leaky_response(1.3, 0);
  const auto [pb, qb] = leaky_response(0.9, 0.1);
  const UpperPld a = upper_pld(pa, qa, false, limits), b = upper_pld(pb, qb, false, limits);
  const UpperPld m = meet(a, b, limits);
  double gain = 0;
  for (int i = 0; i <= 40; ++i) {
    const Rational eps(i, 20);  // 0 to 2
    INFO("ε = " << eps);
    const double e = to_double(eps), truth = response_delta(1, 0, e, 1);
    REQUIRE(response_delta(1.3, 0, e, 1) >= truth);  // both dominate the mechanism
    REQUIRE(response_delta(0.9, 0.1, e, 1) >= truth);
    const double da = delta_upper(a, eps), db = delta_upper(b, eps), dm = delta_upper(m, eps);
    CHECK(dm >= truth);
    CHECK(dm <= std::min(da, db) * (1 + 1e-9) + 1e-15);
    gain = std::max(gain, std::min(da, db) - dm);
  }
  CHECK(gain > 0.01);  // below both between the corners (0.9 and 1.3): a chord of the two
  // Composed: the meet's powers stay above the mechanism's, and below both pairs' powers.
  for (std::uint64_t k : {2u, 5u}) {
    const UpperPld mk = power(m, k, limits), ak = power(a, k, limits), bk = power(b, k, limits);
    for (const Rational& eps : {Rational(1, 2), Rational(1), Rational(2), Rational(4)}) {
      INFO("k = " << k << ", ε = " << eps);
      const double truth = response_delta(1, 0, to_double(eps), static_cast<int>(k));
      CHECK(delta_upper(mk, eps) >= truth);
      CHECK(delta_upper(mk, eps) <= std::min(delta_upper(ak, eps), delta_upper(bk, eps)) * (1 + 1e-9) + 1e-15);
    }
  }
  // A pair met with itself is itself, to the rounding of its masses.
  const UpperPld same = meet(a, a, limits);
  for (const Rational& eps : {Rational(0), Rational(1, 2), Rational(1)})
    CHECK(delta_upper(same, eps) == Approx(delta_upper(a, eps)).epsilon(1e-12));
}

TEST_CASE("a curve bound from suffix sums is the walk's delta_upper at every point and above the mechanism",
          "[accountant][unit]") {
  // Randomized response at e^1 with a hundredth leaked, composed 6 times: a PLD with many cells
  // and mass at +∞. CurveBound sums the terms near ln t one by one and the rest from suffix sums;
  // delta_upper walks every term above ε. Both bound one curve, rounding differently: they agree
  // to 10^−12, from below the lowest loss to past the top, and both lie above the exact curve.
  PldLimits limits;
  const auto [p, q] = leaky_response(1, 0.01);
  const UpperPld one = upper_pld(p, q, false, limits), six = power(one, 6, limits);
  const CurveBound curve(six);
  std::size_t compared = 0;
  for (int i = -160; i <= 160; ++i) {
    const Rational eps(i, 20);  // −8 to 8
    INFO("ε = " << eps);
    const double t = std::exp(to_double(eps)) * (1 - 1e-15);  // at or below e^ε
    const double walk = delta_upper(six, eps), bound = curve.at(t);
    CHECK(bound >= walk * (1 - 1e-12));
    CHECK(bound <= walk * (1 + 1e-12) + 1e-300);
    if (i >= 0) CHECK(bound >= response_delta(1, 0.01, to_double(eps), 6));
    ++compared;
  }
  CHECK(compared == 321);
  CHECK(curve.at(0) == Approx(1).epsilon(1e-12));
  CHECK(curve.at(1e300) >= six.infinite);
  CHECK_THROWS_AS(curve.at(-1), invalid_argument);
  // The pair under the bound: above the mechanism's curve; a grid with no points is refused.
  const auto bound = [&](double t) { return curve.at(t); };
  const UpperPld under = pld_under_curve(bound, -2, 7, six.scale, limits);
  for (const Rational& eps : {Rational(0), Rational(1), Rational(3)})
    CHECK(delta_upper(under, eps) >= response_delta(1, 0.01, to_double(eps), 6));
  CHECK_THROWS_AS(pld_under_curve(bound, 1, 0, six.scale, limits), invalid_argument);
  CHECK_THROWS_AS(pld_under_curve(bound, -1, std::nan(""), six.scale, limits), invalid_argument);
}
