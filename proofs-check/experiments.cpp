#include "experiments.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include <boost/math/distributions/students_t.hpp>

#include "corbin/number/error.hpp"

namespace corbin::audit {
namespace {

/// The fields of one CSV line (RFC 4180: quoted fields, "" inside quotes).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (ch == '"') quoted = false;
      else out.back() += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else if (ch != '\r') {
      out.back() += ch;
    }
  }
  return out;
}

// What the sequential rule says of "A above B" (experiments.hpp): decided either way, undecided
// after the last look, pending (a later look's seeds missing), or missing (fewer than the first
// look's seeds).
enum class Order { above, below, undecided, pending, missing };

const char* to_string(Order o) {
  switch (o) {
    case Order::above: return "above";
    case Order::below: return "below";
    case Order::undecided: return "undecided";
    case Order::pending: return "pending";
    case Order::missing: return "missing";
  }
  return "missing";
}

/// One look of Welch's test: the difference of means, its standard error and degrees of freedom,
/// t, both one-sided p-values and the rule's interval for the difference.
struct Look {
  std::size_t n = 0;
  double difference = 0, se = 0, df = 0, t = 0, p_above = 1, p_below = 1, low = 0, high = 0;
  Order order = Order::undecided;
};

struct Sequential {
  Order order = Order::missing;
  std::vector<Look> looks;
};

/// A constant to compare against (a threshold such as 1.5 points): one value, no run.
bool is_constant(const SeedValues& v) { return v.run.empty() && v.minus_run.empty() && v.values.size() == 1; }

/// The values of the first n sequential seeds, or none when one of them is missing.
std::optional<std::vector<double>> first_seeds(const SeedValues& v, std::size_t n) {
  if (is_constant(v)) return v.values;
  std::vector<double> out;
  for (std::size_t k = 0; k < n; ++k) {
    const auto it = std::find(v.seeds.begin(), v.seeds.end(), kSequentialSeeds[k]);
    if (it == v.seeds.end()) return std::nullopt;
    out.push_back(v.values[static_cast<std::size_t>(it - v.seeds.begin())]);
  }
  return out;
}

/// The mean and the squared standard error of the mean (0 for a constant).
std::pair<double, double> mean_and_se2(const std::vector<double>& x, bool constant) {
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  if (constant) return {mean, 0.0};
  double ss = 0;
  for (double v : x) ss += (v - mean) * (v - mean);
  const double n = static_cast<double>(x.size());
  return {mean, ss / (n - 1) / n};
}

Look welch(const std::vector<double>& a, bool a_constant, const std::vector<double>& b, bool b_constant) {
  namespace bm = boost::math;
  Look look;
  look.n = std::max(a_constant ? 0 : a.size(), b_constant ? 0 : b.size());
  const auto [ma, va] = mean_and_se2(a, a_constant);
  const auto [mb, vb] = mean_and_se2(b, b_constant);
  look.difference = ma - mb;
  const double level = kAlpha / static_cast<double>(std::size(kLooks));
  look.se = std::sqrt(va + vb);
  if (look.se == 0) {  // no spread at all: the sign of the difference decides
    look.df = std::numeric_limits<double>::infinity();
    look.t = look.difference > 0 ? look.df : look.difference < 0 ? -look.df : 0;
    look.p_above = look.difference > 0 ? 0 : 1;
    look.p_below = look.difference < 0 ? 0 : 1;
    look.low = look.high = look.difference;
  } else {
    const double ta = a_constant ? 0 : va * va / static_cast<double>(a.size() - 1);
    const double tb = b_constant ? 0 : vb * vb / static_cast<double>(b.size() - 1);
    look.df = (va + vb) * (va + vb) / (ta + tb);
    // Welch's degrees of freedom lie between the smaller spread sample's size less one and the
    // two sizes less two; where the squares underflow (spreads near the least double) the formula
    // leaves that range or gives NaN, and the nearest end of it stands in.
    const double fewest = static_cast<double>(std::min(a_constant ? b.size() : a.size(), b_constant ? a.size() : b.size()) - 1);
    const double most = static_cast<double>((a_constant ? 0 : a.size() - 1) + (b_constant ? 0 : b.size() - 1));
    if (!(look.df >= fewest)) look.df = fewest;
    if (look.df > most) look.df = most;
    look.t = look.difference / look.se;
    const bm::students_t_distribution<double> T(look.df);
    look.p_above = bm::cdf(bm::complement(T, look.t));
    look.p_below = bm::cdf(T, look.t);
    const double q = bm::quantile(bm::complement(T, level));
    look.low = look.difference - q * look.se;
    look.high = look.difference + q * look.se;
  }
  look.order = look.p_above <= level ? Order::above : look.p_below <= level ? Order::below : Order::undecided;
  return look;
}

