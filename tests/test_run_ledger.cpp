// A run's ledger asked round after round (issue 36, the researcher's accountant): the kept powers
// (pld/power_memo.hpp, Accountant::keeping_powers) give the same doubles as powers computed afresh,
// whatever order the questions come in, and RunLedger::epsilon_upper / delta_upper, computed from
// them, are certified upper ends no lower than the full answers' and the same however the rounds
// came.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/pld/power_memo.hpp"
#include "corbin/privacy/run/run_ledger.hpp"

using namespace corbin;

namespace {

/// The same doubles, bit for bit (NaN would fail both ways).
bool same(const UpperPld& a, const UpperPld& b) {
  return a.scale == b.scale && a.offset == b.offset && a.mass.size() == b.mass.size() &&
         std::memcmp(&a.infinite, &b.infinite, sizeof(double)) == 0 &&
         (a.mass.empty() || std::memcmp(a.mass.data(), b.mass.data(), a.mass.size() * sizeof(double)) == 0);
}

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

/// A pair of laws with several losses (the n = 2 pair of e^ε = 3 and a skewed one).
UpperPld pair_pld(const PldLimits& limits) {
  PrecisionScope scope(128);
  const std::vector<Interval> p{interval_from(Rational(3, 16)), interval_from(Rational(4, 16)),
                                interval_from(Rational(9, 16))},
      q{interval_from(Rational(9, 16)), interval_from(Rational(4, 16)), interval_from(Rational(3, 16))};
  return upper_pld(few_point_pmf(p), few_point_pmf(q), false, limits);
}

RoundKind kind(unsigned long n, const Rational& gamma) {
  RoundKind k;
  k.setting.n = n;
  k.setting.gamma = gamma;
  k.setting.budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
  return k;
}

}  // namespace

TEST_CASE("kept powers are power()'s doubles, in any order of k", "[run_ledger][unit]") {
  PldLimits limits;
  limits.max_cells = 256;  // coarsening happens within a few squarings
  const UpperPld a = pair_pld(limits);
  PowerMemo<UpperPld> kept(a, limits, 64);  // a small store: past it, chains of products
  for (std::uint64_t k = 1; k <= 150; ++k) {
    INFO("k = " << k);
    CHECK(same(kept.power(k), power(a, k, limits)));
  }
  PowerMemo<UpperPld> fresh(a, limits);
  for (std::uint64_t k : {std::uint64_t(1000), std::uint64_t(777), std::uint64_t(1) << 20, (std::uint64_t(1) << 33) + 5,
                          std::uint64_t(3)}) {
    INFO("k = " << k);
    CHECK(same(fresh.power(k), power(a, k, limits)));
  }
  CHECK_THROWS_AS(fresh.power(0), invalid_argument);
}

TEST_CASE("an accountant keeping its powers composes to the same doubles", "[run_ledger][unit]") {
  // A pair of laws whose two directions differ (each its own powers kept).
  PrecisionScope scope(128);
  const std::vector<Interval> p{interval_from(Rational(3, 16)), interval_from(Rational(10, 16)),
                                interval_from(Rational(3, 16))},
      q{interval_from(Rational(9, 16)), interval_from(Rational(6, 16)), interval_from(Rational(1, 16))};
  const Accountant one(few_point_pmf(p), few_point_pmf(q), false);
  const Accountant keeping = one.keeping_powers(), copy = keeping;  // copies share what is kept
  for (std::uint64_t k : {1, 2, 3, 7, 8, 9, 40, 41, 100}) {
    INFO("k = " << k);
    const Accountant composed = one.compose(k), kept = (k % 2 ? keeping : copy).compose(k);
    CHECK(kept.compositions() == composed.compositions());
    CHECK(same(kept.epsilon_upper(Rational(1, 100000)), composed.epsilon_upper(Rational(1, 100000))));
    CHECK(same(kept.delta_upper(Rational(1)), composed.delta_upper(Rational(1))));
    CHECK(same(kept.epsilon_lower(Rational(1, 100000)), composed.epsilon_lower(Rational(1, 100000))));
    const Accountant twice = kept.compose(2);  // a composed accountant keeps nothing of its base's
    CHECK(same(twice.epsilon_upper(Rational(1, 100000)), composed.compose(2).epsilon_upper(Rational(1, 100000))));
  }
}

