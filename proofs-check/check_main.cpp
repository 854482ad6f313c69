// One claim's check as its own executable (CORBIN_CLAIM is set by CMake). It prints the claim's
// verdict as `corbin audit` gives it, never the raw outcome of the one reading its computation
// decides: a claim has one verdict everywhere. The readings are decided as the audit decides
// them (attach_readings: the Coq pins of proofs-check/coq/Verdicts.v, then the computation), so
// that check_T4u prints "holds only under …" where the audit does, with "computed here: fails"
// beside the printed reading it refutes. Output:
//   ID: verdict — finding
//     reading KEY (ROLE): its verdict[; computed here: what this program's computation found]
// and the certificate the audit would write, to ID.json in the current directory (or --out DIR).
// --full uses the paper's grid; the default is the quick grid CI runs.

#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>

#include "audit.hpp"
#include "corbin/io/files.hpp"
#include "corbin/number/error.hpp"

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
  try {
    for (const NamedCheck& check : all_checks()) {
      if (std::string(check.id) != CORBIN_CLAIM) continue;
      const Grid grid = full ? Grid::paper() : Grid::quick_grid();
      ClaimResult r = check.run(grid);
      const CoqEvidence coq = load_coq_evidence(CORBIN_COQ_SOURCE, CORBIN_COQ_BUILD);
      attach_readings(r, coq);
      corbin::io::write_atomically(std::filesystem::path(out_dir) / (r.id + ".json"),
                                   claim_certificate(r, grid, coq).dump(1) + "\n", "--out");
      std::cout << claim_report(r);
      return 0;
    }
    std::cerr << "unknown claim " << CORBIN_CLAIM << "\n";
    return 2;
  } catch (const corbin::invalid_argument& e) {
    std::cerr << "check_" << CORBIN_CLAIM << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    // A proof the computation contradicts, or proofs that cannot be read: no verdict to print.
    std::cerr << "check_" << CORBIN_CLAIM << ": " << e.what() << "\n";
    return 1;
  }
}
