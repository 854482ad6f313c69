// `corbin joint` and `corbin mse`: the exact joint law of a CorBinQ pair and its utility; `mse`
// also evaluates a whole round (--weights) under a pairing.

#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "corbin/utility/aggregate.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct PairArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  std::string weights, pairing;
  bool json = false;
};

template <class T>
void put_pair(Json& out, const PairUtility<T>& u, bool with_law) {
  if (with_law) {
    put_joint(out, "joint", u.law);
    put(out, "marginal1", u.law.q1_plus());
    put(out, "marginal2", u.law.q2_plus());
  }
  put(out, "mse", u.mse);
  put(out, "mse_optimal", u.mse_optimal);
  put(out, "mse_ldp", u.mse_ldp);
  put(out, "gap", u.gap);
  put(out, "paper_gap_bound", u.paper_gap_bound);
}

Json header(const PairArgs& a, const Budget& budget, unsigned long bits) {
  Json out = Json::object();
  put_budget(out, budget);
  out["bits"] = bits;
  out["variant"] = to_string(a.geometry.v());
  put(out, "center", a.geometry.c());
  put(out, "radius", a.geometry.r());
  return out;
}

void run_pair(const PairArgs& a, bool with_law) {
  const Budget budget = a.budget.budget();
  const unsigned long bits = a.geometry.d();
  with_alpha(budget, a.budget.precision_bits(bits), [&](const auto& alpha) {
    Json out = header(a, budget, bits);
    put(out, "w", a.geometry.w1());
    put(out, "w2", a.geometry.w2_value());
    put_pair(out, pair_utility(alpha, a.geometry.c(), a.geometry.r(), a.geometry.w1(),
                               a.geometry.w2_value(), bits, a.geometry.v()),
             with_law);
    emit(std::cout, out, a.json);
  });
}

std::vector<Rational> parse_weights(const std::string& text) {
  std::vector<Rational> w;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) w.push_back(parse_rational(item, "--weights"));
  if (w.empty() || text.back() == ',')
    throw invalid_argument("--weights", quote(text), "a comma-separated list of weights");
  return w;
}

void run_aggregate(const PairArgs& a) {
  const Budget budget = a.budget.budget();
  const unsigned long bits = a.geometry.d();
  const std::vector<Rational> w = parse_weights(a.weights);
  const Pairing pairing = a.pairing.empty() ? consecutive_pairing(w.size()) : parse_pairing(a.pairing);
  with_alpha(budget, a.budget.precision_bits(bits), [&](const auto& alpha) {
    using T = std::decay_t<decltype(alpha)>;
    const Rational c = a.geometry.c(), r = a.geometry.r();
    Json out = header(a, budget, bits);
    out["n"] = w.size();
    std::string pairs;
    for (const auto& [i, j] : pairing) pairs += (pairs.empty() ? "" : ",") + std::to_string(i) + "-" + std::to_string(j);
    out["pairing"] = pairs;
    const T mse = aggregate_mse(alpha, c, r, w, pairing, bits, a.geometry.v());
    const T ldp = aggregate_mse(alpha, c, r, w, Pairing{}, bits, a.geometry.v());
    put(out, "mse", mse);
    put(out, "mse_ldp", ldp);
    // LDP-FL's MSE over CorBin-FL's; unbounded when CorBin-FL's is exactly 0 (e.g. two equal
    // weights at the center cancel exactly), where it is reported as null rather than divided.
    if (NumTraits<T>::is_zero(mse)) {
      out["improvement"] = nullptr;
      out["improvement_note"] = "unbounded: CorBin-FL's MSE is exactly 0";
    } else {
      put(out, "improvement", T(ldp / mse));
    }
    // Theorem 2: (r^2/2n)((√2−1)α+1)((√2+1)α−1) = r^2 (α^2 + 2α − 1)/(2n), a d -> ∞ bound.
    const T n = NumTraits<T>::from(Rational(static_cast<long>(w.size())));
    const T r2 = NumTraits<T>::from(Rational(r * r));
    put(out, "paper_bound_d_infinity", T(r2 * paper_pair_constant(alpha) / (2 * n)));
    emit(std::cout, out, a.json);
  });
}

}  // namespace

void add_joint(CLI::App& app) {
  auto joint_args = std::make_shared<PairArgs>();
  auto* joint = app.add_subcommand("joint", "exact joint law of a CorBinQ pair (Alg. 2) and its MSE");
  joint_args->budget.add(*joint);
  joint_args->geometry.add(*joint, true);
  joint->add_flag("--json", joint_args->json, "one JSON object on stdout");
  joint->callback([joint_args] { run_pair(*joint_args, true); });

  auto mse_args = std::make_shared<PairArgs>();
  auto* mse = app.add_subcommand(
      "mse", "exact MSE of a pair, or with --weights of a whole round (CorBin-FL vs LDP-FL)");
  mse_args->budget.add(*mse);
  mse_args->geometry.add(*mse, true);
  mse->add_option("--weights", mse_args->weights, "comma-separated client weights for one coordinate");
  mse->add_option("--pairing", mse_args->pairing,
                  "leader-follower pairs, e.g. 0-1,2-3 (default consecutive; unpaired use LDPQ)");
  mse->add_flag("--json", mse_args->json, "one JSON object on stdout");
  auto* weights_option = mse->get_option("--weights");
  mse->callback([mse_args, weights_option] {
    // Given, even empty, --weights means a round: `--weights ""` is an error, not the pair mode.
    if (weights_option->count() == 0) {
      if (!mse_args->pairing.empty())
        throw invalid_argument("--pairing", mse_args->pairing, "used together with --weights");
      run_pair(*mse_args, false);
    } else {
      run_aggregate(*mse_args);
    }
  });
}

}  // namespace corbin::cli
