#!/usr/bin/env bash
# install_stage: `cmake --install BUILD --prefix STAGE` into an emptied STAGE (every component).
# Usage: stage.sh CMAKE BUILD STAGE
set -euo pipefail
cmake=$1 build=$2 stage=$3
rm -rf "$stage"
"$cmake" --install "$build" --prefix "$stage" >/dev/null
# What the issue promises is there: the library, its headers, the CLI, the CMake package and the
# pkg-config file.
for f in bin/corbin include/corbin/version.hpp include/corbin/privacy/formulas/pldp.hpp \
         share/corbin/notebooks/corbin_figures.py share/corbin/notebooks/corbin_output.py \
         share/corbin/proofs-check/coq/Verdicts.v \
         share/corbin/reports/fl-full/results.csv; do
  [ -e "$stage/$f" ] || { echo "install_stage: $stage/$f is missing"; exit 1; }
done
for pattern in 'lib*/libcorbin.a' 'lib*/cmake/corbin/corbinConfig.cmake' 'lib*/pkgconfig/corbin.pc'; do
  compgen -G "$stage/$pattern" >/dev/null || { echo "install_stage: no $stage/$pattern"; exit 1; }
done
# Nothing of the libtorch part's headers, which are not installed with the library.
if [ -e "$stage/include/corbin/fl/model.hpp" ]; then echo "install_stage: fl/model.hpp installed"; exit 1; fi
"$stage/bin/corbin" --version
