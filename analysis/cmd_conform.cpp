// `corbin conform`: a sampler on trial against the exact law (src/corbin/conform/,
// docs/conform.md).
//
// The sampler is corbin's own (builtin:cpu, the fixed-point samplers of `corbin fl`; builtin:kernels
// and builtin:cuda, its round kernels on the host and on a GPU; builtin:exact, draws from the exact
// law: src/corbin/conform/builtin.hpp) or a program started with an argument vector, never a shell, that
// speaks the line protocol: one JSON request per line on its stdin, one JSON answer per line on
// its stdout. Everything after `--sampler PROGRAM` is the program's own arguments. The program is
// stopped, with everything it started, however the run ends; a bad answer, a hang past --timeout,
// a crash or a flood of stderr ends the run with exit status 2 and one line saying what happened.

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "corbin/conform/builtin.hpp"
#include "corbin/conform/grid.hpp"
#include "corbin/conform/trial.hpp"
#include "corbin/io/child_process.hpp"
#include "corbin/io/files.hpp"
#include "corbin/io/json_reader.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run_app.hpp"

namespace corbin::cli {
namespace {

namespace cf = corbin::conform;
using Clock = std::chrono::steady_clock;

/// The sampler's own arguments (after `--sampler PROGRAM`), set aside before CLI11 parses.
std::vector<std::string>& sampler_arguments() {
  static std::vector<std::string> args;
  return args;
}

struct ConformArgs {
  std::string sampler, mechanism = "corbinq", variant, grid = "default", samples = "auto";
  std::string min_draws = "100000", max_draws = "1000000", power = "0.9", level = "1/1000",
              effect = "0";
  std::string independence_draws = "65536", seed = "1", timeout = "60", stderr_limit = "1048576";
  std::string junit;
  bool no_independence = false, json = false, plan_only = false;
};

std::string decimal(double x, int digits = 4) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::ostringstream out;
  out << std::setprecision(digits) << x;
  return out.str();
}

double parse_probability(const std::string& text, const char* option, bool closed_zero) {
  const Rational x = parse_rational(text, option);
  if (closed_zero ? (x < 0 || x >= 1) : (x <= 0 || x >= 1))
    throw invalid_argument(option, quote(text), closed_zero ? "in [0, 1)" : "in (0, 1)");
  return to_double(x);
}

// ---------------------------------------------------------------------------------------------
// The grid.

/// A string or a list of strings (a JSON grid file's value), each parsed exactly.
std::vector<Rational> rationals_of(const Json& value, const std::string& where) {
  std::vector<Rational> out;
  const auto one = [&](const Json& v, const std::string& at) {
    if (!v.is_string())
      throw invalid_argument("--grid", at + " = " + shortened(v.dump()),
                             "an exact number as a string (\"3\", \"1/3\")");
    out.push_back(parse_rational(v.get<std::string>(), at));
  };
  if (value.is_array())
    for (std::size_t i = 0; i < value.size(); ++i)
      one(value[i], where + "[" + std::to_string(i) + "]");
  else
    one(value, where);
  return out;
}

std::vector<unsigned> bits_of(const Json& value, const std::string& where) {
  std::vector<unsigned> out;
  const auto one = [&](const Json& v, const std::string& at) {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > cf::kMaxConformBits)
      throw invalid_argument("--grid", at + " = " + shortened(v.dump()),
                             "an integer in [1, " + std::to_string(cf::kMaxConformBits) + "]");
    out.push_back(v.get<unsigned>());
  };
  if (value.is_array())
    for (std::size_t i = 0; i < value.size(); ++i)
      one(value[i], where + "[" + std::to_string(i) + "]");
  else
    one(value, where);
  return out;
}

/// A library error raised for a grid file's entry, renamed to the entry.
template <class F>
auto within(const std::string& where, F&& f) {
  try {
    return f();
  } catch (const invalid_argument& e) {
    if (e.parameter().rfind("--grid", 0) == 0) throw;
    // The entry's field is the parameter, so that its value is echoed (cut) as any other.
    throw invalid_argument("--grid " + where + "." + e.parameter(), e.value(), e.rule());
  }
}