TEST_CASE("a ledger's fast upper end is the same however the rounds come, and never below its answer's",
          "[run_ledger][unit]") {
  // A training loop: one round, then step() after each further one, asking each time.
  RunLedger loop;
  const RoundKind k = kind(12, Rational(1));
  loop.step(k);
  double previous = 0;
  for (std::uint64_t r = 1; r <= 70; ++r) {
    INFO("round " << r);
    const double upper = loop.epsilon_upper(Rational(1, 100000));
    CHECK(upper >= previous);  // more rounds never release less
    previous = upper;
    if (r == 1 || r == 3 || r == 70) {  // the full answers search more: a few rounds
      const RunLedger::Answer full = loop.epsilon(Rational(1, 100000));
      CHECK(upper >= full.bounds.upper);
      RunLedger at_once;
      at_once.step(k, r);
      CHECK(same(upper, at_once.epsilon_upper(Rational(1, 100000))));
      CHECK(loop.delta_upper(Rational(2)) >= loop.delta(Rational(2)).bounds.upper);
      CHECK(same(loop.delta_upper(Rational(2)), at_once.delta_upper(Rational(2))));
    }
    loop.step(k);
  }
  CHECK(previous > 2.0);  // 70 rounds of e^ε = 3 among 12 clients: well past one round's

  // A mixed run: dropout (δ split, the failure ladder), a given mechanism, and rounds added to a
  // phase after a query; the same answers as the same run put together at once.
  const auto mixed_run = [&](bool asked) {
    RunLedger run;
    RoundKind alone = kind(12, Rational(1, 2));
    alone.role = TargetClient::Role::ldpq;  // a pair's member has no finite ε under replace one (S1)
    run.step(alone, 3);
    RoundKind dropping = kind(12, Rational(1));
    dropping.dropout = Rational(1, 10);
    run.step(dropping, 2);
    if (asked) (void)run.epsilon_upper(Rational(1, 1000));
    run.step(dropping);  // the dropout phase's β changes: its kept round is rebuilt
    AccountSetting s;
    s.n = 8;
    s.gamma = Rational(1);
    s.budget = Budget::make(Budget::Kind::exp_eps, Rational(2));
    s.role = TargetClient::Role::ldpq;
    run.step(Accountant(s), 4);
    return run;
  };
  const RunLedger mixed = mixed_run(true), fresh = mixed_run(false);
  const RunLedger::Answer e = mixed.epsilon(Rational(1, 1000));
  CHECK(same(mixed.epsilon_upper(Rational(1, 1000)), fresh.epsilon_upper(Rational(1, 1000))));
  CHECK(mixed.epsilon_upper(Rational(1, 1000)) >= e.bounds.upper);
  CHECK(std::isfinite(mixed.epsilon_upper(Rational(1, 1000))));
  CHECK(same(mixed.delta_upper(Rational(3)), fresh.delta_upper(Rational(3))));
  CHECK(mixed.delta_upper(Rational(3)) >= mixed.delta(Rational(3)).bounds.upper);

  // A pair of laws (no family, so nothing searched): the fast upper end is the answer's.
  PrecisionScope scope(128);
  const std::vector<Interval> p{interval_from(Rational(1, 4)), interval_from(Rational(3, 4))},
      q{interval_from(Rational(3, 4)), interval_from(Rational(1, 4))};
  RunLedger laws;
  laws.step(Accountant(few_point_pmf(p), few_point_pmf(q), false), 30);
  CHECK(same(laws.epsilon_upper(Rational(1, 1000)), laws.epsilon(Rational(1, 1000)).bounds.upper));

  // Another budget is another kind of round: nothing kept for the first may answer for it.
  const RunLedger wider = loop.with_budget(Budget::make(Budget::Kind::exp_eps, Rational(9)));
  RunLedger wider_fresh;
  RoundKind nine = k;
  nine.setting.budget = Budget::make(Budget::Kind::exp_eps, Rational(9));
  wider_fresh.step(nine, loop.rounds());
  CHECK(same(wider.epsilon_upper(Rational(1, 100000)), wider_fresh.epsilon_upper(Rational(1, 100000))));
  CHECK(wider.epsilon_upper(Rational(1, 100000)) > loop.epsilon_upper(Rational(1, 100000)));
  CHECK_THROWS_AS(mixed.epsilon_upper(Rational(0)), invalid_argument);
  CHECK_THROWS_AS(mixed.delta_upper(Rational(-1)), invalid_argument);
  CHECK(RunLedger().epsilon_upper(Rational(1, 2)) == 0);
}

