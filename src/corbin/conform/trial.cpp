#include "corbin/conform/trial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/keystream.hpp"

namespace corbin::conform {
namespace {

std::vector<double> doubles(const std::vector<Rational>& x) {
  std::vector<double> out;
  out.reserve(x.size());
  for (const Rational& v : x) out.push_back(to_double(v));
  return out;
}

std::string decimal(double x, int digits = 4) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  return text;
}

const char* client_name(const Mechanism& m, std::size_t client) {
  if (m.clients() == 1) return "Q";
  return client == 0 ? "Q1" : "Q2";
}

/// A marginal's counts from the joint counts.
std::vector<std::uint64_t> marginal_counts(const Marginal& m,
                                           const std::vector<std::uint64_t>& counts) {
  std::vector<std::uint64_t> out;
  for (const auto& cells : m.cells) {
    std::uint64_t k = 0;
    for (std::size_t c : cells) k += counts[c];
    out.push_back(k);
  }
  return out;
}

/// Whether a setting's claimed law gets the mean test: a client with three or more outputs whose
/// claimed law is exactly unbiased.
bool mean_test_applies(const PlannedSetting& ps, const Marginal& m) {
  return m.labels.size() >= 3 && bias(m, ps.setting.inputs[m.client]) == 0;
}

/// The kinds of the per-setting tests, in the order evaluate runs them.
std::vector<std::string> setting_tests(const PlannedSetting& ps) {
  std::vector<std::string> kinds{"law"};
  const auto ms = marginals(ps.setting, ps.claimed);
  if (ms.size() > 1)
    for (const Marginal& m : ms)
      kinds.push_back(std::string("marginal ") + client_name(ps.setting.mechanism, m.client));
  for (const Marginal& m : ms)
    if (mean_test_applies(ps, m)) kinds.push_back("unbiased");
  return kinds;
}

/// One client's privacy group: settings sharing (e^ε, d, c, r), and whether the claimed law is
/// ε-PLDP over their inputs (else the test is not run: the law itself would fail it).
struct PrivacyGroup {
  std::string name;
  std::size_t client = 0;
  std::vector<std::size_t> settings;
  bool certified = false;
  std::string why_not;
};

std::vector<PrivacyGroup> privacy_groups(const Plan& plan) {
  std::map<std::string, std::vector<std::size_t>> by_key;
  std::vector<std::string> order;
  for (std::size_t i = 0; i < plan.settings.size(); ++i) {
    const Setting& s = plan.settings[i].setting;
    const std::string key =
        "e^ε=" + to_string(s.exp_eps) +
        (s.mechanism.kind == Kind::corbinq ? " d=" + std::to_string(s.bits) : std::string()) +
        " c=" + to_string(s.center) + " r=" + to_string(s.radius);
    if (!by_key.count(key)) order.push_back(key);
    by_key[key].push_back(i);
  }
  std::vector<PrivacyGroup> out;
  for (const std::string& key : order) {
    const auto& members = by_key[key];
    const Setting& first = plan.settings[members.front()].setting;
    for (std::size_t client = 0; client < first.mechanism.clients(); ++client) {
      PrivacyGroup g{key, client, members, true, ""};
      std::vector<Rational> inputs;
      for (std::size_t i : members) inputs.push_back(plan.settings[i].setting.inputs[client]);
      std::sort(inputs.begin(), inputs.end());
      if (std::unique(inputs.begin(), inputs.end()) - inputs.begin() < 2) {
        g.certified = false;
        g.why_not = "one input only: no pair to compare";
        out.push_back(g);
        continue;
      }
      // Exact PLDP of the claimed law over the group's inputs: max_s p / min_s p <= e^ε per output.
      const auto ms0 = marginals(first, plan.settings[members.front()].claimed);
      const std::size_t outputs = ms0[client].labels.size();
      for (std::size_t o = 0; o < outputs && g.certified; ++o) {
        Rational hi = -1, lo = 2;
        std::size_t at_hi = 0, at_lo = 0;
        for (std::size_t i : members) {
          const auto ms = marginals(plan.settings[i].setting, plan.settings[i].claimed);
          const Rational& p = ms[client].prob[o];
          if (p > hi) hi = p, at_hi = i;
          if (p < lo) lo = p, at_lo = i;
        }
        if (hi > 0 && (lo == 0 || hi > first.exp_eps * lo)) {
          g.certified = false;
          const std::string name = client_name(first.mechanism, client);
          g.why_not = "the claimed law is not ε-PLDP here: P(" + name + " = " +
                      ms0[client].labels[o] + ") is " + to_string(hi) + " at " +
                      describe(plan.settings[at_hi].setting) + " and " + to_string(lo) +
                      " at w = " + to_string(plan.settings[at_lo].setting.inputs[client]) +
                      (lo == 0 ? " (an unbounded ratio)"
                               : " (ratio " + decimal(to_double(Rational(hi / lo))) + " > e^ε)");
        }
      }
      out.push_back(g);
    }
  }
  return out;
}

/// The largest ratio L_s(o)/U_s'(o) of one-sided Clopper–Pearson bounds at β each, over outputs o
/// and settings s, s' of a privacy group; `witness` names where.
struct Ratio {
  double value = 0;
  std::size_t output = 0, high = 0, low = 0;
};
Ratio privacy_ratio(const std::vector<std::vector<std::uint64_t>>& counts,
                    const std::vector<std::uint64_t>& n, double beta) {
  Ratio best;
  const std::size_t outputs = counts.front().size();
  for (std::size_t o = 0; o < outputs; ++o) {
    double lower = 0, upper = 2;
    std::size_t hi = 0, lo = 0;
    for (std::size_t s = 0; s < counts.size(); ++s) {
      const double l = clopper_pearson_lower(counts[s][o], n[s], beta);
      const double u = clopper_pearson_upper(counts[s][o], n[s], beta);
      if (l > lower) lower = l, hi = s;
      if (u < upper) upper = u, lo = s;
    }
    const double r =
        upper > 0 ? lower / upper : (lower > 0 ? std::numeric_limits<double>::infinity() : 0);
    if (r > best.value) best = Ratio{r, o, hi, lo};
  }
  return best;
}

/// The K×K table of (x[i], x[i + lag]) over disjoint pairs: i runs over blocks of 2·lag, first
/// halves.
void add_lag_pairs(std::vector<std::vector<std::uint64_t>>& table,
                   const std::vector<std::uint8_t>& x, std::uint64_t lag) {
  for (std::uint64_t start = 0; start + 2 * lag <= x.size(); start += 2 * lag)
    for (std::uint64_t j = 0; j < lag; ++j) ++table[x[start + j]][x[start + j + lag]];
}

std::uint64_t request_seed(std::uint64_t seed, std::uint64_t id) {
  return derive_seed(seed, "conform request " + std::to_string(id));
}

/// A setting's laws in double, for the power calculations: the joint law, then each client's
/// marginal where there are two.
std::vector<std::vector<double>> tested_laws(const Setting& s, const Law& law) {
  std::vector<std::vector<double>> out{doubles(law.prob)};
  const auto ms = marginals(s, law);
  if (ms.size() > 1)
    for (const Marginal& m : ms) out.push_back(doubles(m.prob));
  return out;
}

/// The chance that some test of a setting rejects when its draws follow the alternative: at least
/// the largest of its tests' powers (claimed and alternative as tested_laws gives them).
double setting_power(const std::vector<std::vector<double>>& claimed,
                     const std::vector<std::vector<double>>& alternative, std::uint64_t n,
                     double level) {
  double power = 0;
  for (std::size_t k = 0; k < claimed.size(); ++k)
    power = std::max(power, gof_power(claimed[k], alternative[k], n, level));
  return power;
}

/// A client's law with output o's probability moved by δ and the others scaled to keep the total.
std::vector<double> shifted(const std::vector<double>& p, std::size_t o, double delta) {
  std::vector<double> out = p;
  const double rest = 1 - p[o];
  out[o] = p[o] + delta;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (i != o) out[i] = rest > 0 ? p[i] * (1 - out[o]) / rest : 0;
  return out;
}

}  // namespace

