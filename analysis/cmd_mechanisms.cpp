// `corbin mechanisms`: every registered mechanism (fl/registry.hpp) with what it is and what the
// toolkit can ask it, as a table or JSON; scripts (analysis/fl_experiments.py) read the list here
// instead of keeping their own.

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/fl/registry.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

void run_mechanisms(bool json) {
  Json list = Json::array();
  for (const fl::Mechanism* m : fl::Registry::global().all()) {
    Json one = Json::object();
    for (const auto& property : fl::properties_of(*m))
      std::visit([&](const auto& value) { one[property.first] = value; }, property.second);
    list.push_back(one);
  }
  if (json) {
    std::cout << Json{{"mechanisms", list}}.dump(1) << "\n";
    return;
  }
  for (const Json& one : list)
    std::cout << std::left << std::setw(10) << one["name"].get<std::string>() << " "
              << one["summary"].get<std::string>() << "\n";
}

}  // namespace

void add_mechanisms(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("mechanisms", "the registered mechanisms, what each is and can answer");
  cmd->add_flag("--json", *json, "one JSON object on stdout");
  cmd->callback([json] { run_mechanisms(*json); });
}

}  // namespace corbin::cli
