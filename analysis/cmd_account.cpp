// `corbin account`: certified two-sided privacy accounting of Theorem 3's mechanism at any n up
// to 10^6 clients, composed over m coordinates and T rounds (k = m·T up to 2^40): ε_lower <= ε(δ)
// <= ε_upper, or with --at-eps, δ_lower <= δ(ε) <= δ_upper (privacy/run/accountant.hpp).
// Bounds are printed as decimals rounded outward (an upper bound up, a lower bound down), each
// with its double twin under key + "_approx"; "infinite" where no finite ε reaches δ.

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

#include "account.hpp"
#include "commands.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/worst_case/dropout_mixture.hpp"
#include "corbin/privacy/worst_case/survivors.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run_app.hpp"
#include "witness.hpp"

namespace corbin::cli {

namespace {

struct FieldName {
  const char* key;
  std::string* (*get)(AccountArgs&);
  bool per_round;
};
const FieldName kFields[] = {
    {"exp-eps", [](AccountArgs& a) { return &a.budget.exp_eps; }, true},
    {"eps", [](AccountArgs& a) { return &a.budget.eps; }, true},
    {"alpha", [](AccountArgs& a) { return &a.budget.alpha; }, true},
    {"n", [](AccountArgs& a) { return &a.n; }, true},
    {"gamma", [](AccountArgs& a) { return &a.gamma; }, true},
    {"m", [](AccountArgs& a) { return &a.m; }, true},
    {"rounds", [](AccountArgs& a) { return &a.rounds; }, true},
    {"neighbours", [](AccountArgs& a) { return &a.neighbours; }, true},
    {"role", [](AccountArgs& a) { return &a.role; }, true},
    {"dropout", [](AccountArgs& a) { return &a.dropout; }, true},
    {"sampling-rate", [](AccountArgs& a) { return &a.sampling_rate; }, true},
    {"center", [](AccountArgs& a) { return &a.geometry.center; }, true},
    {"radius", [](AccountArgs& a) { return &a.geometry.radius; }, true},
    {"bits", [](AccountArgs& a) { return &a.geometry.bits; }, true},
    {"variant", [](AccountArgs& a) { return &a.geometry.variant; }, true},
    {"mechanism", [](AccountArgs& a) { return &a.mechanism; }, true},
    {"calibration-delta", [](AccountArgs& a) { return &a.calibration_delta; }, true},
    {"laws", [](AccountArgs& a) { return &a.laws; }, false},
    {"delta", [](AccountArgs& a) { return &a.delta; }, false},
    {"at-eps", [](AccountArgs& a) { return &a.at_eps; }, false},
    {"cells", [](AccountArgs& a) { return &a.cells; }, false}};

/// Whether the options ask for Theorem 3's mechanism (the default, augcorbin and corbin), whose
/// kinds of round the ledger builds itself; any other registered room gives its own builder.
bool theorem3(const AccountArgs& a) {
  return a.mechanism.empty() || a.mechanism == "augcorbin" || a.mechanism == "corbin";
}

/// Each client's dropout probability in a round, from --dropout or --sampling-rate q (each client,
/// client 1 included, takes part with probability q: the dropout 1 − q).
Rational dropout_of(const AccountArgs& a) {
  Rational out = parse_rational(a.dropout, "--dropout");
  if (out < 0 || out >= 1) throw invalid_argument("--dropout", a.dropout, "in [0, 1)");
  if (!a.sampling_rate.empty()) {
    if (out != 0) throw invalid_argument("--sampling-rate", a.sampling_rate, "absent with --dropout (q is dropout 1 − q)");
    const Rational q = parse_rational(a.sampling_rate, "--sampling-rate");
    if (q <= 0 || q > 1) throw invalid_argument("--sampling-rate", a.sampling_rate, "in (0, 1]");
    out = Rational(1) - q;
  }
  return out;
}

/// One kind of round from its options, and how many rounds; `budget` replaces the options' own
/// (--target-eps's trial).
std::pair<RoundKind, std::uint64_t> kind_of(const AccountArgs& a, const std::optional<Budget>& budget) {
  RoundKind k;
  AccountSetting& s = k.setting;
  s.budget = budget ? *budget : a.budget.budget();
  s.n = parse_count(a.n, "--n", kMaxAccountClients, 2);
  if (!a.calibration_delta.empty())
    throw invalid_argument("--calibration-delta", a.calibration_delta, "absent: only --mechanism gaussian reads it");
  if (a.mechanism == "corbin") {  // CorBin-FL: every client paired (an odd one out alone)
    if (!a.gamma.empty()) throw invalid_argument("--gamma", a.gamma, "absent for --mechanism corbin (γ = 0)");
    s.gamma = Rational(0);
  } else {
    if (a.gamma.empty()) throw invalid_argument("--gamma", "missing", "given for Theorem 3's mechanism (augcorbin)");
    s.gamma = parse_rational(a.gamma, "--gamma");
  }
  if (s.gamma < 0 || s.gamma > 1) throw invalid_argument("--gamma", a.gamma, "in [0, 1]");
  s.center = a.geometry.c();
  s.radius = a.geometry.r();
  s.bits = a.geometry.d();
  s.variant = a.geometry.v();
  s.relation = parse_neighbour(a.neighbours);
  if (a.role == "ldpq")
    k.role = TargetClient::Role::ldpq;
  else if (a.role == "paired")
    k.role = TargetClient::Role::leader;
  else if (a.role == "worst")
    k.any_role_sequence = true;
  else if (a.role != "drawn")
    throw invalid_argument("--role", quote(a.role), "drawn, worst, ldpq or paired");
  // The ranges the code accepts, as the messages print them (0 rounds or coordinates is refused).
  k.coordinates = parse_count(a.m, "--m", kMaxCompositions, 1);
  const std::uint64_t rounds = parse_count(a.rounds, "--rounds", kMaxCompositions, 1);
  if (k.coordinates > kMaxCompositions / rounds)
    throw invalid_argument("--rounds", a.rounds,
                           "such that m·T <= " + std::to_string(kMaxCompositions) +
                               " (m = " + std::to_string(k.coordinates) + ")");
  k.dropout = dropout_of(a);
  check_round_kind(k);
  return {k, rounds};
}

/// The arguments of each kind of round: the options, then each --phase's changes to them. A
/// phase may set a budget only where `budgets` (--target-eps gives every round the one it finds).
std::vector<AccountArgs> kinds_of(const AccountArgs& a, bool budgets) {
  std::vector<AccountArgs> out{a};
  for (std::size_t i = 0; i < a.phases.size(); ++i) {
    const std::string name = "--phase " + std::to_string(i + 1);
    AccountArgs next = out.back();
    std::vector<std::string> seen;
    bool budget = false;
    for (const std::string& item : split_list(a.phases[i])) {
      const std::size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::string keys;
        for (const std::string& k : account_field_names(true)) keys += (keys.empty() ? "" : ", ") + k;
        throw invalid_argument(name, quote(item), "key=value (keys: " + keys + ")");
      }
      const std::string key = item.substr(0, eq);
      std::string* field = account_field(next, key, true);
      if (field == nullptr)
        throw invalid_argument(name, quote(key), "a key a round has (not delta, at-eps or cells: the query's)");
      if (std::find(seen.begin(), seen.end(), key) != seen.end())
        throw invalid_argument(name, quote(key) + " twice", "each key once");
      seen.push_back(key);
      if (key == "exp-eps" || key == "eps" || key == "alpha") {
        if (!budgets)
          throw invalid_argument(name, quote(a.phases[i]), "without a budget under --target-eps (every round gets ε_p)");
        if (budget) throw invalid_argument(name, "two budgets", "at most one of exp-eps, eps, alpha");
        // A phase's budget replaces the rounds' before it, in whichever form either is given.
        if (eq + 1 == item.size()) throw invalid_argument(name, quote(item), "a budget with its value (" + key + "=3, say)");
        next.budget.clear_budget();
        budget = true;
      }
      *field = item.substr(eq + 1);
    }
    // A phase's sampling rate replaces the dropout before it, and its dropout the sampling rate:
    // two ways to say one thing.
    const auto has = [&](const char* key) { return std::find(seen.begin(), seen.end(), key) != seen.end(); };
    if (has("sampling-rate") && !has("dropout")) next.dropout = "0";
    if (has("dropout") && !has("sampling-rate")) next.sampling_rate.clear();
    // A phase that changes the mechanism keeps from the rounds before it what every mechanism
    // reads (the budget, n, m, the geometry's centre and radius, the relation); the earlier
    // mechanism's own options (γ, dropout, role, shared bits, variant, the Gaussian's calibration δ)
    // were its rounds', and hold here only where the phase names them again.
    const auto mechanism = [](const AccountArgs& x) { return x.mechanism.empty() ? std::string("augcorbin") : x.mechanism; };
    if (has("mechanism") && mechanism(next) != mechanism(out.back())) {
      const AccountArgs fresh;
      if (!has("gamma")) next.gamma = fresh.gamma;
      if (!has("dropout")) next.dropout = fresh.dropout;
      if (!has("sampling-rate")) next.sampling_rate = fresh.sampling_rate;
      if (!has("role")) next.role = fresh.role;
      if (!has("bits")) next.geometry.bits = fresh.geometry.bits;
      if (!has("variant")) next.geometry.variant = fresh.geometry.variant;
      if (!has("calibration-delta")) next.calibration_delta = fresh.calibration_delta;
    }
    out.push_back(std::move(next));
  }
  return out;
}

/// A room's rounds (any registered mechanism with a builder: Mechanism::round_accountant): one
/// coordinate of one round, and its uses (m·T). The options it does not read are refused.
std::pair<Accountant, AccountPhase> room_of(const AccountArgs& a, const PldLimits& limits) {
  const fl::Registry& registry = fl::Registry::global();
  if (registry.find_if(a.mechanism) == nullptr)
    throw invalid_argument("--mechanism", quote(a.mechanism), "a registered mechanism (" + registry.names() + ")");
  const fl::Mechanism& room = registry.find(a.mechanism);
  const std::string name = "--mechanism " + a.mechanism;
  if (!a.gamma.empty()) throw invalid_argument("--gamma", a.gamma, "absent for " + name + " (augcorbin's share)");
  if (a.role != "drawn") throw invalid_argument("--role", a.role, "absent for " + name + " (its clients are alone)");
  if (a.geometry.bits != "5") throw invalid_argument("--bits", a.geometry.bits, "absent for " + name + " (no shared bits)");
  if (a.geometry.variant != "corrected")
    throw invalid_argument("--variant", a.geometry.variant, "absent for " + name + " (no CorBinQ)");
  fl::CoordinateSetting s;
  if (room.reads(fl::SettingParameter::budget))
    s.budget = a.budget.budget();
  else if (a.budget.given())
    throw invalid_argument("--alpha, --exp-eps or --eps", "given", "absent for " + name + ", which takes no budget");
  s.center = a.geometry.c();
  s.radius = a.geometry.r();
  s.relation = parse_neighbour(a.neighbours);  // a room without a builder for it says so below
  s.dropout = dropout_of(a);                   // and one without a mixture over survivors
  // The δ a room's calibration reads (the Gaussian's σ), as the room declares (Mechanism::reads).
  if (room.reads(fl::SettingParameter::delta)) {
    if (a.calibration_delta.empty())
      throw invalid_argument("--calibration-delta", "missing", "the δ " + name + " is calibrated at");
    s.delta = parse_rational(a.calibration_delta, "--calibration-delta");
    if (s.delta <= 0 || s.delta >= 1) throw invalid_argument("--calibration-delta", a.calibration_delta, "in (0, 1)");
  } else if (!a.calibration_delta.empty()) {
    throw invalid_argument("--calibration-delta", a.calibration_delta, "absent for " + name + ", which does not read it");
  }
  AccountPhase phase;
  phase.mechanism = a.mechanism;
  phase.relation = s.relation;
  phase.dropout = s.dropout;
  phase.budget = room.reads(fl::SettingParameter::budget) ? std::optional<Budget>(s.budget) : std::nullopt;
  phase.n = parse_count(a.n, "--n", kMaxAccountClients, 2);
  phase.m = parse_count(a.m, "--m", kMaxCompositions, 1);
  phase.rounds = parse_count(a.rounds, "--rounds", kMaxCompositions, 1);
  if (phase.m > kMaxCompositions / phase.rounds)
    throw invalid_argument("--rounds", a.rounds,
                           "such that m·T <= " + std::to_string(kMaxCompositions) + " (m = " + std::to_string(phase.m) + ")");
  s.coordinates = phase.m;
  const fl::RoomAccountant one = fl::room_accountant(room, s, phase.n, limits);
  if (one.dropout_refused)
    throw invalid_argument(a.sampling_rate.empty() ? "--dropout" : "--sampling-rate",
                           a.sampling_rate.empty() ? a.dropout : a.sampling_rate, "absent for " + name + ": " + one.why_not);
  if (!one.round)
    throw invalid_argument("--mechanism", a.mechanism, "a mechanism with a certified accountant: " + one.why_not);
  return {*one.round, phase};
}

/// --laws P:Q composed --rounds times (the peers' question: one pair of datasets in every use).
/// The laws are the mechanism: every option a round's mechanism reads is refused by name.
std::pair<RunLedger, AccountPhase> laws_of(const AccountArgs& a, const PldLimits& limits) {
  const AccountArgs unset;
  const std::pair<const char*, bool> given[] = {
      {"--n", !a.n.empty()},
      {"--gamma", !a.gamma.empty()},
      {"--m", a.m != unset.m},
      {"--mechanism", !a.mechanism.empty()},
      {"--calibration-delta", !a.calibration_delta.empty()},
      {"--dropout", a.dropout != unset.dropout},
      {"--sampling-rate", !a.sampling_rate.empty()},
      {"--role", a.role != unset.role},
      {"--neighbours", !a.neighbours.empty() && a.neighbours != "replace"},
      {"--phase", !a.phases.empty()},
      {"--target-eps", !a.target_eps.empty()},
      {"--alpha, --exp-eps or --eps", a.budget.given()},
      {"--center", a.geometry.center != unset.geometry.center},
      {"--radius", a.geometry.radius != unset.geometry.radius},
      {"--bits", a.geometry.bits != unset.geometry.bits},
      {"--variant", a.geometry.variant != unset.geometry.variant}};
  for (const auto& [name, is_given] : given)
    if (is_given) throw invalid_argument(name, "given", "absent with --laws (the laws are the mechanism)");
  const std::size_t colon = a.laws.find(':');
  if (colon == std::string::npos || a.laws.find(':', colon + 1) != std::string::npos)
    throw invalid_argument("--laws", quote(a.laws), "P:Q, two comma lists of probabilities (1/4,3/4:3/4,1/4)");
  const auto values = [&](const std::string& list, const char* which) {
    std::vector<Rational> out;
    const std::vector<std::string> items = split_list(list);
    if (items.size() > Accountant::kMaxLawValues)  // before reading them
      throw invalid_argument(std::string("--laws (") + which + ")", std::to_string(items.size()) + " values",
                             "at most " + std::to_string(Accountant::kMaxLawValues));
    for (std::size_t i = 0; i < items.size(); ++i)
      out.push_back(parse_rational(items[i], std::string("--laws (") + which + "[" + std::to_string(i) + "])"));
    return out;
  };
  AccountPhase phase;
  phase.mechanism = "laws";
  phase.rounds = parse_count(a.rounds, "--rounds", kMaxCompositions, 1);
  RunLedger ledger(limits);
  try {
    ledger.step(Accountant::from_laws(values(a.laws.substr(0, colon), "p"), values(a.laws.substr(colon + 1), "q"), limits),
                phase.rounds);
  } catch (const invalid_argument& e) {
    if (e.parameter().rfind("--laws", 0) == 0) throw;
    throw invalid_argument("--laws (" + e.parameter() + ")", e.value(), e.rule());
  }
  return {std::move(ledger), phase};
}

/// The ledger of every kind of round, at `budget` (none: each kind's own), and each phase as asked.
RunLedger ledger_of(const std::vector<AccountArgs>& kinds, const std::optional<Budget>& budget,
                    const PldLimits& limits, std::vector<AccountPhase>* asked = nullptr) {
  RunLedger ledger(limits);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    try {
      if (!theorem3(kinds[i])) {
        if (budget) throw invalid_argument("--target-eps", "given", "for Theorem 3's mechanism only (augcorbin, corbin)");
        const auto [one, phase] = room_of(kinds[i], limits);
        ledger.step_rounds(one, fl::uses_per_round(phase.dropout, phase.m), phase.rounds, phase.relation,
                           phase.dropout > 0);
        if (asked) asked->push_back(phase);
        continue;
      }
      const auto [kind, rounds] = kind_of(kinds[i], budget);
      ledger.step(kind, rounds);
      if (asked)
        asked->push_back({kinds[i].mechanism.empty() ? "augcorbin" : kinds[i].mechanism, kind.setting.n,
                          kind.coordinates, rounds, kind.setting.budget, kind.setting.relation});
    } catch (const invalid_argument& e) {
      if (i == 0) throw;
      // The ledger's own names (relation) as the options that set them.
      throw invalid_argument("--phase " + std::to_string(i) + " (" + option_for(e.parameter()) + ")", e.value(), e.rule());
    }
  }
  return ledger;
}

}  // namespace

