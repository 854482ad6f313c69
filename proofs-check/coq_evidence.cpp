#include "coq_evidence.hpp"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "corbin/io/files.hpp"

namespace corbin::audit {
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// SHA-256 as 64 hex digits, as sha256sum writes them in check.sh's verified.txt.
std::string sha256_hex(const std::string& bytes) {
  constexpr std::string_view kPrefix = "sha256:";
  return io::sha256_hex(bytes).substr(kPrefix.size());
}

std::vector<std::string> project_files(const fs::path& source) {
  std::istringstream lines(read_text(source / "_CoqProject"));
  std::vector<std::string> files;
  for (std::string line; std::getline(lines, line);)
    if (line.size() > 2 && line.substr(line.size() - 2) == ".v") files.push_back(line);
  return files;
}

/// Empty when BUILD/verified.txt vouches for every source file as it is now (`hashes`, as read);
/// else why not.
std::string verification_gap(const fs::path& build, const std::vector<std::string>& files,
                             const std::map<std::string, std::string>& hashes) {
  const fs::path stamp = build / "verified.txt";
  if (!fs::exists(stamp))
    return "the Coq proofs were not checked in this build (" + stamp.string() +
           " is missing: run proofs-check/coq/check.sh, or ctest -L proof)";
  std::map<std::string, std::string> listed;
  std::istringstream lines(read_text(stamp));
  for (std::string hash, name; lines >> hash >> name;) listed[name] = hash;
  for (const std::string& f : files) {
    const auto it = listed.find(f);
    if (it == listed.end()) return "the last Coq check did not cover " + f;
    if (it->second != hashes.at(f))
      return f + " changed since the last Coq check";
  }
  return "";
}

}  // namespace

const PinnedTheorem* CoqEvidence::find(const std::string& id, const std::string& key) const {
  const auto it = pinned.find(id + "/" + key);
  return it == pinned.end() ? nullptr : &it->second;
}

std::string CoqEvidence::declaring_file(const std::string& name, const std::string& default_file) const {
  const std::size_t dot = name.rfind('.');
  const std::string bare = dot == std::string::npos ? name : name.substr(dot + 1);
  const std::string file = dot == std::string::npos ? default_file : name.substr(0, dot) + ".v";
  for (auto [it, end] = declared.equal_range(bare); it != end; ++it)
    if (it->second == file) return file;
  return "";
}

CoqEvidence load_coq_evidence(const fs::path& source, const fs::path& build) {
  CoqEvidence ev;
  const std::vector<std::string> files = project_files(source);
  ev.files = files.size();
  // Which file proves which lemma.
  std::multimap<std::string, std::string> proved_in;  // lemma -> file
  const std::regex declaration(R"((?:^|\n)\s*(?:Theorem|Lemma|Corollary)\s+([A-Za-z0-9_']+))");
  for (const std::string& f : files) {
    const std::string text = read_text(source / f);
    ev.source_sha256[f] = sha256_hex(text);
    for (std::sregex_iterator it(text.begin(), text.end(), declaration), end; it != end; ++it)
      proved_in.emplace((*it)[1].str(), f);
  }
  const std::string verdicts = read_text(source / "Verdicts.v");
  const std::regex pin(
      R"(Theorem\s+(holds|fails)__([A-Za-z0-9]+)__([a-z0-9_]+)\s*:\s*(.+?)\.\s+Proof\.\s*exact\s+([A-Za-z0-9_'.]+?)\s*\.\s*Qed\.)");
  for (std::sregex_iterator it(verdicts.begin(), verdicts.end(), pin), end; it != end; ++it) {
    const std::smatch& m = *it;
    PinnedTheorem t;
    t.holds = m[1] == "holds";
    t.statement = m[4].str();
    t.lemma = m[5].str();
    // A qualified name File.lemma must be declared in File.v; a bare name anywhere.
    const std::size_t dot = t.lemma.rfind('.');
    const std::string bare = dot == std::string::npos ? t.lemma : t.lemma.substr(dot + 1);
    auto where = proved_in.end();
    for (auto [it, end] = proved_in.equal_range(bare); it != end; ++it)
      if (dot == std::string::npos || it->second == t.lemma.substr(0, dot) + ".v") where = it;
    if (where == proved_in.end())
      throw std::runtime_error("Verdicts.v pins " + m[2].str() + "/" + m[3].str() + " to " + t.lemma +
                               ", which no file of _CoqProject declares");
    t.file = where->second;
    if (!ev.pinned.emplace(m[2].str() + "/" + m[3].str(), t).second)
      throw std::runtime_error("Verdicts.v pins " + m[2].str() + "/" + m[3].str() + " twice");
  }
  ev.declared = proved_in;
  ev.why_not = verification_gap(build, files, ev.source_sha256);
  ev.checked = ev.why_not.empty();
  return ev;
}

}  // namespace corbin::audit
