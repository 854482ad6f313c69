#include "experiments.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

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

enum class Order { above, below, overlap, missing };

const char* to_string(Order o) {
  switch (o) {
    case Order::above: return "above";
    case Order::below: return "below";
    case Order::overlap: return "overlap";
    case Order::missing: return "missing";
  }
  return "missing";
}

Order order_of(const SeedValues& a, const SeedValues& b) {
  if (a.values.empty() || b.values.empty()) return Order::missing;
  const auto [a_lo, a_hi] = std::minmax_element(a.values.begin(), a.values.end());
  const auto [b_lo, b_hi] = std::minmax_element(b.values.begin(), b.values.end());
  if (*a_lo > *b_hi) return Order::above;
  if (*a_hi < *b_lo) return Order::below;
  return Order::overlap;
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
    case Want::not_above: return o == Order::below || o == Order::overlap;
    case Want::not_below: return o == Order::above || o == Order::overlap;
  }
  return false;
}

bool opposes(Want want, Order o) { return want == Want::not_above ? o == Order::above : o == Order::below; }

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

std::string range_of(const SeedValues& v) {
  if (v.values.empty()) return "not run";
  const auto [lo, hi] = std::minmax_element(v.values.begin(), v.values.end());
  std::ostringstream s;
  s.precision(4);
  s << "[" << *lo << ", " << *hi << "]";
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
    try {
      const double value = 100 * std::stod(field[accuracy]);
      if (!std::isfinite(value)) throw std::invalid_argument("not finite");
      rows.emplace_back(field[run], std::stoll(field[seed]), value, !field[stopped].empty());
    } catch (const std::exception&) {
      throw invalid_argument("experiment results", path + " line " + std::to_string(number),
                             "a seed and an accuracy that are numbers");
    }
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
    const Order o = order_of(a, b);
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
    item["kind"] = "seed_order";
    item["a"] = values_json(a);
    item["b"] = values_json(b);
    item["order"] = to_string(order_of(a, b));
    items.push_back(item);
  }
  j["comparisons"] = items;
  return j;
}

std::string ClaimPart::describe() const {
  std::string text;
  for (const auto& [a, b] : items_) {
    if (!text.empty()) text += "; ";
    const Order o = order_of(a, b);
    text += o == Order::missing ? a.label + " " + range_of(a) + " against " + b.label + " " + range_of(b) + ": no comparison"
                                : a.label + " " + range_of(a) + " " + to_string(o) + " " + b.label + " " + range_of(b);
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
  out.certificate["rule"] = "A above B iff min over seeds of A > max over seeds of B; a part holds iff every "
                            "comparison gives what it wants, fails iff one gives the opposite; the claim fails iff "
                            "a part fails, holds iff every part holds, else undecided";
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
  out.result = "On Fashion-MNIST at the settings of `reports/fl-full.md` (accuracies in %, ranges over seeds):" + result;
}

}  // namespace corbin::audit