/// The rule over the looks: the first that decides stops; missing seeds leave it pending.
Sequential sequential(const SeedValues& a, const SeedValues& b) {
  Sequential out;
  for (std::size_t n : kLooks) {
    const auto xa = first_seeds(a, n), xb = first_seeds(b, n);
    if (!xa || !xb) {
      out.order = out.looks.empty() ? Order::missing : Order::pending;
      return out;
    }
    out.looks.push_back(welch(*xa, is_constant(a), *xb, is_constant(b)));
    if (out.looks.back().order != Order::undecided) break;
  }
  out.order = out.looks.back().order;
  return out;
}

const char* to_string(Want w) {
  switch (w) {
    case Want::above: return "above";
    case Want::not_above: return "not above";
    case Want::not_below: return "not below";
  }
  return "above";
}

bool gives(Want want, Order o) {
  switch (want) {
    case Want::above: return o == Order::above;
    case Want::not_above: return o == Order::below || o == Order::undecided;
    case Want::not_below: return o == Order::above || o == Order::undecided;
  }
  return false;
}

bool opposes(Want want, Order o) { return want == Want::not_above ? o == Order::above : o == Order::below; }

Json look_json(const Look& l) {
  const auto finite = [](double x) { return std::isfinite(x) ? Json(x) : Json(x > 0 ? "inf" : "-inf"); };
  return Json{{"n", l.n},         {"difference", l.difference}, {"se", l.se},
              {"df", finite(l.df)}, {"t", finite(l.t)},           {"p_above", l.p_above},
              {"p_below", l.p_below}, {"low", l.low},             {"high", l.high},
              {"order", to_string(l.order)}};
}

Json values_json(const SeedValues& v) {
  Json j = Json::object();
  j["label"] = v.label;
  if (!v.run.empty()) j["run"] = v.run;
  if (!v.minus_run.empty()) j["minus_run"] = v.minus_run;
  j["seeds"] = v.seeds;
  j["values"] = v.values;
  j["stopped"] = v.stopped;
  return j;
}

std::string number(double x, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << x;
  return s.str();
}

}  // namespace

SeedValues ExperimentRuns::get(const std::string& name, const std::string& label) const {
  const auto it = runs.find(name);
  SeedValues v = it == runs.end() ? SeedValues{} : it->second;
  v.label = label;
  v.run = name;
  return v;
}