std::string* account_field(AccountArgs& a, std::string_view key, bool per_round) {
  for (const FieldName& f : kFields)
    if (key == f.key && (f.per_round || !per_round)) return f.get(a);
  return nullptr;
}

std::vector<std::string> account_field_names(bool per_round) {
  std::vector<std::string> out;
  for (const FieldName& f : kFields)
    if (f.per_round || !per_round) out.push_back(f.key);
  return out;
}

AccountOutcome compute_account(const AccountArgs& a) {
  AccountOutcome o;
  PldLimits limits;
  // Unset: a mechanism's default grid, or the finer one of a pair of laws (Accountant::kLawsCells).
  const std::string cells =
      !a.cells.empty() ? a.cells : std::to_string(a.laws.empty() ? PldLimits{}.max_cells : Accountant::kLawsCells);
  limits.max_cells = parse_count(cells, "--cells", 1ul << 16);
  if (limits.max_cells < 64) throw invalid_argument("--cells", cells, "at least 64");
  o.cells = limits.max_cells;
  o.at = !a.at_eps.empty();
  if (o.at && !a.delta.empty())
    throw invalid_argument("--at-eps", a.at_eps, "absent when --delta is given (one of the two)");
  if (o.at) {
    o.at_eps = parse_rational(a.at_eps, "--at-eps");
    if (o.at_eps <= 0) throw invalid_argument("--at-eps", a.at_eps, "> 0");
  } else {
    if (a.delta.empty()) throw invalid_argument("--delta", "missing", "given (or --at-eps)");
    o.delta = parse_rational(a.delta, "--delta");
    if (o.delta <= 0 || o.delta >= 1) throw invalid_argument("--delta", a.delta, "in (0, 1)");
  }
  // The question asked of the ledger built below, and why ε is infinite where it is.
  const auto answered = [&]() -> AccountOutcome& {
    o.answer = o.at ? o.ledger.delta(o.at_eps) : o.ledger.epsilon(o.delta);
    o.bounds = o.answer.bounds;
    if (!o.at) o.infinite = explain_infinite_eps(o.ledger, o.delta, o.answer);
    return o;
  };
  if (!a.laws.empty()) {
    auto [ledger, phase] = laws_of(a, limits);
    o.ledger = std::move(ledger);
    o.phases = {phase};
    return answered();
  }
  if (a.n.empty()) throw invalid_argument("--n", "missing", "given (clients n in [2, 10^6]), or --laws");
  const std::vector<AccountArgs> kinds = kinds_of(a, a.target_eps.empty());
  // Every certified decision on this path (binomial windows, thresholds of a transcendental α)
  // runs at --precision, or at what a kind's budget needs where that is more.
  const unsigned long d = parse_count(a.geometry.bits, "--bits", kMaxBits);
  PrecisionScope scope(a.budget.given() || !a.budget.precision.empty() ? a.budget.precision_bits(d)
                                                                         : default_precision_bits(d));
  if (!a.target_eps.empty()) {
    // The largest ε_p, the budget of every round, whose certified ε_upper(δ) meets the target:
    // a search on ε_p (dyadic rationals, to a relative 2^−20, largest_eps), each trial a whole
    // ledger. What is printed is certified at the ε_p found; "largest" is up to the step and the
    // bracket's width (ε_upper need not be exactly monotone in ε_p).
    if (o.at) throw invalid_argument("--target-eps", a.target_eps, "given with --delta (not --at-eps)");
    if (a.budget.given())
      throw invalid_argument("--target-eps", a.target_eps, "given without --alpha, --exp-eps or --eps (it solves for ε_p)");
    const Rational target = parse_rational(a.target_eps, "--target-eps");
    if (target <= 0) throw invalid_argument("--target-eps", a.target_eps, "> 0");
    // Any budget stands in while the kinds are read; largest_eps replaces it in every round.
    const RunLedger trial = ledger_of(kinds, Budget::make(Budget::Kind::exp_eps, Rational(3)), limits, &o.phases);
    const LargestBudget best = largest_eps(trial, target, o.delta);
    if (!best.largest)
      throw invalid_argument("--target-eps", a.target_eps,
                             "reachable: ε_p = 2^-20 already gives ε_upper " + std::to_string(best.eps_upper));
    if (!best.refuted)  // the cap is no largest ε_p: every budget the search tries meets the target
      throw invalid_argument("--target-eps", a.target_eps,
                             "reached within the search's cap: ε_p = " + std::to_string(kLargestBudgetCap) +
                                 " gives ε_upper " + std::to_string(best.eps_upper) + " only");
    o.largest_eps = best.largest;
    o.refuted_eps = best.refuted;
    for (AccountPhase& p : o.phases) p.budget = Budget::make(Budget::Kind::eps, *best.largest);  // not the stand-in
    o.ledger = trial.with_budget(Budget::make(Budget::Kind::eps, *best.largest));
  } else {
    o.ledger = ledger_of(kinds, std::nullopt, limits, &o.phases);
  }
  return answered();
}

