// `corbin account`: certified two-sided privacy accounting of Theorem 3's mechanism at any n up
// to 10^8 clients, composed over m coordinates and T rounds (k = m·T up to 2^40): ε_lower <= ε(δ)
// <= ε_upper, or with --at-eps, δ_lower <= δ(ε) <= δ_upper (privacy/accountant.hpp).
// Bounds are printed as decimals rounded outward (an upper bound up, a lower bound down), each
// with its double twin under key + "_approx"; "infinite" where no finite ε reaches δ.

#include <mpfr.h>

#include <cmath>
#include <iostream>
#include <memory>

#include "account.hpp"
#include "commands.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/accountant.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {

AccountOutcome compute_account(const AccountArgs& a) {
  AccountOutcome o;
  AccountSetting& s = o.setting;
  s.budget = a.budget.budget();
  s.n = parse_count(a.n, "--n", kMaxAccountClients);
  s.gamma = parse_rational(a.gamma, "--gamma");
  if (s.gamma < 0 || s.gamma > 1) throw invalid_argument("--gamma", a.gamma, "in [0, 1]");
  s.center = a.geometry.c();
  s.radius = a.geometry.r();
  s.bits = a.geometry.d();
  s.variant = a.geometry.v();
  if (a.neighbours == "replace")
    s.relation = Neighbour::replace_one;
  else if (a.neighbours == "remove")
    s.relation = Neighbour::remove_one;
  else
    throw invalid_argument("--neighbours", quote(a.neighbours), "replace or remove");
  if (a.role == "ldpq")
    s.role = TargetClient::Role::ldpq;
  else if (a.role == "paired")
    s.role = TargetClient::Role::leader;
  else
    throw invalid_argument("--role", quote(a.role), "ldpq or paired");
  o.m = parse_count(a.m, "--m", kMaxCompositions);
  if (o.m < 1) throw invalid_argument("--m", a.m, "at least 1");
  o.rounds = parse_count(a.rounds, "--rounds", kMaxCompositions);
  if (o.rounds < 1) throw invalid_argument("--rounds", a.rounds, "at least 1");
  if (o.m > kMaxCompositions / o.rounds)
    throw invalid_argument("--rounds", a.rounds,
                           "such that m·T <= " + std::to_string(kMaxCompositions) +
                               " (m = " + std::to_string(o.m) + ")");
  PldLimits limits;
  limits.max_cells = parse_count(a.cells, "--cells", 1ul << 16);
  if (limits.max_cells < 64) throw invalid_argument("--cells", a.cells, "at least 64");
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
  check_account_setting(s);
  // Every certified decision on this path (binomial windows, thresholds of a transcendental α)
  // runs at --precision.
  PrecisionScope scope(a.budget.precision_bits(s.bits));
  const Accountant one(s, limits);
  o.compositions = static_cast<std::uint64_t>(o.m) * o.rounds;
  const Accountant all = one.compose(o.compositions);
  o.bounds = o.at ? all.delta(o.at_eps) : all.epsilon(o.delta);
  o.attained = o.at ? all.attaining_delta(o.at_eps) : all.attaining_epsilon(o.delta);
  o.family_size = one.family_size();
  o.configurations = one.configurations();
  o.blocks = one.blocks();
  return o;
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

void run_account(const AccountCli& cli) {
  const AccountArgs& a = cli.args;
  const AccountOutcome o = compute_account(a);
  const AccountSetting& s = o.setting;
  Json out = Json::object();
  put_budget(out, s.budget);
  out["n"] = s.n;
  put(out, "gamma", s.gamma);
  out["m"] = o.m;
  out["rounds"] = o.rounds;
  out["compositions"] = std::to_string(o.compositions);
  out["neighbours"] = a.neighbours;
  out["role"] = a.role;
  const PopulationCounts counts = population_counts(s.n, s.gamma);
  out["ldpq_clients"] = counts.ldpq;
  out["pairs"] = counts.pairs;
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
  }
  out["cells"] = o.cells;
  Json worst = Json::object();
  worst["configurations"] = o.family_size;
  worst["computed_one_by_one"] = o.configurations;
  worst["blocks_bounded_together"] = o.blocks;
  worst["covers"] = std::string("every pair of datasets that differ in client 1 (") +
                    (s.relation == Neighbour::replace_one ? "its inputs" : "its presence") +
                    "), in both orders, every other input anywhere in [c - r, c + r], chosen per "
                    "coordinate and round";
  if (o.attained) {
    const ConfigurationWords& w = o.attained->parts.front();
    Json by = Json::object();
    by["client_1"] = w.client_1;
    by["neighbour"] = w.replaced_by;
    if (!w.partner.empty()) by["partner"] = w.partner;
    by["other_ldpq"] = w.others_ldpq;
    by["other_pairs"] = w.others_pairs;
    by["in"] = "every coordinate and round";
    worst["lower_bound_attained_by"] = by;
  }
  out["worst_case"] = worst;
  emit(std::cout, out, cli.json);
}

}  // namespace

void add_account(CLI::App& app) {
  auto cli = std::make_shared<AccountCli>();
  AccountArgs* args = &cli->args;
  auto* cmd = app.add_subcommand(
      "account", "certified two-sided ε(δ) or δ(ε) of Theorem 3's mechanism over m·T compositions");
  args->budget.add(*cmd);
  cmd->add_option("--n", args->n, "clients n in [2, 10^8]")->required();
  cmd->add_option("--gamma", args->gamma, "fraction γ in [0, 1] of clients on LDPQ (1: all)")
      ->required();
  cmd->add_option("--m", args->m, "coordinates m >= 1 (default 1)");
  cmd->add_option("--rounds", args->rounds, "rounds T >= 1 (default 1)");
  cmd->add_option("--delta", args->delta, "δ in (0, 1): print eps_lower, eps_upper");
  cmd->add_option("--at-eps", args->at_eps, "ε > 0: print delta_lower, delta_upper instead");
  args->neighbours = "replace";  // the relation the proof's cpSGD argument uses (a spec names its own)
  cmd->add_option("--neighbours", args->neighbours,
                  "replace | remove (client 1 changed or removed; default replace)");
  cmd->add_option("--role", args->role, "client 1's role: ldpq | paired (default ldpq)");
  cmd->add_option("--center", args->geometry.center, "center c (default 0)");
  cmd->add_option("--radius", args->geometry.radius, "radius r > 0 (default 1)");
  cmd->add_option("--bits", args->geometry.bits, "shared bits d (default 5)");
  cmd->add_option("--variant", args->geometry.variant, "CorBinQ variant (default corrected)");
  cmd->add_option("--cells", args->cells,
                  "grid points per distribution (default 2048; cost ~ cells²)");
  cmd->add_flag("--json", cli->json, "one JSON object on stdout");
  cmd->callback([cli] { run_account(*cli); });
}

}  // namespace corbin::cli