ClaimedLaw exact_claim(const std::string& variant) {
  return [variant](const Setting& s) { return exact_law(s, variant); };
}

void check_options(const Options& o) {
  if (!(o.level > 0 && o.level < 1))
    throw invalid_argument("level", decimal(o.level, 6), "in (0, 1)");
  if (!(o.power > 0 && o.power < 1))
    throw invalid_argument("power", decimal(o.power, 6), "in (0, 1)");
  constexpr std::uint64_t kMaxDraws = 10000000000ull;
  if (o.min_draws < 1 || o.min_draws > kMaxDraws)
    throw invalid_argument("min_draws", std::to_string(o.min_draws), "in [1, 10^10]");
  if (o.max_draws < o.min_draws || o.max_draws > kMaxDraws)
    throw invalid_argument("max_draws", std::to_string(o.max_draws),
                           "in [min_draws, 10^10] = [" + std::to_string(o.min_draws) + ", 10^10]");
  if (o.draws > kMaxDraws)
    throw invalid_argument("draws", std::to_string(o.draws), "at most 10^10");
  if (!(o.effect >= 0 && o.effect < 0.5))
    throw invalid_argument("effect", decimal(o.effect, 6), "in [0, 1/2)");
  // The outputs in order are held a byte per draw: two calls of at most 10^7.
  if (o.independence && (o.independence_draws < 64 || o.independence_draws > 10000000))
    throw invalid_argument("independence_draws", std::to_string(o.independence_draws),
                           "in [64, 10^7]");
}