ExperimentRuns load_experiment_runs(const std::string& path) {
  ExperimentRuns out;
  out.path = path;
  std::ifstream f(path);
  if (!f) return out;
  out.found = true;
  std::string line;
  if (!std::getline(f, line)) throw invalid_argument("experiment results", path, "a CSV with a header line");
  const std::vector<std::string> header = csv_fields(line);
  const auto column = [&](const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw invalid_argument("experiment results", path, std::string("a column ") + name);
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t run = column("run"), seed = column("seed"), accuracy = column("test_accuracy_at_best_round"),
                    stopped = column("stopped"), clients = column("clients"), lambda = column("lambda"),
                    rounds = column("rounds_run");
  std::vector<std::tuple<std::string, long long, double, bool>> rows;
  for (std::size_t number = 2; std::getline(f, line); ++number) {
    if (line.empty()) continue;
    const std::vector<std::string> field = csv_fields(line);
    if (field.size() != header.size())
      throw invalid_argument("experiment results", path + " line " + std::to_string(number),
                             std::to_string(header.size()) + " fields");
    double fraction = 0;
    long long seed_value = 0;
    try {
      fraction = std::stod(field[accuracy]);
      seed_value = std::stoll(field[seed]);
    } catch (const std::exception&) {
      throw invalid_argument("experiment results", path + " line " + std::to_string(number),
                             "a seed and an accuracy that are numbers");
    }
    // An accuracy is a fraction of the test set; anything else is a damaged file, and a value
    // far out of range would overflow the variances the comparison takes.
    if (!(fraction >= 0 && fraction <= 1))
      throw invalid_argument("experiment results", path + " line " + std::to_string(number),
                             "an accuracy in [0, 1]");
    rows.emplace_back(field[run], seed_value, 100 * fraction, !field[stopped].empty());
    if (out.settings.empty())
      out.settings = {{"clients", field[clients]}, {"lambda", field[lambda]}, {"rounds", field[rounds]}};
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  for (const auto& [name, s, value, stop] : rows) {
    SeedValues& v = out.runs[name];
    v.label = name;
    v.seeds.push_back(s);
    v.values.push_back(value);
    v.stopped.push_back(stop);
  }
  return out;
}

SeedValues paired_difference(const SeedValues& a, const SeedValues& b, const std::string& label) {
  SeedValues out;
  out.label = label;
  out.run = a.run;
  out.minus_run = b.run;
  for (std::size_t i = 0; i < a.seeds.size(); ++i)
    for (std::size_t j = 0; j < b.seeds.size(); ++j)
      if (a.seeds[i] == b.seeds[j]) {
        out.seeds.push_back(a.seeds[i]);
        out.values.push_back(a.values[i] - b.values[j]);
        out.stopped.push_back(a.stopped[i] || b.stopped[j]);
      }
  return out;
}

void ClaimPart::compare(const SeedValues& a, const SeedValues& b) { items_.emplace_back(a, b); }

Verdict ClaimPart::verdict() const {
  bool all = !items_.empty();
  for (const auto& [a, b] : items_) {
    const Order o = sequential(a, b).order;
    if (opposes(want_, o)) return Verdict::fails;
    all = all && gives(want_, o);
  }
  return all ? Verdict::holds : Verdict::undecided;
}

Json ClaimPart::certificate() const {
  Json j = Json::object();
  j["statement"] = statement_;
  j["want"] = to_string(want_);
  j["verdict"] = to_string(verdict());
  Json items = Json::array();
  for (const auto& [a, b] : items_) {
    Json item = Json::object();
    item["kind"] = "sequential_welch";
    item["a"] = values_json(a);
    item["b"] = values_json(b);
    const Sequential seq = sequential(a, b);
    Json looks = Json::array();
    for (const Look& l : seq.looks) looks.push_back(look_json(l));
    item["looks"] = looks;
    item["order"] = to_string(seq.order);
    items.push_back(item);
  }
  j["comparisons"] = items;
  return j;
}

std::string ClaimPart::describe() const {
  std::string text;
  for (const auto& [a, b] : items_) {
    if (!text.empty()) text += "; ";
    const Sequential seq = sequential(a, b);
    text += a.label + " " + to_string(seq.order) + " against " + b.label;
    if (seq.looks.empty()) {
      text += ": fewer than " + std::to_string(kLooks[0]) + " of the rule's seeds";
      continue;
    }
    const Look& l = seq.looks.back();
    text += " at n = " + std::to_string(l.n) + ": difference " + number(l.difference, 2) + " [" + number(l.low, 2) +
            ", " + number(l.high, 2) + "], p " + number(seq.order == Order::below ? l.p_below : l.p_above, 4);
    if (seq.order == Order::pending) text += ", the next look's seeds not run";
  }
  return text;
}

void decide_experiment(ClaimResult& out, const ExperimentRuns& runs, const std::vector<ClaimPart>& parts) {
  // The CSV by its place in the project (reports/fl-full/results.csv), not by where one machine
  // keeps it: the rechecker looks for it beside itself, and in the report folder.
  const std::filesystem::path csv(runs.path);
  out.certificate["results_csv"] =
      (csv.parent_path().parent_path().filename() / csv.parent_path().filename() / csv.filename()).string();
  out.certificate["data_set"] = "Fashion-MNIST (the only MNIST-format set Debian packages; the paper's "
                                "experiments use CIFAR-10 and MNIST)";
  out.certificate["metric"] = "test accuracy (%) at the best-validation round, one value per seed";
  out.certificate["rule"] = {
      {"test", "Welch's t, one-sided both ways, on the first n sequential seeds of both arms"},
      {"sequential_seeds", kSequentialSeeds},
      {"looks", kLooks},
      {"alpha", kAlpha},
      {"level_per_look", "alpha / number of looks (Bonferroni)"},
      {"parts", "a part fails iff a comparison decides the opposite of what it wants; 'above' holds only when "
                "decided; 'not above' / 'not below' hold when the rule ran to its last look without the "
                "opposite; the claim fails iff a part fails, holds iff every part holds, else undecided"}};
  Json settings = Json::object();
  for (const auto& [key, value] : runs.settings) settings[key] = value;
  out.certificate["settings"] = settings;
  if (!runs.found) {
    out.verdict = Verdict::undecided;
    out.finding = "no full-scale runs: " + runs.path + " is missing (run analysis/fl_experiments.py --scale full)";
    out.result = out.finding + ".";
    out.certificate["parts"] = Json::array();
    return;
  }
  bool any_fails = false, all_hold = true;
  Json certificate_parts = Json::array();
  std::string result;
  for (const ClaimPart& p : parts) {
    const Verdict v = p.verdict();
    any_fails = any_fails || v == Verdict::fails;
    all_hold = all_hold && v == Verdict::holds;
    certificate_parts.push_back(p.certificate());
    result += "\n- *" + p.statement() + "*: **" + to_string(v) + "** (" + p.describe() + ").";
  }
  out.certificate["parts"] = certificate_parts;
  out.verdict = any_fails ? Verdict::fails : all_hold ? Verdict::holds : Verdict::undecided;
  out.result = "On Fashion-MNIST at the settings of `reports/fl-full.md` (accuracies in %; each comparison at its last look: "
                "difference of means, the rule's interval, the deciding one-sided p):" + result;
}

}  // namespace corbin::audit