/// The settings of a grid file: {"groups": [{"exp_eps", "bits", "center", "radius"}] whose inputs
/// corbin chooses, "settings": [{..., "inputs": [...]}] taken as they are}. Numbers are strings;
/// "exp_eps" and "bits" may be lists.
std::vector<cf::Setting> grid_file(const std::string& path, const cf::Mechanism& m,
                                   const std::string& variant) {
  const std::string text = io::read_regular_file(path, 16u << 20, "--grid");
  // Nesting bounded, a key given twice and an integer beyond 64 bits refused, each named.
  const Json doc = io::parse_ordered_json(text, "--grid", path);
  if (!doc.is_object() || (!doc.contains("groups") && !doc.contains("settings")))
    throw invalid_argument("--grid", quote(path),
                           "a JSON object with \"groups\" and/or \"settings\" (docs/conform.md)");
  std::vector<cf::Setting> out;
  const auto geometry = [&](const Json& entry, const std::string& where, Rational& c, Rational& r) {
    c = entry.contains("center") ? rationals_of(entry["center"], where + ".center").at(0)
                                 : Rational(0);
    r = entry.contains("radius") ? rationals_of(entry["radius"], where + ".radius").at(0)
                                 : Rational(1);
  };
  for (const char* section : {"groups", "settings"}) {
    if (!doc.contains(section)) continue;
    const Json& list = doc[section];
    if (!list.is_array())
      throw invalid_argument("--grid", path + ": " + section, "a list of objects");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = path + ": " + section + "[" + std::to_string(i) + "]";
      const Json& entry = list[i];
      if (!entry.is_object() || !entry.contains("exp_eps"))
        throw invalid_argument("--grid", where, "an object with at least \"exp_eps\"");
      Rational c, r;
      geometry(entry, where, c, r);
      const auto budgets = rationals_of(entry["exp_eps"], where + ".exp_eps");
      std::vector<unsigned> bits{0};
      if (m.kind == cf::Kind::corbinq) {
        if (!entry.contains("bits"))
          throw invalid_argument("--grid", where, "an object with \"bits\" (CorBinQ's d)");
        bits = bits_of(entry["bits"], where + ".bits");
      }
      for (const Rational& e : budgets)
        for (unsigned d : bits) {
          if (std::string(section) == "groups") {
            const cf::Group g{m, e, d, c, r};
            for (cf::Setting& s : within(where, [&] { return cf::choose_settings(g, variant); }))
              out.push_back(std::move(s));
          } else {
            if (!entry.contains("inputs"))
              throw invalid_argument("--grid", where, "an object with \"inputs\"");
            cf::Setting s{
                m, e, d, c, r, rationals_of(entry["inputs"], where + ".inputs"), {"from " + path}};
            within(where, [&] {
              cf::check_setting(s);
              return 0;
            });
            out.push_back(std::move(s));
          }
        }
    }
  }
  if (out.empty())
    throw invalid_argument("--grid", quote(path), "a grid with at least one setting");
  return out;
}

std::vector<cf::Setting> grid_settings(const ConformArgs& a, const cf::Mechanism& m,
                                       const std::string& variant) {
  if (a.grid == "quick" || a.grid == "default")
    return cf::grid_settings(m, a.grid == "quick" ? cf::GridSize::quick : cf::GridSize::standard,
                             variant);
  return grid_file(a.grid, m, variant);
}

// ---------------------------------------------------------------------------------------------
// The line protocol with a child process.

Json request_json(const cf::Request& r) {
  const cf::Setting& s = r.setting;
  Json j = Json::object();
  j["id"] = r.id;
  j["mechanism"] = s.mechanism.name();
  j["variant"] = r.variant;
  j["exp_eps"] = to_string(s.exp_eps);
  j["alpha"] = to_string(cf::alpha_of(s.exp_eps));
  if (s.mechanism.kind == cf::Kind::corbinq) j["bits"] = s.bits;
  if (s.mechanism.kind == cf::Kind::pbm || s.mechanism.kind == cf::Kind::rqm)
    j["m"] = s.mechanism.m;
  if (s.mechanism.kind == cf::Kind::rqm) j["keep"] = "1/2";
  j["center"] = to_string(s.center);
  j["radius"] = to_string(s.radius);
  Json inputs = Json::array();
  for (const Rational& w : s.inputs) inputs.push_back(to_string(w));
  j["inputs"] = inputs;
  j["draws"] = r.draws;
  j["seed"] = std::to_string(r.seed);
  j["report"] = r.outputs ? "outputs" : "counts";
  j["labels"] = cf::output_labels(s.mechanism);
  return j;
}

/// Reads an answer line without building it in memory (a list of a million outputs stays a byte
/// per draw): {"id": N, "counts": {LABEL: N, ...}} or {"id": N, "outputs": [LABEL, ...]}, or
/// {"id": N, "error": TEXT} for a request the sampler refuses. Other keys are ignored.
class AnswerReader : public nlohmann::json_sax<nlohmann::json> {
 public:
  AnswerReader(const std::vector<std::string>& labels,
               const std::vector<std::string>& client_labels, std::uint64_t draws)
      : labels_(labels), client_labels_(client_labels), draws_(draws) {
    counts.assign(labels.size(), 0);
  }
  std::optional<std::uint64_t> id;
  std::vector<std::uint64_t> counts;
  std::vector<std::uint8_t> sequence;
  std::vector<std::string> values;  ///< per client label; empty when not given
  bool has_counts = false, has_outputs = false, has_values = false;
  std::optional<std::string> error;
  std::string problem;

