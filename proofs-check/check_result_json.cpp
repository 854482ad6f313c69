// A check's result as JSON and back: a shard of a sharded audit (analysis/cmd_audit.cpp) runs
// its claims' checks and carries these to `corbin merge`, which attaches the readings and writes
// the report exactly as an unsharded audit does. Every field a check sets is carried; the
// readings and the decision are not (write_audit attaches them from the Coq evidence the merge
// reads).

#include <stdexcept>

#include "audit.hpp"

namespace corbin::audit {
namespace {

constexpr Verdict kVerdicts[] = {Verdict::holds, Verdict::holds_with_slack,
                                 Verdict::holds_only_under, Verdict::fails, Verdict::undecided};

Verdict verdict_named(const std::string& text) {
  for (const Verdict v : kVerdicts)
    if (text == to_string(v)) return v;
  throw std::invalid_argument("a check's verdict \"" + text + "\" is not one of claims.hpp's");
}

}  // namespace

Json check_result_json(const ClaimResult& r) {
  Json j = Json::object();
  j["id"] = r.id;
  j["verdict"] = to_string(r.verdict);
  j["condition"] = r.condition;
  j["finding"] = r.finding;
  j["statement"] = r.statement;
  j["method"] = r.method;
  j["result"] = r.result;
  j["recheck"] = r.recheck;
  Json figures = Json::array();
  for (const Figure& f : r.figures) figures.push_back({{"file", f.file}, {"caption", f.caption}});
  j["figures"] = figures;
  j["reading"] = r.reading;
  Json also = Json::array();
  for (const auto& [key, verdict] : r.also)
    also.push_back({{"reading", key}, {"verdict", to_string(verdict)}});
  j["also"] = also;
  j["certificate"] = r.certificate;
  return j;
}

ClaimResult check_result_from_json(const Json& j) {
  ClaimResult r;
  r.id = j.at("id").get<std::string>();
  r.verdict = verdict_named(j.at("verdict").get<std::string>());
  r.condition = j.at("condition").get<std::string>();
  r.finding = j.at("finding").get<std::string>();
  r.statement = j.at("statement").get<std::string>();
  r.method = j.at("method").get<std::string>();
  r.result = j.at("result").get<std::string>();
  r.recheck = j.at("recheck").get<std::string>();
  for (const Json& f : j.at("figures"))
    r.figures.push_back({f.at("file").get<std::string>(), f.at("caption").get<std::string>()});
  r.reading = j.at("reading").get<std::string>();
  for (const Json& a : j.at("also"))
    r.also.emplace_back(a.at("reading").get<std::string>(),
                        verdict_named(a.at("verdict").get<std::string>()));
  r.certificate = j.at("certificate");
  return r;
}

}  // namespace corbin::audit