Plan make_plan(std::vector<Setting> settings, const std::string& variant, const ClaimedLaw& claimed,
               const Options& o) {
  check_options(o);
  if (settings.empty()) throw invalid_argument("settings", "empty", "at least one setting");
  const Mechanism mechanism = settings.front().mechanism;
  check_variant(mechanism, variant);
  for (std::size_t i = 0; i < settings.size(); ++i) {
    if (!(settings[i].mechanism == mechanism))
      throw invalid_argument("settings[" + std::to_string(i) + "]", settings[i].mechanism.name(),
                             "the run's one mechanism, " + mechanism.name());
    check_setting(settings[i]);
  }
  Plan plan;
  plan.variant = variant;
  for (const std::string& v : variants_of(mechanism))
    if (v != variant) plan.alternatives.push_back(v);
  for (const std::string& f : fault_models_of(mechanism, variant)) plan.alternatives.push_back(f);
  for (Setting& s : settings) {
    PlannedSetting ps;
    ps.claimed = claimed(s);
    ps.boundary = boundary_sensitive(s);
    ps.setting = std::move(s);
    plan.settings.push_back(std::move(ps));
  }

  // Independence probes: per (e^ε, c, r), the group of smallest d; there, the input pair that is
  // most sensitive to a shared tie coin when the grid placed one, else the centre, else the first.
  if (o.independence) {
    std::map<std::string, std::size_t> chosen;
    std::vector<std::string> keys;
    const auto rank = [](const PlannedSetting& ps) {
      for (const std::string& p : ps.setting.purposes)
        if (p.rfind("max TV vs shared-coin", 0) == 0) return 0;
      for (const std::string& p : ps.setting.purposes)
        if (p == "centre") return 1;
      return 2;
    };
    for (std::size_t i = 0; i < plan.settings.size(); ++i) {
      const Setting& s = plan.settings[i].setting;
      const std::string key =
          to_string(s.exp_eps) + " " + to_string(s.center) + " " + to_string(s.radius);
      const auto it = chosen.find(key);
      if (it == chosen.end()) {
        chosen[key] = i;
        keys.push_back(key);
        continue;
      }
      const PlannedSetting& old = plan.settings[it->second];
      if (s.bits < old.setting.bits ||
          (s.bits == old.setting.bits && rank(plan.settings[i]) < rank(old)))
        it->second = i;
    }
    for (const std::string& key : keys) plan.probes.push_back(chosen[key]);
    plan.probe_draws = o.independence_draws;
    for (std::uint64_t lag : {1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096})
      if (lag * 8 <= plan.probe_draws) plan.lags.push_back(lag);
  }

  // Every test of the run, counted before any draw: the per-test level follows.
  std::size_t tests = 0;
  for (const PlannedSetting& ps : plan.settings) tests += setting_tests(ps).size();
  for (const PrivacyGroup& g : privacy_groups(plan)) tests += g.certified ? 1 : 0;
  tests += plan.probes.size() * (plan.lags.size() + 1);
  plan.tests = tests;
  plan.per_test_level = o.level / static_cast<double>(tests);

  for (PlannedSetting& ps : plan.settings) {
    const auto claimed_m = marginals(ps.setting, ps.claimed);
    const auto claimed_d = tested_laws(ps.setting, ps.claimed);
    std::vector<std::vector<std::vector<double>>> alt_laws;
    for (const std::string& name : plan.alternatives) {
      AlternativeAt a;
      a.name = name;
      const Law law = exact_law(ps.setting, name);
      alt_laws.push_back(tested_laws(ps.setting, law));
      a.tv = total_variation(ps.claimed, law);
      ps.alternatives.push_back(a);
    }
    if (o.draws > 0) {
      ps.draws = o.draws;
      ps.draws_reason = "fixed";
    } else {
      ps.draws = o.min_draws;
      ps.draws_reason = "minimum";
      for (std::size_t k = 0; k < ps.alternatives.size(); ++k) {
        AlternativeAt& a = ps.alternatives[k];
        if (a.tv == 0) continue;
        const auto& alt = alt_laws[k];
        const auto power = [&](std::uint64_t n) {
          return setting_power(claimed_d, alt, n, plan.per_test_level);
        };
        a.needed = draws_for_power(power, o.power, o.max_draws);
        if (a.needed > ps.draws) {
          ps.draws = a.needed;
          ps.draws_reason = "power " + decimal(o.power, 3) + " vs " + a.name;
        }
      }
      if (o.effect > 0) {
        // A shift of `effect` in any output probability of any client, either way.
        std::uint64_t need = 0;
        bool reached = true;
        for (const Marginal& m : claimed_m) {
          const std::vector<double> p = doubles(m.prob);
          for (std::size_t out = 0; out < p.size(); ++out)
            for (double sign : {1.0, -1.0}) {
              const double target = p[out] + sign * o.effect;
              if (target < 0 || target > 1 || p[out] == 0 || p[out] == 1) continue;
              const std::vector<double> alt = shifted(p, out, sign * o.effect);
              const auto power = [&](std::uint64_t n) {
                return gof_power(p, alt, n, plan.per_test_level);
              };
              const std::uint64_t n = draws_for_power(power, o.power, o.max_draws);
              if (n == 0) reached = false;
              need = std::max(need, n);
            }
        }
        if (!reached)
          ps.effect_note = "a shift of " + decimal(o.effect) + " is not detected with power " +
                           decimal(o.power, 3) + " within the maximum of " +
                           std::to_string(o.max_draws) + " draws";
        if (need > ps.draws) {
          ps.draws = need;
          ps.draws_reason = "power " + decimal(o.power, 3) + " vs a shift of " + decimal(o.effect);
        }
        if (!reached) {
          ps.draws = o.max_draws;
          ps.draws_reason = "capped at the maximum";
        }
      }
    }
    for (std::size_t k = 0; k < ps.alternatives.size(); ++k) {
      AlternativeAt& a = ps.alternatives[k];
      if (a.tv == 0) continue;
      a.power = setting_power(claimed_d, alt_laws[k], ps.draws, plan.per_test_level);
      if (o.draws > 0 && a.power >= o.power) a.needed = ps.draws;
    }
    double shift = 0;
    for (const Marginal& m : claimed_m) {
      if (m.labels.size() != 2) {
        shift = std::numeric_limits<double>::infinity();
        break;
      }
      const double p = to_double(m.prob[0]);
      if (p > 0 && p < 1)
        shift = std::max(shift, detectable_shift(p, ps.draws, plan.per_test_level, o.power));
    }
    ps.detectable_shift = shift;
  }

  std::uint64_t id = 1;
  for (const PlannedSetting& ps : plan.settings) {
    plan.requests.push_back(
        Request{id, ps.setting, variant, ps.draws, request_seed(o.seed, id), false});
    ++id;
  }
  for (std::size_t p : plan.probes)
    for (int call = 0; call < 2; ++call) {
      plan.requests.push_back(Request{id, plan.settings[p].setting, variant, plan.probe_draws,
                                      request_seed(o.seed, id), true});
      ++id;
    }
  return plan;
}