  bool null() override { return scalar("null"); }
  bool boolean(bool) override { return scalar("a boolean"); }
  bool number_integer(number_integer_t v) override {
    if (depth_ == 2 && in_values_) return value(std::to_string(v));
    if (v >= 0) return number_unsigned(static_cast<number_unsigned_t>(v));
    return scalar("a negative number");
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (depth_ == 2 && in_values_) return value(std::to_string(v));
    if (depth_ == 1 && key_ == "id") {
      id = v;
      return true;
    }
    if (depth_ == 2 && in_counts_) {
      if (v > draws_) return fail("the count of '" + count_label_ + "' exceeds the draws asked");
      counts[count_index_] = v;
      return true;
    }
    return scalar("a number");
  }
  bool number_float(number_float_t, const string_t& text) override {
    if (depth_ == 2 && in_values_) return value(text);  // as written: parsed exactly
    return scalar("a fraction");
  }
  bool string(string_t& v) override {
    if (depth_ == 2 && in_values_) return value(v);
    if (depth_ == 1 && key_ == "error") {
      error = v;
      return true;
    }
    if (depth_ == 2 && in_outputs_) {
      if (sequence.size() >= draws_)
        return fail("more outputs than the " + std::to_string(draws_) + " draws asked");
      for (std::size_t k = 0; k < labels_.size(); ++k)
        if (labels_[k] == v) {
          sequence.push_back(static_cast<std::uint8_t>(k));
          return true;
        }
      return fail("an output " + quote(v) + " that is none of " + label_list());
    }
    return scalar("a string");
  }
  bool binary(binary_t&) override { return fail("binary data"); }
  bool start_object(std::size_t) override {
    ++depth_;
    if (depth_ == 1) return true;
    if (depth_ == 2 && key_ == "counts") {
      if (has_counts) return fail("two \"counts\"");
      has_counts = in_counts_ = true;
      return true;
    }
    if (depth_ == 2 && key_ == "values") {
      if (has_values) return fail("two \"values\"");
      has_values = in_values_ = true;
      values.assign(client_labels_.size(), "");
      return true;
    }
    return nested();
  }
  bool end_object() override {
    if (depth_ == 2) in_counts_ = in_values_ = false;
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    if (depth_ == 1) return fail("a list where an object was expected");
    if (depth_ == 2 && key_ == "outputs") {
      if (has_outputs) return fail("two \"outputs\"");
      has_outputs = in_outputs_ = true;
      return true;
    }
    return nested();
  }
  bool end_array() override {
    if (depth_ == 2) in_outputs_ = false;
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) {
      key_ = k;
      return true;
    }
    if (depth_ == 2 && in_counts_) {
      for (std::size_t i = 0; i < labels_.size(); ++i)
        if (labels_[i] == k) {
          if (seen_.size() <= i) seen_.resize(labels_.size(), false);
          if (seen_[i]) return fail("the output " + quote(k) + " counted twice");
          seen_[i] = true;
          count_index_ = i;
          count_label_ = k;
          return true;
        }
      return fail("a count for " + quote(k) + ", which is none of " + label_list());
    }
    if (depth_ == 2 && in_values_) {
      for (std::size_t i = 0; i < client_labels_.size(); ++i)
        if (client_labels_[i] == k) {
          if (!values[i].empty()) return fail("the value of " + quote(k) + " given twice");
          value_index_ = i;
          value_label_ = k;
          return true;
        }
      return fail("a value for " + quote(k) + ", which is no client output label");
    }
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    return fail("not JSON (from byte " + std::to_string(position) + ")");
  }

 private:
  bool fail(std::string what) {
    if (problem.empty()) problem = std::move(what);
    return false;
  }
  bool value(const std::string& text) {
    if (text.empty()) return fail("an empty value for " + quote(value_label_));
    values[value_index_] = text;
    return true;
  }
  bool scalar(const char* what) {
    if (depth_ == 0) return fail(std::string(what) + " where an object was expected");
    if (depth_ == 1 && (key_ == "id" || key_ == "counts" || key_ == "outputs" || key_ == "error" ||
                        key_ == "values"))
      return fail(std::string("\"") + key_ + "\" holds " + what);
    if (depth_ == 2 && in_counts_)
      return fail("the count of '" + count_label_ + "' is " + what + ", not a count");
    if (depth_ == 2 && in_outputs_)
      return fail("an output that is " + std::string(what) + ", not a label");
    return true;  // inside an ignored key
  }
  bool nested() {
    if (depth_ == 2 && (key_ == "id" || key_ == "error"))
      return fail("\"" + key_ + "\" holds a container");
    if (in_counts_ || in_outputs_ || in_values_) return fail("a container inside \"" + key_ + "\"");
    return true;
  }
  std::string label_list() const {
    std::string s;
    for (const auto& l : labels_) s += (s.empty() ? "" : ", ") + quote(l);
    return s;
  }
  const std::vector<std::string>& labels_;
  const std::vector<std::string>& client_labels_;
  std::uint64_t draws_;
  int depth_ = 0;
  std::string key_, count_label_, value_label_;
  std::size_t count_index_ = 0, value_index_ = 0;
  bool in_counts_ = false, in_outputs_ = false, in_values_ = false;
  std::vector<bool> seen_;
};

std::string describe_status(int status) {
  if (status >= 128) {
    const char* name = sigabbrev_np(status - 128);
    return "was killed by signal " + std::to_string(status - 128) +
           (name ? std::string(" (SIG") + name + ")" : "");
  }
  return "exited with status " + std::to_string(status);
}