namespace {

struct AccountCli {
  AccountArgs args;
  bool json = false;
};

/// x as a decimal with 15 significant digits, rounded up or down (so a bound stays one).
std::string decimal(double x, bool up) {
  if (std::isinf(x)) return "infinite";
  if (x == 0) return "0";
  mpfr_t v;
  mpfr_init2(v, 64);
  mpfr_set_d(v, x, MPFR_RNDN);  // exact
  mpfr_exp_t e = 0;
  char* s = mpfr_get_str(nullptr, &e, 10, 15, v, up ? MPFR_RNDU : MPFR_RNDD);
  std::string digits(s);
  mpfr_free_str(s);
  mpfr_clear(v);
  std::string sign;
  if (!digits.empty() && digits[0] == '-') {
    sign = "-";
    digits.erase(0, 1);
  }
  // value = 0.digits × 10^e
  std::string out;
  if (e <= 0)
    out = "0." + std::string(static_cast<std::size_t>(-e), '0') + digits;
  else if (static_cast<std::size_t>(e) >= digits.size())
    out = digits + std::string(static_cast<std::size_t>(e) - digits.size(), '0');
  else
    out = digits.substr(0, static_cast<std::size_t>(e)) + "." +
          digits.substr(static_cast<std::size_t>(e));
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return sign + out;
}

void put_bound(Json& out, const std::string& key, double x, bool up) {
  out[key] = decimal(x, up);
  if (std::isinf(x))
    out[key + "_approx"] = nullptr;
  else
    out[key + "_approx"] = x;
}

/// A configuration in words, with the role it gives client 1; `reversed`: its pair of datasets in
/// the other order than the first part's.
void run_account(const AccountCli& cli) {
  const AccountArgs& a = cli.args;
  const AccountOutcome o = compute_account(a);
  const AccountPhase& asked = o.phases.front();
  Json out = Json::object();
  const bool laws = !a.laws.empty();
  out["mechanism"] = asked.mechanism;
  if (laws) {
    out["laws"] = a.laws;
  } else {
    if (asked.budget) put_budget(out, *asked.budget);
    out["n"] = asked.n;
  }
  const RunLedger::Phase& front = o.ledger.phases().front();
  if (front.kind) put(out, "gamma", front.kind->setting.gamma);
  if (!laws) out["m"] = asked.m;
  // The rounds asked, summed (a pair of laws' phase counts uses).
  std::uint64_t rounds = 0;
  for (const AccountPhase& p : o.phases) rounds += p.rounds;
  out["rounds"] = std::to_string(rounds);
  out["compositions"] = std::to_string(o.ledger.compositions());
  if (!laws)  // the laws' pair of datasets is the user's
    out["neighbours"] = to_string(o.phases.front().relation);
  if (front.kind) {
    const RoundKind& first = *front.kind;
    out["role"] = a.role;
    const PopulationCounts counts = population_counts(first.setting.n, first.setting.gamma);
    out["ldpq_clients"] = counts.ldpq;
    out["pairs"] = counts.pairs;
  }
  if (o.ledger.phases().size() > 1) {
    Json phases = Json::array();
    for (std::size_t i = 0; i < o.ledger.phases().size(); ++i) {
      const RunLedger::Phase& p = o.ledger.phases()[i];
      Json x = Json::object();
      if (!p.kind) {  // a room's uses
        const AccountPhase& room = o.phases.at(i);
        x["mechanism"] = room.mechanism;
        x["rounds"] = std::to_string(room.rounds);
        if (room.budget) {
          Json budget = Json::object();
          put_budget(budget, *room.budget);
          x["budget"] = budget["budget"];
        }
        x["n"] = room.n;
        x["m"] = room.m;
        x["dropout"] = to_string(room.dropout);
        phases.push_back(x);
        continue;
      }
      const RoundKind& k = *p.kind;
      x["mechanism"] = o.phases.at(i).mechanism;
      x["rounds"] = std::to_string(p.rounds);
      Json budget = Json::object();
      put_budget(budget, k.setting.budget);
      x["budget"] = budget["budget"];
      x["n"] = k.setting.n;
      x["gamma"] = to_string(k.setting.gamma);
      x["m"] = k.coordinates;
      x["dropout"] = to_string(k.dropout);
      x["role"] = k.role ? (*k.role == TargetClient::Role::ldpq ? "ldpq" : "paired")
                  : k.any_role_sequence ? "worst" : "drawn";
      x["neighbours"] = k.setting.relation == Neighbour::replace_one ? "replace" : "remove";
      phases.push_back(x);
    }
    out["phases"] = phases;
  }
  if (o.largest_eps) {
    put(out, "target_eps", parse_rational(a.target_eps, "--target-eps"));
    put(out, "largest_eps_p", *o.largest_eps);
    if (o.refuted_eps) put(out, "refuted_eps_p", *o.refuted_eps);
  }
  if (o.at) {
    put(out, "at_eps", o.at_eps);
    put_bound(out, "delta_lower", o.bounds.lower, false);
    put_bound(out, "delta_upper", o.bounds.upper, true);
  } else {
    put(out, "delta", o.delta);
    put_bound(out, "eps_lower", o.bounds.lower, false);
    put_bound(out, "eps_upper", o.bounds.upper, true);
    if (!std::isinf(o.bounds.upper) && o.bounds.lower > 0)
      out["relative_width"] = o.bounds.upper / o.bounds.lower - 1;
    if (o.infinite) {
      // Said where the ∞ is printed, with what a client on LDPQ in every round gets.
      out["infinite_because"] = o.infinite->reason;
      Json ldpq = nullptr;
      if (o.infinite->ldpq) {
        ldpq = Json::object();
        put_bound(ldpq, "eps_lower", o.infinite->ldpq->lower, false);
        put_bound(ldpq, "eps_upper", o.infinite->ldpq->upper, true);
      }
      out["ldpq_role"] = ldpq;
    }
  }
  // References beside the certified bracket (upper bounds too, of the same worst case).
  Json ref = Json::object();
  put_bound(ref, "renyi", o.answer.moments, true);
  put_bound(ref, "basic", o.answer.basic, true);
  out[o.at ? "delta_upper_references" : "eps_upper_references"] = ref;
  const std::uint64_t mixed = o.ledger.survivors_mixed_rounds();
  if (mixed > 0) {
    Json d = Json::object();
    d["survivors_mixed_rounds"] = std::to_string(mixed);
    const std::string lower =
        o.ledger.dropout_rounds_bounded_below()
            ? "the lower bound takes every round as run, each client dropping (who survived and their sum; "
              "past the exact mixture, under replace one, a ladder of survivor counts at or above the true ones), "
              "the inputs fixed before each round's draw and, over rounds of one coordinate with few outcomes, "
              "chosen adaptively from the rounds before (given the round's role, where it is drawn)"
            : "the lower bound takes the dropout rounds as run, each client dropping (under replace one past the "
              "exact mixture a ladder of survivor counts at or above the true ones; under remove one up to " +
                  std::to_string(kMaxSumClients) + " clients at c = 0, " + std::to_string(kMaxCountedClients) +
                  " off centre), and leaves out the remove-one rounds past that";
    d["rule"] = "each dropout round is the mixture over who survived (a public draw, every input chosen knowing it; "
                "under remove one, where the server sees the sum alone, the draw is given to it too, for the noise "
                "rooms' rounds of one coordinate all of it but client 1's own survival, and for the noise rooms, and "
                "the lone rooms' rounds of two or more coordinates (or past their exact family's limits), this met "
                "with a second bound, an adversary told "
                "only how many survived, the pair below both, which covers inputs fixed before the draw or chosen "
                "knowing only how many survived): over the "
                "populations themselves where there are at most " +
                std::to_string(kMaxSurvivorPopulations) +
                ", else over a ladder of fewer survivors whose law dominates theirs, a round's coordinates sharing "
                "the draw; except that under remove one a lone room's round of one coordinate is the worst case "
                "over its clients' laws with dropout folded in (the sum alone, exact); no share of delta; " + lower;
    out["dropout"] = d;
  }
  out["cells"] = o.cells;
  Json worst = Json::object();
  if (!laws) {  // one pair: no family of configurations
    worst["configurations"] = o.answer.family_size;
    worst["computed_one_by_one"] = o.answer.configurations;
    worst["blocks_bounded_together"] = o.answer.blocks;
  }
  worst["covers"] =
      laws ? std::string("the given pair of laws in both orders, each order composed alone (one pair of datasets in "
                         "every use)")
           : std::string("every pair of datasets that differ in client 1 (its inputs, or its presence under "
                         "remove), in both orders, every other input anywhere in [c - r, c + r], chosen per "
                         "coordinate and round") +
                 (a.role == "drawn"   ? "; client 1's role as the server draws it each round (a mixture over role "
                                        "sequences, run/round.hpp)"
                  : a.role == "worst" ? "; client 1 in every role its round's population has, any sequence"
                                      : "");
  if (o.answer.attained) {
    worst["lower_bound_attained_by"] = audit::attained_json(*o.answer.attained);
    worst["worst_role"] = role_name(*o.answer.attained);
  }
  out["worst_case"] = worst;
  emit(std::cout, out, cli.json);
}

}  // namespace

