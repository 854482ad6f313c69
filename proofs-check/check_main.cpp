// One claim's check as its own executable (CORBIN_CLAIM is set by CMake): prints
// `ID: verdict — finding` and writes the certificate to ID.json in the current directory (or
// --out DIR). --full uses the paper's grid; the default is the quick grid CI runs.

#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "claims.hpp"

int main(int argc, char** argv) {
  using namespace corbin::audit;
  bool full = false;
  std::string out_dir = ".";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full") == 0) full = true;
    else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_dir = argv[++i];
    else {
      std::cerr << "usage: " << argv[0] << " [--full] [--out DIR]\n";
      return 2;
    }
  }
  for (const NamedCheck& check : all_checks()) {
    if (std::string(check.id) != CORBIN_CLAIM) continue;
    const ClaimResult r = check.run(full ? Grid::paper() : Grid::quick_grid());
    std::cout << r.id << ": " << r.verdict_text() << " — " << r.finding << "\n";
    Json cert = Json::object();
    cert["id"] = r.id;
    cert["verdict"] = r.verdict_text();
    cert["data"] = r.certificate;
    std::ofstream(out_dir + "/" + r.id + ".json") << cert.dump(1) << "\n";
    return 0;
  }
  std::cerr << "unknown claim " << CORBIN_CLAIM << "\n";
  return 2;
}