TEST_CASE("a ledger accounts one pair of datasets: a round of another relation is refused by name",
          "[run_ledger][unit]") {
  // Client 1 replaced in some rounds and removed in others is no pair of datasets: the question
  // has no answer, so the ledger refuses it instead of composing the two kinds' bounds.
  RoundKind replace = kind(12, Rational(1)), remove = replace;
  remove.setting.relation = Neighbour::remove_one;
  remove.setting.center = Rational(2);
  RunLedger ledger;
  ledger.step(replace, 2);
  try {
    ledger.step(remove, 1);
    FAIL("a remove-one round after replace-one rounds was accepted");
  } catch (const invalid_argument& e) {
    CHECK(e.parameter() == "relation");
  }
  RunLedger removed;
  removed.step(remove, 1);
  CHECK_THROWS_AS(ledger.then(removed), invalid_argument);
  // A given mechanism's rounds (a room's) say their relation too: refused the same way, before
  // or after a kind's rounds, and in then().
  const Accountant room = Accountant::from_laws({Rational(3, 4), Rational(1, 4)}, {Rational(1, 4), Rational(3, 4)});
  CHECK_THROWS_AS(ledger.step_rounds(room, 1, 1, Neighbour::remove_one), invalid_argument);
  RunLedger rooms;
  rooms.step_rounds(room, 1, 2, Neighbour::remove_one);
  CHECK_THROWS_AS(rooms.step(replace, 1), invalid_argument);
  CHECK_THROWS_AS(ledger.then(rooms), invalid_argument);
  RunLedger replaced_room;
  replaced_room.step_rounds(room, 1, 2, Neighbour::replace_one);
  CHECK_THROWS_AS(rooms.then(replaced_room), invalid_argument);
  // A pair of laws of one's own is the question itself: it goes with either.
  rooms.step(room, 1);
  CHECK(rooms.rounds() == 3);
  // The same relation throughout is accepted, and the refusals left the ledger as it was.
  ledger.step(replace, 1);
  CHECK(ledger.rounds() == 3);
  RunLedger again;
  again.step(replace, 4);
  ledger.then(again);
  CHECK(ledger.rounds() == 7);
}

TEST_CASE("a run repeated keeps its phases in order: the adversary's program depends on it",
          "[run_ledger][unit]") {
  // n = 4 on LDPQ, a round at e^ε = 2 then one at 3, twice: A, B, A, B. Lengthening each phase
  // instead (A, A, B, B) is another run for the adversary over menus in turn: at δ = 1/10 it gave
  // [1.3674527, 1.3674599], whose upper end is below the repeated run's lower end 1.3700491.
  RoundKind a = kind(4, Rational(1)), b = a;
  a.setting.budget = Budget::make(Budget::Kind::exp_eps, Rational(2));
  const Rational delta(1, 10);
  const auto repeated = [&](std::uint64_t k) {  // A, B, repeated k times
    RunLedger l;
    l.step(a);
    l.step(b);
    l.repeat(k);
    return l;
  };
  const RunLedger twice = repeated(2);
  CHECK(twice.phases().size() == 4);
  CHECK(twice.rounds() == 4);
  RunLedger by_steps, lengthened;
  for (const RoundKind* k : {&a, &b, &a, &b}) by_steps.step(*k);
  lengthened.step(a, 2);
  lengthened.step(b, 2);
  const TwoSided in_order = twice.epsilon(delta).bounds, stepped = by_steps.epsilon(delta).bounds,
                 other = lengthened.epsilon(delta).bounds;
  INFO("A, B, A, B [" << in_order.lower << ", " << in_order.upper << "]; A, A, B, B [" << other.lower << ", "
                      << other.upper << "]");
  CHECK(same(in_order.lower, stepped.lower));
  CHECK(same(in_order.upper, stepped.upper));
  CHECK(other.upper < in_order.lower);
  // Past kMaxPlanParts phases each phase is lengthened in place, and the run is then searched in
  // no one order: its bracket holds the run in order (here the pairs and the phases' own searches).
  const RunLedger many = repeated(600);
  CHECK(many.phases().size() == 2);
  CHECK(many.rounds() == 1200);
  const TwoSided any = many.epsilon(Rational(1, 100000)).bounds;
  CHECK(any.lower <= any.upper);
  CHECK(any.lower > 0);
}
