// A sampler program for `corbin conform`'s end-to-end tests: reads one JSON request per line on
// stdin, answers one JSON line on stdout (algorithm_sampler.hpp draws), and misbehaves on demand.
//
//   conform_sampler [--fault NAME] [--bias X] [--outputs] [--values] [--misbehave WHAT] [--at N]
//   [--pid-file PATH]
//
// --outputs answers with the outputs in draw order even where counts were asked; --values adds the
// value each output decodes to (c ± rα, exactly; 1% off at every request with --misbehave
// wrong-value). --misbehave
// acts at the N-th request (default 1): hang (never answers), crash (SIGSEGV), garbage (a line
// that is not JSON), stderr-flood (writes to stderr without end), wrong-count (one draw short),
// missing-id (skips to the next id), repeat-id (answers the previous id), refuse (an "error"
// answer), exit (exits 0 without answering), grandchild-hang (starts a child that sleeps forever,
// then hangs: the process group must be killed), ignore-eof (keeps running after its input ends).
// --pid-file writes its process id (and a grandchild's, when it starts one) to PATH, one a line,
// so that a test can check that nothing is left running.

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "algorithm_sampler.hpp"

using corbin::Rational;

namespace cf = corbin::conform;

int main(int argc, char** argv) {
  std::string fault = "none", misbehave;
  double bias = 0;
  bool outputs = false, values = false;
  long at = 1;
  std::string pid_file;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--fault")
      fault = next();
    else if (a == "--bias")
      bias = std::atof(next().c_str());
    else if (a == "--outputs")
      outputs = true;
    else if (a == "--values")
      values = true;
    else if (a == "--misbehave")
      misbehave = next();
    else if (a == "--at")
      at = std::atol(next().c_str());
    else if (a == "--pid-file")
      pid_file = next();
    else {
      std::cerr << "conform_sampler: unknown argument " << a << "\n";
      return 2;
    }
  }
  const auto note_pid = [&](pid_t pid) {
    if (pid_file.empty()) return;
    FILE* f = std::fopen(pid_file.c_str(), "a");
    std::fprintf(f, "%ld\n", static_cast<long>(pid));
    std::fclose(f);
  };
  note_pid(getpid());
  conform_test::AlgorithmSampler sampler(conform_test::parse_fault(fault), bias);
  std::string line;
  long n = 0;
  std::uint64_t previous_id = 0;
  while (std::getline(std::cin, line)) {
    ++n;
    const auto request = nlohmann::json::parse(line);
    const std::uint64_t id = request.at("id").get<std::uint64_t>();
    if (n == at) {
      if (misbehave == "hang" || misbehave == "grandchild-hang") {
        if (misbehave == "grandchild-hang") {
          const pid_t child = fork();
          if (child == 0)
            for (;;) pause();
          note_pid(child);
        }
        for (;;) pause();
      }
      if (misbehave == "crash") raise(SIGSEGV);
      if (misbehave == "exit") return 0;
      if (misbehave == "garbage") {
        std::cout << "this is not JSON {" << std::endl;
        continue;
      }
      if (misbehave == "stderr-flood") {
        const std::string chunk(4096, 'x');
        for (;;) std::cerr << chunk << std::endl;
      }
      if (misbehave == "refuse") {
        std::cout << nlohmann::json{{"id", id}, {"error", "unsupported variant"}}.dump()
                  << std::endl;
        continue;
      }
    }
    cf::Request r;
    r.id = id;
    r.setting.mechanism = cf::parse_mechanism(request.at("mechanism").get<std::string>());
    r.variant = request.at("variant").get<std::string>();
    r.setting.exp_eps = corbin::parse_rational(request.at("exp_eps").get<std::string>(), "exp_eps");
    if (request.contains("bits")) r.setting.bits = request.at("bits").get<unsigned>();
    r.setting.center = corbin::parse_rational(request.at("center").get<std::string>(), "center");
    r.setting.radius = corbin::parse_rational(request.at("radius").get<std::string>(), "radius");
    for (const auto& w : request.at("inputs"))
      r.setting.inputs.push_back(corbin::parse_rational(w.get<std::string>(), "w"));
    r.draws = request.at("draws").get<std::uint64_t>();
    r.seed = std::stoull(request.at("seed").get<std::string>());
    r.outputs = outputs || request.at("report").get<std::string>() == "outputs";
    const cf::Answer a = sampler.draw(r);
    const auto labels = cf::output_labels(r.setting.mechanism);
    nlohmann::json answer{{"id", id}};
    if (n == at && misbehave == "missing-id") answer["id"] = id + 1;
    if (n == at && misbehave == "repeat-id") answer["id"] = previous_id;
    if (r.outputs) {
      auto list = nlohmann::json::array();
      for (std::uint8_t k : a.sequence) list.push_back(labels[k]);
      answer["outputs"] = list;
    } else {
      nlohmann::json counts = nlohmann::json::object();
      for (std::size_t k = 0; k < labels.size(); ++k) counts[labels[k]] = a.counts[k];
      if (n == at && misbehave == "wrong-count")
        counts[labels[0]] = a.counts[0] - (a.counts[0] > 0 ? 1 : -1);
      answer["counts"] = counts;
    }
    if (values) {
      const Rational level = r.setting.radius * (r.setting.exp_eps + 1) / (r.setting.exp_eps - 1) *
                             (misbehave == "wrong-value" ? Rational(101, 100) : Rational(1));
      answer["values"] = {
          {"+", corbin::to_string(Rational(r.setting.center + level))},
          {"-", corbin::to_double(Rational(r.setting.center - level))}};  // a string, and a decimal
    }
    std::cout << answer.dump() << std::endl;
    previous_id = id;
  }
  if (misbehave == "ignore-eof")
    for (;;) pause();
  return 0;
}