/// A child process as a Sampler: every failure a ProtocolError saying what happened.
class ProcessSampler final : public cf::Sampler {
 public:
  ProcessSampler(const std::vector<std::string>& argv, double timeout_s, std::uint64_t stderr_limit)
      : child_(argv, "--sampler", stderr_limit),
        timeout_(
            std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s))),
        timeout_text_(decimal(timeout_s) + " s"),
        stderr_limit_(stderr_limit) {
    for (const std::string& a : argv) name_ += (name_.empty() ? "" : " ") + a;
  }

  cf::Answer draw(const cf::Request& r) override {
    const auto start = Clock::now();
    const std::string which = "request " + std::to_string(r.id) + " (" + cf::describe(r.setting) +
                              ", " + std::to_string(r.draws) + " draws)";
    const auto deadline = start + timeout_;
    io::ChildProcess::Status st = child_.write(request_json(r).dump() + "\n", deadline);
    std::string line;
    if (st == io::ChildProcess::Status::ok)
      st = child_.read_line(line, deadline, std::max<std::uint64_t>(1u << 20, 16 * r.draws + 4096));
    seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
    switch (st) {
      case io::ChildProcess::Status::ok:
        break;
      case io::ChildProcess::Status::timeout:
        fail("did not answer " + which + " within --timeout " + timeout_text_ + "; it was stopped");
      case io::ChildProcess::Status::closed: {
        const std::string partial = line.empty() ? "" : " after writing half a line " + quote(line);
        const int status = child_.stop(std::chrono::milliseconds(200));
        fail("ended before answering " + which + partial + ": it " + describe_status(status));
      }
      case io::ChildProcess::Status::stderr_limit:
        fail("wrote more than --stderr-limit " + std::to_string(stderr_limit_) +
             " bytes on its standard error (at " + which + "); it was stopped");
      case io::ChildProcess::Status::line_limit:
        fail("answered " + which + " with a line longer than the answer can be; it was stopped");
    }
    const auto labels = cf::output_labels(r.setting.mechanism);
    const std::vector<std::string> client_labels =
        r.setting.mechanism.kind == cf::Kind::corbinq ? std::vector<std::string>{"+", "-"} : labels;
    AnswerReader reader(labels, client_labels, r.draws);
    const bool parsed = Json::sax_parse(line, &reader);
    if (!parsed || !reader.problem.empty())
      fail("answered " + which + " with a line that is not a protocol answer: " +
           (reader.problem.empty() ? std::string("not JSON") : reader.problem) + ": " +
           quote(line));
    if (!reader.id) fail("answered " + which + " without an \"id\": " + quote(line));
    if (*reader.id != r.id) {
      if (*reader.id < r.id)
        fail("answered request " + std::to_string(*reader.id) + " again where an answer to " +
             which + " was due");
      fail("answered request " + std::to_string(*reader.id) +
           ", which was not sent yet, where an answer to " + which +
           " was due (a missing or wrong id)");
    }
    if (reader.error) fail("refused " + which + ": " + quote(*reader.error));
    if (!reader.has_counts && !reader.has_outputs)
      fail("answered " + which + " with neither \"counts\" nor \"outputs\": " + quote(line));
    cf::Answer a;
    if (reader.has_outputs) {
      a.sequence = std::move(reader.sequence);
      a.counts.assign(labels.size(), 0);
      for (std::uint8_t k : a.sequence) ++a.counts[k];
      if (reader.has_counts && reader.counts != a.counts)
        fail("answered " + which + " with counts that disagree with its outputs");
    } else {
      a.counts = std::move(reader.counts);
    }
    if (reader.has_values) {
      for (std::size_t k = 0; k < client_labels.size(); ++k)
        if (reader.values[k].empty())
          fail("answered " + which + " with \"values\" lacking " + quote(client_labels[k]));
      a.values = std::move(reader.values);
    }
    try {
      cf::check_answer(r, a);
    } catch (const cf::ProtocolError& e) {
      fail(std::string("answered ") + e.what() +
           (r.outputs ? " (--no-independence skips such requests)" : ""));
    }
    return a;
  }

  /// Ends the child (input closed, 2 s to exit, then its group killed); what happened, for the
  /// report.
  std::string finish() {
    const int status = child_.stop(std::chrono::seconds(2));
    if (child_.killed()) return "did not exit within 2 s of its input's end and was stopped";
    return status == 0 ? "exited with status 0" : describe_status(status);
  }
  double seconds() const { return seconds_; }
  std::uint64_t stderr_bytes() const { return child_.stderr_bytes(); }

 private:
  [[noreturn]] void fail(const std::string& what) {
    child_.stop(std::chrono::milliseconds(0));
    std::string text = "the sampler " + quote(name_) + " " + what;
    const std::string last = child_.stderr_last_line();
    if (!last.empty()) text += "; its last line on stderr: " + quote(last);
    throw cf::ProtocolError(text);
  }
  io::ChildProcess child_;
  Clock::duration timeout_;
  std::string timeout_text_;
  std::uint64_t stderr_limit_;
  std::string name_;
  double seconds_ = 0;
};

/// Times a built-in sampler (its draws are the sampler's time, not corbin's).
class TimedSampler final : public cf::Sampler {
 public:
  explicit TimedSampler(cf::Sampler& inner) : inner_(inner) {}
  cf::Answer draw(const cf::Request& r) override {
    const auto start = Clock::now();
    cf::Answer a = inner_.draw(r);
    seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
    return a;
  }
  double seconds() const { return seconds_; }

 private:
  cf::Sampler& inner_;
  double seconds_ = 0;
};

/// SIGINT, SIGTERM, SIGHUP during a run: the child's process group goes first, then us.
extern "C" void on_fatal_signal(int sig) {
  io::kill_running_children();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

struct SignalGuard {
  struct sigaction old_[3];
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  SignalGuard() {
    struct sigaction sa {};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &sa, &old_[i]);
  }
  ~SignalGuard() {
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &old_[i], nullptr);
  }
};

// ---------------------------------------------------------------------------------------------
// The report.

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\n':
        out += "&#10;";
        break;
      default:
        append_visible(out, ch);
    }
  }
  return out;
}

Json number_or_null(double x) {
  return std::isfinite(x) ? Json(x) : Json(nullptr);
}

