#pragma once
// The files `corbin` and `corbin-fl` read at run time (the figures scripts, the Coq proofs behind
// the audit's verdicts, the committed full-scale federated results), named by their path in the
// source tree. Run from its build tree, the CLI reads them there; installed as PREFIX/bin/corbin
// it reads PREFIX/share/corbin/<the same path>, found from the executable's own path, so that an
// unpacked package works wherever it was unpacked.

#include <filesystem>
#include <string>

namespace corbin::cli {

/// The directory of the running executable (/proc/self/exe); empty if it cannot be read.
std::filesystem::path executable_dir();

/// Whether this executable runs from an install: its PREFIX/share/corbin exists.
bool installed();

/// A file of the source tree ("notebooks/corbin_figures.py"): PREFIX/share/corbin/<relative> when
/// installed, else the source tree's.
std::filesystem::path data_file(const std::string& relative);

/// Where an installed `corbin audit` looks for the Coq check's stamp (BUILD/verified.txt of
/// proofs-check/coq/check.sh): $XDG_CACHE_HOME/corbin/coq, or ~/.cache/corbin/coq. The build
/// tree's own is CORBIN_COQ_BUILD.
std::filesystem::path installed_coq_build();

}  // namespace corbin::cli