void check_answer(const Request& r, const Answer& a) {
  const auto labels = output_labels(r.setting.mechanism);
  const std::string which = "request " + std::to_string(r.id) + " (" + describe(r.setting) + ")";
  if (a.counts.size() != labels.size())
    throw ProtocolError(which + ": the answer has " + std::to_string(a.counts.size()) +
                        " counts for the " + std::to_string(labels.size()) + " outputs");
  std::uint64_t total = 0;
  for (std::uint64_t c : a.counts) {
    if (c > r.draws || total > r.draws - c)
      throw ProtocolError(which + " asked for " + std::to_string(r.draws) +
                          " draws; the counts add up to more");
    total += c;
  }
  if (total != r.draws)
    throw ProtocolError(which + " asked for " + std::to_string(r.draws) +
                        " draws; the counts add up to " + std::to_string(total));
  if (r.outputs && a.sequence.size() != r.draws)
    throw ProtocolError(which + " asked for the " + std::to_string(r.draws) +
                        " outputs in draw order (the independence tests); the answer " +
                        (a.sequence.empty()
                             ? std::string("gave counts only")
                             : "gave " + std::to_string(a.sequence.size()) + " outputs"));
  if (!a.values.empty()) {
    const std::size_t outputs =
        marginals(r.setting, exact_law(r.setting, variants_of(r.setting.mechanism).front()))
            .front()
            .labels.size();
    if (a.values.size() != outputs)
      throw ProtocolError(which + ": " + std::to_string(a.values.size()) +
                          " decoded values for a client's " + std::to_string(outputs) + " outputs");
    for (const std::string& v : a.values) {
      try {
        (void)parse_rational(v, "value");
      } catch (const invalid_argument&) {
        throw ProtocolError(which + ": a decoded value " + quote(v) + " that is not a number");
      }
    }
  }
  if (!a.sequence.empty()) {
    std::vector<std::uint64_t> recount(labels.size(), 0);
    for (std::uint8_t x : a.sequence) {
      if (x >= labels.size()) throw ProtocolError(which + ": an output index out of range");
      ++recount[x];
    }
    if (recount != a.counts)
      throw ProtocolError(which + ": the outputs listed do not agree with the counts");
  }
}