void add_account(CLI::App& app) {
  auto cli = std::make_shared<AccountCli>();
  AccountArgs* args = &cli->args;
  auto* cmd = app.add_subcommand(
      "account", "certified two-sided ε(δ) or δ(ε) of Theorem 3's mechanism over a run's rounds (m·T compositions)");
  args->budget.add(*cmd);
  // The accountant's own limit on the budget (check_account_budget), said where it is given.
  cmd->get_option("--alpha")->description("α(ε) = (e^ε+1)/(e^ε−1), rational > 1 with e^ε at most 10^279 (exact)");
  cmd->get_option("--exp-eps")->description("e^ε, rational in (1, 10^279] (exact)");
  cmd->get_option("--eps")->description("ε in (0, 642] (e^ε at most 10^279; transcendental α: certified intervals)");
  cmd->add_option("--n", args->n, "clients n in [2, 10^6] (required but with --laws)");
  cmd->add_option("--gamma", args->gamma,
                  "fraction γ in [0, 1] of clients on LDPQ (1: all); Theorem 3's mechanism only");
  cmd->add_option("--mechanism", args->mechanism,
                  "a registered mechanism other than Theorem 3's (default augcorbin at --gamma; corbin; "
                  "ldp, pbm1, rqm2, rqm3, gaussian, laplace: the released sum of n alone clients)");
  cmd->add_option("--laws", args->laws,
                  "P:Q, a pair of laws of your own on the same outputs (comma lists of probabilities, exact: "
                  "1/4,3/4:3/4,1/4), in place of the mechanism's options; --rounds composes it");
  cmd->add_option("--calibration-delta", args->calibration_delta,
                  "δ in (0, 1) the Gaussian's σ is calibrated at (--mechanism gaussian)");
  cmd->add_option("--m", args->m, "coordinates m in [1, 2^40] (default 1; m·T at most 2^40)");
  cmd->add_option("--rounds", args->rounds, "rounds T in [1, 2^40] (default 1; m·T at most 2^40)");
  auto* dropout = cmd->add_option("--dropout", args->dropout, "each client's dropout probability in [0, 1) (default 0)");
  cmd->add_option("--sampling-rate", args->sampling_rate,
                  "Poisson client sampling: each client, client 1 included, takes part in a round with "
                  "probability q in (0, 1] (the same rounds as --dropout 1 − q)")
      ->excludes(dropout);
  cmd->add_option("--delta", args->delta, "δ in (0, 1): print eps_lower, eps_upper");
  cmd->add_option("--at-eps", args->at_eps, "ε > 0: print delta_lower, delta_upper instead");
  cmd->add_option("--target-eps", args->target_eps,
                  "ε > 0 with --delta: the largest ε_p (every round's budget) whose ε_upper(δ) meets it");
  args->neighbours = "replace";  // the relation the proof's cpSGD argument uses (a spec names its own)
  cmd->add_option("--neighbours", args->neighbours,
                  "replace | remove (client 1 changed or removed; default replace)");
  cmd->add_option("--role", args->role,
                  "client 1's role: drawn (as the server draws it each round, independently of the data) | "
                  "worst (every role the population has, any sequence, even one an adversary picks) | ldpq | "
                  "paired (default drawn)");
  cmd->add_option("--phase", args->phases,
                  "then more rounds of another kind: key=value,... changing the options above "
                  "(keys: rounds, n, gamma, m, dropout, sampling-rate, role, neighbours, exp-eps, eps, alpha, center, "
                  "radius, bits, variant, mechanism, calibration-delta; a new mechanism keeps only the budget, n, m, center, "
                  "radius and neighbours, which stays the run's); repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--center", args->geometry.center, "center c (default 0)");
  cmd->add_option("--radius", args->geometry.radius, "radius r > 0 (default 1)");
  cmd->add_option("--bits", args->geometry.bits, "shared bits d in [0, 2^15] (default 5)");
  cmd->add_option("--variant", args->geometry.variant, "CorBinQ variant (default corrected)");
  cmd->add_option("--cells", args->cells,
                  "grid points per distribution (default 2048, 8192 with --laws; cost ~ cells²)");
  cmd->add_flag("--json", cli->json, "one JSON object on stdout");
  cmd->callback([cli] { run_account(*cli); });
}

}  // namespace corbin::cli