Json setting_json(const cf::PlannedSetting& ps, std::size_t index) {
  Json j = Json::object();
  j["index"] = index;
  j["description"] = cf::describe(ps.setting);
  j["mechanism"] = ps.setting.mechanism.name();
  put(j, "exp_eps", ps.setting.exp_eps);
  if (ps.setting.mechanism.kind == cf::Kind::corbinq) j["bits"] = ps.setting.bits;
  put(j, "center", ps.setting.center);
  put(j, "radius", ps.setting.radius);
  Json inputs = Json::array(), approx = Json::array();
  for (const Rational& w : ps.setting.inputs) {
    inputs.push_back(to_string(w));
    approx.push_back(to_double(w));
  }
  j["inputs"] = inputs;
  j["inputs_approx"] = approx;
  j["purposes"] = ps.setting.purposes;
  j["boundary_sensitive"] = ps.boundary;
  j["draws"] = ps.draws;
  j["draws_reason"] = ps.draws_reason;
  Json claimed = Json::object();
  for (std::size_t k = 0; k < ps.claimed.labels.size(); ++k)
    put(claimed, ps.claimed.labels[k], ps.claimed.prob[k]);
  j["claimed_law"] = claimed;
  Json alts = Json::array();
  for (const cf::AlternativeAt& a : ps.alternatives) {
    Json x = Json::object();
    x["name"] = a.name;
    put(x, "tv", a.tv);
    x["draws_needed"] = a.needed == 0 ? Json(nullptr) : Json(a.needed);
    x["power"] = a.power;
    alts.push_back(x);
  }
  j["alternatives"] = alts;
  j["detectable_shift"] = number_or_null(ps.detectable_shift);
  if (!ps.effect_note.empty()) j["effect_note"] = ps.effect_note;
  return j;
}

Json test_json(const cf::TestRecord& t) {
  Json j = Json::object();
  j["test"] = t.kind;
  j["settings"] = t.settings;
  j["statistic"] = number_or_null(t.outcome.statistic);
  if (t.outcome.df > 0) j["df"] = t.outcome.df;
  j["p_value"] = t.outcome.p_value;
  j["rejected"] = t.rejected;
  j["method"] = t.outcome.method;
  if (!t.outcome.note.empty()) j["note"] = t.outcome.note;
  if (!t.detail.empty()) j["detail"] = t.detail;
  return j;
}

std::string junit_report(const cf::Plan& plan, const cf::Report& report, const std::string& title) {
  std::size_t failures = 0;
  for (const auto& t : report.tests) failures += t.rejected ? 1 : 0;
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"" +
                  xml_escaped(title) + "\" tests=\"" + std::to_string(report.tests.size()) +
                  "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\" skipped=\"0\">\n";
  for (std::size_t k = 0; k < report.tests.size(); ++k) {
    const cf::TestRecord& t = report.tests[k];
    const std::string where = t.settings.size() == 1
                                  ? cf::describe(plan.settings[t.settings[0]].setting)
                                  : std::to_string(t.settings.size()) + " settings";
    x += "<testcase classname=\"corbin.conform\" name=\"" +
         xml_escaped(std::to_string(k) + " " + t.kind + ": " + where) + "\">";
    x += "<properties><property name=\"p_value\" value=\"" + decimal(t.outcome.p_value, 6) +
         "\"/><property name=\"statistic\" value=\"" + decimal(t.outcome.statistic, 8) +
         "\"/><property name=\"method\" value=\"" + xml_escaped(t.outcome.method) +
         "\"/></properties>";
    if (t.rejected)
      x += "<failure message=\"" +
           xml_escaped("rejects: p = " + decimal(t.outcome.p_value) +
                       (t.outcome.note.empty() ? "" : "; " + t.outcome.note) +
                       (t.detail.empty() ? "" : "; " + t.detail)) +
           "\"/>";
    x += "</testcase>\n";
  }
  return x + "</testsuite>\n</testsuites>\n";
}

void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                 const std::string& indent) {
  std::vector<std::size_t> width;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], utf8_length(row[c]));
    }
  for (const auto& row : rows) {
    out << indent;
    for (std::size_t c = 0; c < row.size(); ++c)
      out << row[c]
          << (c + 1 < row.size() ? std::string(width[c] - utf8_length(row[c]) + 2, ' ') : "\n");
  }
}

std::string statistic_text(const cf::TestRecord& t) {
  const std::string& m = t.outcome.method;
  if (m.rfind("G-test", 0) == 0)
    return "G = " + decimal(t.outcome.statistic) + " (df " + decimal(t.outcome.df) + ")";
  if (m.rfind("exact binomial", 0) == 0) return "k = " + decimal(t.outcome.statistic, 12);
  if (m.rfind("z-test", 0) == 0) return "z = " + decimal(t.outcome.statistic);
  if (m.rfind("Clopper", 0) == 0) return "ε ≥ " + decimal(t.outcome.statistic);
  if (m.rfind("a count", 0) == 0) return "count " + decimal(t.outcome.statistic, 12);
  if (m.rfind("exact comparison", 0) == 0) return "—";
  return decimal(t.outcome.statistic);
}

// ---------------------------------------------------------------------------------------------

