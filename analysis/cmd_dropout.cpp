// `corbin dropout`: Theorem 4 as printed (γ, γ', θ, the UCDP ε_u and the MSE bound) next to the
// exact probabilities of the events its proof bounds by δ − δ1.

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/privacy/formulas/dropout.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

/// The exact law is quick up to a few thousand clients (about 1 s at 2000).
constexpr unsigned long kMaxExactDropoutClients = 4000;

struct DropoutArgs {
  BudgetOptions budget;
  std::string n, m = "1", p, delta, delta1, radius = "1", bits = "5";
  bool json = false;
  unsigned long bits_value() const { return parse_count(bits, "--bits", kMaxBits); }
};

/// The probability (exact or certified) and whether it is at most `claimed`: "true", "false",
/// or "undecided" when the enclosure straddles the claim.
void put_probability(Json& out, const std::string& key, const std::string& verdict_key,
                     const Probability& p, const Rational& claimed) {
  if (p.exact) {
    put(out, key, *p.exact);
    out[verdict_key] = *p.exact <= claimed;
    return;
  }
  put(out, key, p.enclosure);
  const Interval c = interval_from(claimed);
  if (upper_of(p.enclosure) <= lower_of(c))
    out[verdict_key] = true;
  else if (lower_of(p.enclosure) > upper_of(c))
    out[verdict_key] = false;
  else
    out[verdict_key] = "undecided";
}

void run_dropout(const DropoutArgs& a) {
  DropoutSetting s;
  s.budget = a.budget.budget();
  s.n = parse_count(a.n, "--n", 1ul << 24);
  s.m = parse_count(a.m, "--m", 1ul << 40);
  s.p = parse_rational(a.p, "--p");
  s.delta = parse_rational(a.delta, "--delta");
  s.delta1 = parse_rational(a.delta1, "--delta1");
  s.radius = parse_rational(a.radius, "--radius");
  check_dropout_setting(s);
  PrecisionScope scope(a.budget.precision_bits(0));
  const DropoutResult r = theorem4(s);
  Json out = Json::object();
  put_budget(out, s.budget);
  out["n"] = s.n;
  out["m"] = s.m;
  put(out, "p", s.p);
  put(out, "delta", s.delta);
  put(out, "delta1", s.delta1);
  Json paper = Json::object();
  put(paper, "gamma", r.gamma);
  put(paper, "gamma_prime", r.gamma_prime);
  put(paper, "theta", r.theta);
  paper["gamma_in_range"] = r.gamma_in_range;
  paper["theta_positive"] = r.theta_positive;
  if (r.eps_u) {
    put(paper, "eps_u", r.eps_u->eps_u);
    paper["precondition"] = r.eps_u->precondition;
  } else {
    paper["eps_u"] = "undefined (γ outside (0, 1] or nγ < 2)";
  }
  put(paper, "mse_bound", r.mse_bound);
  out["paper"] = paper;
  Json exact = Json::object();
  put(exact, "claimed_each", r.claimed);
  put_probability(exact, "singles_outside", "singles_bound_holds", r.singles_outside, r.claimed);
  put_probability(exact, "survivors_outside", "survivors_bound_holds", r.survivors_outside,
                  r.claimed);
  put(exact, "survivors_mean_fraction", r.survivors_mean_fraction);
  // On the event the proof conditions on, at least ⌈γn⌉ clients quantize alone: the exact ε at
  // δ1 (replace one, the worst case over every configuration) of that population, for moderate n.
  if (r.gamma_in_range && s.budget.exact() && s.n <= kMaxExactDropoutClients) {
    const BigInt singles =
        -certified_floor(Interval(-r.gamma * interval_from(BigInt(s.n))), "⌈γn⌉");
    ExactUcdpSetting e;
    e.n = s.n;
    e.gamma = Rational(singles, BigInt(s.n));
    e.delta = s.delta1;
    e.geometry = {s.budget.alpha_exact(), Rational(0), s.radius, a.bits_value(),
                  Variant::corrected};
    const ExactUcdpResult x = exact_ucdp(e, Neighbour::replace_one);
    exact["singles_min"] = singles.str();
    if (x.infinite)
      exact["eps_at_delta1_min_singles"] = "infinite";
    else
      put(exact, "eps_at_delta1_min_singles", x.eps);
  }
  out["exact"] = exact;
  emit(std::cout, out, a.json);
}

}  // namespace

void add_dropout(CLI::App& app) {
  auto args = std::make_shared<DropoutArgs>();
  auto* cmd = app.add_subcommand("dropout", "Theorem 4: dropout, as printed and exact");
  args->budget.add(*cmd);
  cmd->add_option("--n", args->n, "clients n, even")->required();
  cmd->add_option("--m", args->m, "coordinates m >= 1 (default 1)");
  cmd->add_option("--p", args->p, "dropout probability p in (0, 1)")->required();
  cmd->add_option("--delta", args->delta, "δ in (0, 1)")->required();
  cmd->add_option("--delta1", args->delta1, "δ1 in (0, δ)")->required();
  cmd->add_option("--radius", args->radius, "radius r > 0 (default 1)");
  cmd->add_option("--bits", args->bits, "shared bits d in [0, 2^15] for the exact law (default 5)");
  cmd->add_flag("--json", args->json, "one JSON object on stdout");
  cmd->callback([args] { run_dropout(*args); });
}

}  // namespace corbin::cli