Report evaluate(const Plan& plan, const std::vector<Answer>& answers, const Options& o) {
  if (answers.size() != plan.requests.size())
    throw invalid_argument(
        "answers", std::to_string(answers.size()),
        "one per request of the plan (" + std::to_string(plan.requests.size()) + ")");
  Report report;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    check_answer(plan.requests[i], answers[i]);
    report.draws += plan.requests[i].draws;
  }
  const std::size_t S = plan.settings.size();
  const Mechanism mechanism = plan.settings.front().setting.mechanism;

  for (std::size_t i = 0; i < S; ++i) {
    const PlannedSetting& ps = plan.settings[i];
    const auto& counts = answers[i].counts;
    TestRecord law{
        "law", {i}, goodness_of_fit(counts, ps.claimed.prob, ps.claimed.labels), false, ""};
    std::string observed;
    for (std::size_t k = 0; k < counts.size(); ++k)
      observed += (k ? " " : "") + ps.claimed.labels[k] + ":" + std::to_string(counts[k]);
    law.detail = "counts " + observed;
    report.tests.push_back(law);
    const auto ms = marginals(ps.setting, ps.claimed);
    for (const Marginal& m : ms) {
      const auto mc = marginal_counts(m, counts);
      const Rational b = bias(m, ps.setting.inputs[m.client]);
      const std::string name = client_name(mechanism, m.client);
      if (ms.size() > 1) {
        TestRecord t{
            std::string("marginal ") + name, {i}, goodness_of_fit(mc, m.prob, m.labels), false, ""};
        t.detail = "P(" + name + " = +) observed " +
                   decimal(static_cast<double>(mc[0]) / static_cast<double>(ps.draws), 6) +
                   ", claimed " + to_string(m.prob[0]) +
                   (b == 0 ? "; claimed unbiased, so this is also E " + name + " = w"
                           : "; the claimed law is biased: E " + name + " − w = " + to_string(b));
        report.tests.push_back(t);
      }
      if (mean_test_applies(ps, m)) {
        std::vector<double> centred;
        for (const Rational& v : m.values)
          centred.push_back(to_double(Rational(v - ps.setting.inputs[m.client])));
        TestRecord t{"unbiased",
                     {i},
                     mean_test(mc, centred, doubles(m.prob)),
                     false,
                     "E " + std::string(name) + " = w"};
        report.tests.push_back(t);
      }
    }
  }

  for (const PrivacyGroup& g : privacy_groups(plan)) {
    PrivacyBound bound;
    bound.group = g.name;
    bound.client = g.client;
    const Setting& first = plan.settings[g.settings.front()].setting;
    bound.eps_certified = std::log(to_double(first.exp_eps));
    bound.why_not = g.why_not;
    std::vector<std::vector<std::uint64_t>> counts;
    std::vector<std::uint64_t> n;
    for (std::size_t i : g.settings) {
      const auto ms = marginals(plan.settings[i].setting, plan.settings[i].claimed);
      counts.push_back(marginal_counts(ms[g.client], answers[i].counts));
      n.push_back(plan.settings[i].draws);
    }
    const double intervals = static_cast<double>(counts.size() * counts.front().size());
    const double exp_eps = to_double(first.exp_eps);
    // The bound reported: every one-sided bound at β = per-test level / (2 × intervals).
    const Ratio at_share = privacy_ratio(counts, n, plan.per_test_level / (2 * intervals));
    bound.eps_lower =
        at_share.value > 0 ? std::log(at_share.value) : -std::numeric_limits<double>::infinity();
    const std::string name = client_name(mechanism, g.client);
    const auto labels =
        marginals(first, plan.settings[g.settings.front()].claimed)[g.client].labels;
    bound.witness =
        "P(" + name + " = " + labels[at_share.output] +
        ") at w = " + to_string(plan.settings[g.settings[at_share.high]].setting.inputs[g.client]) +
        " over w = " + to_string(plan.settings[g.settings[at_share.low]].setting.inputs[g.client]);
    if (g.certified) {
      bound.tested = true;
      // p-value: I·γ*, γ* the smallest total level γ (β = γ/2 per bound) at which the bound exceeds
      // e^ε.
      TestRecord t{"privacy " + name, g.settings, {}, false, ""};
      t.outcome.method = "Clopper–Pearson bounds over outputs and input pairs (union bound)";
      const auto ratio_at = [&](double log_gamma) {
        return privacy_ratio(counts, n, std::pow(10.0, log_gamma) / 2).value;
      };
      if (ratio_at(0) <= exp_eps) {
        t.outcome.p_value = 1;
      } else {
        double lo = -40, hi = 0;  // ratio_at(hi) > e^ε
        if (ratio_at(lo) > exp_eps)
          hi = lo;
        else
          for (int k = 0; k < 30; ++k) {
            const double mid = (lo + hi) / 2;
            (ratio_at(mid) > exp_eps ? hi : lo) = mid;
          }
        t.outcome.p_value = std::min(1.0, intervals * std::pow(10.0, hi));
      }
      t.outcome.statistic = bound.eps_lower;
      t.detail = "ε lower bound " + decimal(bound.eps_lower) + " (" + bound.witness +
                 ") vs certified ε = " + decimal(bound.eps_certified) + ", over " + g.name;
      report.tests.push_back(t);
    }
    report.privacy.push_back(bound);
  }

  for (std::size_t j = 0; j < plan.probes.size(); ++j) {
    const std::size_t i = plan.probes[j];
    const std::size_t K = plan.settings[i].claimed.labels.size();
    const auto& a = answers[S + 2 * j].sequence;
    const auto& b = answers[S + 2 * j + 1].sequence;
    const std::vector<std::size_t> at{i};
    for (std::uint64_t lag : plan.lags) {
      std::vector<std::vector<std::uint64_t>> table(K, std::vector<std::uint64_t>(K, 0));
      add_lag_pairs(table, a, lag);
      add_lag_pairs(table, b, lag);
      report.tests.push_back(
          TestRecord{"independence lag " + std::to_string(lag), at, independence_test(table), false,
                     "outputs i and i + " + std::to_string(lag) + " within a call"});
    }
    std::vector<std::vector<std::uint64_t>> table(K, std::vector<std::uint64_t>(K, 0));
    for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) ++table[a[k]][b[k]];
    report.tests.push_back(TestRecord{"independence across calls", at, independence_test(table),
                                      false, "output i of two calls with different seeds"});
  }

  std::vector<double> p;
  for (const TestRecord& t : report.tests) p.push_back(t.outcome.p_value);
  const std::vector<bool> reject = holm(p, o.level);
  for (std::size_t k = 0; k < report.tests.size(); ++k) {
    report.tests[k].rejected = reject[k];
    report.conforms = report.conforms && !reject[k];
  }

  // Decoded values, where given: exact, so outside the error rate (a wrong level is no chance
  // event).
  for (std::size_t i = 0; i < answers.size(); ++i) {
    if (answers[i].values.empty()) continue;
    const std::size_t s = i < S ? i : plan.probes[(i - S) / 2];
    const PlannedSetting& ps = plan.settings[s];
    const Marginal m = marginals(ps.setting, ps.claimed).front();
    const double scale = std::max(to_double(ps.setting.radius), 0.0);
    std::string wrong;
    for (std::size_t k = 0; k < m.values.size(); ++k) {
      const Rational given = parse_rational(answers[i].values[k], "value");
      const double off = std::abs(to_double(Rational(given - m.values[k])));
      if (off > kValueTolerance * std::max(std::abs(to_double(m.values[k])), scale))
        wrong += (wrong.empty() ? "" : "; ") + m.labels[k] + " decodes to " + answers[i].values[k] +
                 ", not " + to_string(m.values[k]) + " (≈ " + decimal(to_double(m.values[k]), 17) +
                 ")";
    }
    TestRecord t{"decoded values", {s}, {}, !wrong.empty(), wrong.empty() ? "as the law's" : wrong};
    t.outcome.method =
        "exact comparison with the law's values (relative tolerance 2^-40; no error rate)";
    t.outcome.p_value = wrong.empty() ? 1 : 0;
    t.outcome.note = wrong;
    report.conforms = report.conforms && wrong.empty();
    report.tests.push_back(t);
  }

  // Which known laws the draws are consistent with, setting by setting (Bonferroni over settings).
  std::vector<std::string> names{plan.variant};
  names.insert(names.end(), plan.alternatives.begin(), plan.alternatives.end());
  for (std::size_t k = 0; k < names.size(); ++k) {
    Consistency c;
    c.name = names[k];
    c.description = describe_law(mechanism, names[k]);
    c.fault_model = is_fault_model(names[k]);
    double miss = 1;
    for (std::size_t i = 0; i < S; ++i) {
      const PlannedSetting& ps = plan.settings[i];
      const Law law = exact_law(ps.setting, names[k]);
      const double pv = goodness_of_fit(answers[i].counts, law.prob, law.labels).p_value;
      if (pv < c.smallest_p) c.smallest_p = pv, c.worst = i;
      if (pv <= o.level / static_cast<double>(S)) {
        c.consistent = false;
        ++c.rejecting;
      }
      if (k > 0) {
        const AlternativeAt& a = ps.alternatives[k - 1];
        miss *= 1 - a.power;
        c.powered += a.power >= o.power ? 1 : 0;
      }
    }
    c.run_power = k > 0 ? 1 - miss : 0;
    report.laws.push_back(c);
  }
  return report;
}

Report run_trial(Sampler& sampler, const Plan& plan, const Options& o) {
  std::vector<Answer> answers;
  answers.reserve(plan.requests.size());
  for (const Request& r : plan.requests) {
    Answer a = sampler.draw(r);
    if (!r.outputs) std::vector<std::uint8_t>().swap(a.sequence);
    check_answer(r, a);
    answers.push_back(std::move(a));
  }
  return evaluate(plan, answers, o);
}

}  // namespace corbin::conform