void run_conform(const ConformArgs& a) {
  const auto t0 = Clock::now();
  if (a.sampler.empty() && !a.plan_only)
    throw invalid_argument(
        "--sampler", "missing",
        "given: builtin:cpu, builtin:kernels, builtin:cuda, builtin:exact, or PROGRAM [ARG...] "
        "(last on the line)");
  const cf::Mechanism mechanism = cf::parse_mechanism(a.mechanism);
  const std::string variant = a.variant.empty() ? cf::variants_of(mechanism).front() : a.variant;
  cf::check_variant(mechanism, variant);
  cf::Options o;
  o.level = parse_probability(a.level, "--level", false);
  o.power = parse_probability(a.power, "--power", false);
  o.effect = parse_probability(a.effect, "--effect", true);
  if (o.effect >= 0.5) throw invalid_argument("--effect", quote(a.effect), "in [0, 1/2)");
  o.min_draws = parse_count(a.min_draws, "--min-draws", 10000000000ul, 1);
  o.max_draws = parse_count(a.max_draws, "--max-draws", 10000000000ul, 1);
  if (o.max_draws < o.min_draws)
    throw invalid_argument("--max-draws", a.max_draws, "at least --min-draws " + a.min_draws);
  if (a.samples != "auto") o.draws = parse_count(a.samples, "--samples", 10000000000ul, 1);
  o.independence = !a.no_independence;
  o.independence_draws = parse_count(a.independence_draws, "--independence-draws", 10000000ul, 64);
  o.seed = parse_count(a.seed, "--seed", std::numeric_limits<std::uint64_t>::max());
  const Rational timeout = parse_rational(a.timeout, "--timeout");
  if (timeout <= 0 || timeout > 86400)
    throw invalid_argument("--timeout", quote(a.timeout), "in (0, 86400] seconds");
  const std::uint64_t stderr_limit = parse_count(a.stderr_limit, "--stderr-limit", 1ul << 40);
  if (!a.junit.empty()) io::check_output_file(a.junit, "junit");

  const bool builtin = cf::is_builtin(a.sampler);
  if (builtin && !sampler_arguments().empty())
    throw invalid_argument(
        "--sampler", quote(a.sampler + " " + sampler_arguments().front()),
        "a built-in sampler without arguments (corbin's options go before --sampler)");
  cf::Builtin own;
  if (builtin) {
    try {
      own = cf::builtin_sampler(a.sampler, mechanism, variant);
    } catch (const invalid_argument& e) {
      throw invalid_argument("--" + e.parameter(), e.value(), e.rule());
    }
  }
  const bool fixed = own.fixed_point;
  const cf::ClaimedLaw claimed = builtin ? own.claimed : cf::exact_claim(variant);
  const std::vector<cf::Setting> settings = grid_settings(a, mechanism, variant);
  // A library error here names a setting's parameter (a grid file's budget too large for a float
  // sampler): said of --grid, which chose the setting.
  const cf::Plan plan = [&] {
    try {
      return cf::make_plan(settings, variant, claimed, o);
    } catch (const invalid_argument& e) {
      if (e.parameter().rfind("--", 0) == 0) throw;
      throw invalid_argument("--grid " + quote(a.grid) + ": " + e.parameter(), e.value(), e.rule());
    }
  }();
  const double plan_seconds = std::chrono::duration<double>(Clock::now() - t0).count();

  std::vector<std::string> argv;
  if (!builtin && !a.sampler.empty()) {
    argv.push_back(a.sampler);
    for (const std::string& x : sampler_arguments()) argv.push_back(x);
  }
  std::string sampler_text = a.sampler;
  for (const std::string& x : sampler_arguments()) sampler_text += " " + x;

  Json out = Json::object();
  out["sampler"] = a.plan_only ? Json(nullptr) : Json(sampler_text);
  out["mechanism"] = mechanism.name();
  out["variant"] = variant;
  out["variant_description"] = cf::describe_law(mechanism, variant);
  out["claimed_law"] =
      fixed ? "the fixed-point law " + a.sampler + " realises" : "the exact law of the variant";
  out["grid"] = a.grid;
  out["level"] = o.level;
  out["power"] = o.power;
  out["tests"] = plan.tests;
  out["per_test_level"] = plan.per_test_level;
  out["seed"] = std::to_string(o.seed);
  std::uint64_t planned_draws = 0;
  for (const cf::Request& r : plan.requests) planned_draws += r.draws;
  out["draws"] = planned_draws;
  Json settings_json = Json::array();
  for (std::size_t i = 0; i < plan.settings.size(); ++i)
    settings_json.push_back(setting_json(plan.settings[i], i));

  if (a.plan_only) {
    out["verdict"] = "plan";
    out["settings"] = settings_json;
    out["corbin_seconds"] = plan_seconds;
    if (a.json) {
      std::cout << out.dump() << "\n";
      return;
    }
    std::cout << "corbin conform --plan-only: " << plan.settings.size() << " settings, "
              << plan.probes.size() << " independence probes, " << plan.tests
              << " tests at family-wise level " << decimal(o.level) << " (per test "
              << decimal(plan.per_test_level) << "), " << planned_draws << " draws; planned in "
              << decimal(plan_seconds, 3) << " s\n";
    std::vector<std::vector<std::string>> rows{{"#", "setting", "draws", "why", "purposes"}};
    for (std::size_t i = 0; i < plan.settings.size(); ++i) {
      const auto& ps = plan.settings[i];
      std::string purposes;
      for (const auto& p : ps.setting.purposes) purposes += (purposes.empty() ? "" : "; ") + p;
      rows.push_back({std::to_string(i),
                      cf::describe(ps.setting) + (ps.boundary ? " [boundary]" : ""),
                      std::to_string(ps.draws), ps.draws_reason, purposes});
    }
    print_table(std::cout, rows, "  ");
    return;
  }

  // The run.
  SignalGuard signals;
  cf::Report report;
  double sampler_seconds = 0;
  std::string sampler_end;
  std::uint64_t sampler_stderr = 0;
  try {
    if (builtin) {
      TimedSampler timed(*own.sampler);
      report = cf::run_trial(timed, plan, o);
      sampler_seconds = timed.seconds();
    } else {
      ProcessSampler process(argv, to_double(timeout), stderr_limit);
      report = cf::run_trial(process, plan, o);
      sampler_seconds = process.seconds();
      sampler_end = process.finish();
      sampler_stderr = process.stderr_bytes();
    }
  } catch (const cf::ProtocolError& e) {
    std::cerr << "corbin: conform: " << visible(e.what()) << "\n";
    throw ExitStatus{2};
  }
  const double corbin_seconds =
      std::chrono::duration<double>(Clock::now() - t0).count() - sampler_seconds;

  std::size_t rejected = 0;
  for (const auto& t : report.tests) rejected += t.rejected ? 1 : 0;
  const int status = report.conforms ? 0 : 1;
  out["verdict"] = report.conforms ? "conforms" : "departs";
  out["exit_status"] = status;
  out["rejected"] = rejected;
  if (!sampler_end.empty()) out["sampler_end"] = sampler_end;
  if (!builtin) out["sampler_stderr_bytes"] = sampler_stderr;
  out["corbin_seconds"] = corbin_seconds;
  out["sampler_seconds"] = sampler_seconds;
  Json laws = Json::array(), consistent = Json::array();
  for (const cf::Consistency& c : report.laws) {
    Json j = Json::object();
    j["name"] = c.name;
    j["description"] = c.description;
    j["fault_model"] = c.fault_model;
    j["consistent"] = c.consistent;
    j["rejecting_settings"] = c.rejecting;
    j["smallest_p"] = c.smallest_p;
    j["worst_setting"] = c.worst;
    if (c.name != plan.variant) {
      j["run_power"] = c.run_power;
      j["powered_settings"] = c.powered;
    }
    laws.push_back(j);
    if (c.consistent) consistent.push_back(c.name);
  }
  out["consistent_with"] = consistent;
  out["laws"] = laws;
  Json privacy = Json::array();
  for (const cf::PrivacyBound& p : report.privacy) {
    Json j = Json::object();
    j["group"] = p.group;
    j["client"] = mechanism.clients() == 1 ? "Q" : p.client == 0 ? "Q1" : "Q2";
    j["tested"] = p.tested;
    if (!p.why_not.empty()) j["why_not"] = p.why_not;
    j["eps_certified"] = p.eps_certified;
    j["eps_lower"] = number_or_null(p.eps_lower);
    j["confidence"] = 1 - plan.per_test_level;
    j["witness"] = p.witness;
    privacy.push_back(j);
  }
  out["privacy"] = privacy;
  if (fixed) {
    Json fp = Json::array();
    Rational worst_float = 0, worst_exact = 0;
    for (std::size_t i = 0; i < plan.settings.size(); ++i) {
      const cf::FixedPointDistance d = cf::fixed_point_distance(plan.settings[i].setting);
      Json j = Json::object();
      j["setting"] = i;
      put(j, "tv_at_float_inputs", d.at_float_inputs);
      put(j, "tv_at_exact_inputs", d.at_exact_inputs);
      fp.push_back(j);
      worst_float = std::max(worst_float, d.at_float_inputs);
      worst_exact = std::max(worst_exact, d.at_exact_inputs);
    }
    put(out, "fixed_point_tv_max_at_float_inputs", worst_float);
    put(out, "fixed_point_tv_max_at_exact_inputs", worst_exact);
    out["fixed_point"] = fp;
  }
  Json tests = Json::array();
  for (const auto& t : report.tests) tests.push_back(test_json(t));
  out["settings"] = settings_json;
  out["test_results"] = tests;

  if (!a.junit.empty())
    io::write_atomically(a.junit, junit_report(plan, report, "corbin conform " + sampler_text),
                         "junit");

  if (a.json) {
    std::cout << out.dump() << "\n";
  } else {
    std::ostream& s = std::cout;
    s << "corbin conform: " << (report.conforms ? "conforms" : "departs") << " — " << rejected
      << " of " << report.tests.size() << " tests reject at family-wise error rate "
      << decimal(o.level) << " (Holm)\n";
    s << "  sampler   " << sampler_text << (sampler_end.empty() ? "" : "  (" + sampler_end + ")")
      << "\n";
    s << "  claims    " << mechanism.name() << ", " << variant << ": "
      << cf::describe_law(mechanism, variant)
      << (fixed ? "; held to the fixed-point law it realises" : "") << "\n";
    s << "  run       " << plan.settings.size() << " settings (grid " << a.grid << "), "
      << plan.probes.size() << " independence probe(s), " << report.draws << " draws, seed "
      << o.seed << "; corbin " << decimal(corbin_seconds, 3) << " s, sampler "
      << decimal(sampler_seconds, 3) << " s\n";
    if (rejected > 0) {
      s << "\ntests that reject:\n";
      std::vector<std::vector<std::string>> rows{
          {"#", "test", "setting", "statistic", "p", "detail"}};
      for (std::size_t k = 0; k < report.tests.size(); ++k) {
        const auto& t = report.tests[k];
        if (!t.rejected) continue;
        const std::string where = t.settings.size() == 1
                                      ? "#" + std::to_string(t.settings[0]) + " " +
                                            cf::describe(plan.settings[t.settings[0]].setting)
                                      : std::to_string(t.settings.size()) + " settings";
        rows.push_back({std::to_string(k), t.kind, where, statistic_text(t),
                        decimal(t.outcome.p_value, 3),
                        t.outcome.note.empty() ? t.detail : t.outcome.note});
      }
      print_table(s, rows, "  ");
    }
    s << "\nknown laws (consistent: no setting rejects it at " << decimal(o.level) << " / "
      << plan.settings.size() << " settings):\n";
    std::vector<std::vector<std::string>> rows{
        {"law", "verdict", "power of this run against it", "what it is"}};
    for (const cf::Consistency& c : report.laws) {
      const std::string verdict = c.consistent ? "consistent"
                                               : "inconsistent (" + std::to_string(c.rejecting) +
                                                     " settings; p = " + decimal(c.smallest_p, 3) +
                                                     " at #" + std::to_string(c.worst) + ")";
      const std::string power = c.name == plan.variant
                                    ? "(claimed)"
                                    : decimal(c.run_power, 4) + " (" + std::to_string(c.powered) +
                                          " settings reach " + decimal(o.power, 3) + ")";
      rows.push_back({c.name, verdict, power, c.description});
    }
    print_table(s, rows, "  ");
    if (fixed)
      s << "  (these are the exact laws; " << a.sampler
        << " itself is held to the fixed-point law it realises)\n";
    std::vector<std::string> matches;
    for (const cf::Consistency& c : report.laws)
      if (c.consistent) matches.push_back(c.name);
    if (!report.conforms) {
      if (matches.empty()) s << "  matches none of the known laws\n";
      for (const cf::Consistency& c : report.laws)
        if (c.consistent && c.name != plan.variant)
          s << "  matches " << c.name << ": " << c.description << "\n";
    }
    s << "\nprivacy (empirical lower bound on ε, confidence " << decimal(1 - plan.per_test_level, 8)
      << " each):\n";
    std::vector<std::vector<std::string>> prow{
        {"client", "group", "ε lower", "certified ε", "tested"}};
    for (const cf::PrivacyBound& p : report.privacy)
      prow.push_back({mechanism.clients() == 1 ? "Q"
                      : p.client == 0          ? "Q1"
                                               : "Q2",
                      p.group, decimal(p.eps_lower), decimal(p.eps_certified),
                      p.tested ? "yes" : "no: " + p.why_not});
    print_table(s, prow, "  ");
    double worst_shift = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < plan.settings.size(); ++i)
      if (plan.settings[i].detectable_shift > worst_shift)
        worst_shift = plan.settings[i].detectable_shift, at = i;
    s << "\nwhat this run can show: a finite sample never proves conformance. Each setting "
         "detects, with power "
      << decimal(o.power, 3) << ", a shift of a client's output probability of at least "
      << (std::isinf(worst_shift)
              ? std::string("(not computed for outputs with more than two values)")
              : decimal(worst_shift, 3) + " (the largest such shift, at #" + std::to_string(at) +
                    ")")
      << "; smaller departures can pass.\n";
    if (fixed) {
      s << "fixed-point law vs exact law: TV at most "
        << decimal(out["fixed_point_tv_max_at_float_inputs_approx"].get<double>(), 3)
        << " at the float inputs the sampler receives, "
        << decimal(out["fixed_point_tv_max_at_exact_inputs_approx"].get<double>(), 3)
        << " at the exact inputs asked\n";
    }
  }
  if (status != 0) throw ExitStatus{status};
}

}  // namespace

void take_sampler_arguments(int& argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "conform") != 0) return;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--sampler") == 0) {
      if (i + 2 < argc) {
        sampler_arguments().assign(argv + i + 2, argv + argc);
        argc = i + 2;
      }
      return;
    }
    if (std::strncmp(argv[i], "--sampler=", 10) == 0) {
      sampler_arguments().assign(argv + i + 1, argv + argc);
      argc = i + 1;
      return;
    }
  }
}

void add_conform(CLI::App& app) {
  auto a = std::make_shared<ConformArgs>();
  auto* cmd = app.add_subcommand(
      "conform",
      "test a sampler (a program, or corbin's own) against the exact law, at a stated error rate");
  cmd->add_option("--mechanism", a->mechanism,
                  "ldpq | corbinq | pbm1 | pbm2 | rqm2 | rqm3 (default corbinq)");
  cmd->add_option("--variant", a->variant,
                  "the variant the sampler claims: corrected | as-printed | reference-code for "
                  "corbinq (default "
                  "corrected); standard for the others");
  cmd->add_option("--grid", a->grid,
                  "quick | default | FILE (a JSON grid: docs/conform.md) (default default)");
  cmd->add_option("--samples", a->samples,
                  "auto (enough for --power against every other known law) or draws per setting");
  cmd->add_option("--min-draws", a->min_draws,
                  "fewest draws per setting with --samples auto (default 100000)");
  cmd->add_option("--max-draws", a->max_draws,
                  "most draws per setting with --samples auto (default 1000000)");
  cmd->add_option("--power", a->power,
                  "power to reach against each known alternative (default 0.9)");
  cmd->add_option("--level", a->level, "family-wise error rate of the run (default 1/1000)");
  cmd->add_option(
      "--effect", a->effect,
      "also detect a shift this large in any client's output probability (default 0: not asked)");
  cmd->add_flag("--no-independence", a->no_independence,
                "skip the independence tests (a sampler that gives counts only)");
  cmd->add_option("--independence-draws", a->independence_draws,
                  "draws per independence call (default 65536)");
  cmd->add_option("--seed", a->seed,
                  "seed of the requests' seeds: the same seed repeats a run (default 1)");
  cmd->add_option("--timeout", a->timeout,
                  "seconds a program may take to answer one request (default 60)");
  cmd->add_option("--stderr-limit", a->stderr_limit,
                  "bytes a program may write on stderr (default 1048576)");
  cmd->add_flag("--json", a->json, "one JSON object on stdout");
  cmd->add_option("--junit", a->junit, "write a JUnit XML report (one testcase per test)");
  cmd->add_flag("--plan-only", a->plan_only,
                "print the settings and draws a run would use, without a sampler");
  cmd->add_option("--sampler", a->sampler,
                  "builtin:cpu | builtin:kernels | builtin:cuda | builtin:exact | PROGRAM [ARG...]: last on the line, the rest is "
                  "the program's");
  cmd->callback([a] { run_conform(*a); });
}

}  // namespace corbin::cli
