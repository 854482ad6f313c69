#!/usr/bin/env bash
# install_deb: builds the Debian packages with CPack, unpacks them into a clean root (dpkg-deb -x,
# nothing installed system-wide) and runs the CLI from there.
# Usage: deb.sh CPACK BUILD WORK VERSION PYTHON_INSTALL_DIR [CHECK_SPEC [MAN_PAGES]]
# MAN_PAGES: ON when the build made the man pages (docs/CMakeLists.txt: help2man was found).
set -euo pipefail
cpack=$1 build=$2 work=$3 version=$4 python_dir=$5 spec=${6:-} man_pages=${7:-OFF}
rm -rf "$work"
mkdir -p "$work"
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/packages" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
deb() { compgen -G "$work/packages/$1_${version}_*.deb" | head -1 || true; }  # none: empty (no corbin-fl without libtorch)
runtime=$(deb corbin) dev=$(deb corbin-dev) fl=$(deb corbin-fl)
[ -n "$runtime" ] && [ -n "$dev" ] || { echo "no corbin or corbin-dev package in $work/packages"; ls "$work/packages"; exit 1; }
for package in "$runtime" "$dev" $fl; do
  echo "$(basename "$package"): $(dpkg-deb -f "$package" Depends)"
done
# dpkg-shlibdeps found the packages of the shared libraries the executables link (zlib only
# with the IDX reader, which corbin-fl has and corbin does not).
depends() { dpkg-deb -f "$1" Depends; }
for lib in libgmp10 libmpfr6 libmpfi0 libsodium23 libssl3; do
  [[ $(depends "$runtime") == *"$lib "* ]] || { echo "corbin's Depends lacks $lib"; exit 1; }
done
if [ -n "$fl" ]; then
  for lib in libtorch zlib1g "corbin (= $version)"; do
    [[ $(depends "$fl") == *"$lib"* ]] || { echo "corbin-fl's Depends lacks $lib"; exit 1; }
  done
fi

root=$work/root
for package in "$runtime" $fl; do dpkg-deb -x "$package" "$root"; done
out=$("$root/usr/bin/corbin" --version)
[ "$out" = "corbin $version" ] || { echo "corbin --version printed '$out', not 'corbin $version'"; exit 1; }
echo "$root/usr/bin/corbin --version: $out"
# What the installed CLI reads lies where it looks (data_files.hpp: PREFIX/share/corbin).
for f in notebooks/corbin_figures.py notebooks/corbin_output.py proofs-check/coq/Verdicts.v proofs-check/coq/_CoqProject \
         reports/fl-full/results.csv; do
  [ -f "$root/usr/share/corbin/$f" ] || { echo "the package lacks /usr/share/corbin/$f"; exit 1; }
done
# ... and the CLI reads them there, not in the source tree it was built from: with the package's
# _CoqProject moved away, the audit stops at once, naming the package's copy.
project=$root/usr/share/corbin/proofs-check/coq/_CoqProject
mv "$project" "$work/_CoqProject"
if "$root/usr/bin/corbin" audit --quick --no-figures --out "$work/audit" 2>"$work/audit.err"; then
  echo "corbin audit ran without the package's _CoqProject"; exit 1
fi
grep -qF "$project" "$work/audit.err" || { echo "corbin audit did not read $project:"; cat "$work/audit.err"; exit 1; }
mv "$work/_CoqProject" "$project"
echo "corbin audit reads $root/usr/share/corbin"
# The Python module lies where /usr/bin/python3 imports from with no PYTHONPATH.
if [ -n "$python_dir" ]; then
  compgen -G "$root/usr/$python_dir/corbin*.so" >/dev/null || { echo "the package lacks /usr/$python_dir/corbin*.so"; exit 1; }
  /usr/bin/python3 -I -c "import sys; assert '/usr/$python_dir' in sys.path, sys.path"
fi
# The man pages: corbin.1.gz and corbin-SUB.1.gz for every subcommand `corbin --help` lists, in the
# corbin package (corbin-fl.1.gz in corbin-fl's), when the build made them. Without help2man there
# are none, which is said, not failed; with help2man installed, missing pages fail.
man=usr/share/man/man1
holds() { local listing; listing=$(dpkg-deb -c "$1"); grep -q " \./$2\$" <<<"$listing"; }
if [ "$man_pages" = ON ] || command -v help2man >/dev/null; then
  [ "$man_pages" = ON ] || { echo "help2man is installed, but the build made no man pages (configured before it was installed: run cmake again)"; exit 1; }
  subcommands=$("$root/usr/bin/corbin" --help | awk '/^Subcommands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
  [ -n "$subcommands" ] || { echo "corbin --help lists no subcommands"; exit 1; }
  checked=0
  for page in corbin $(printf 'corbin-%s ' $subcommands); do
    package=$runtime
    if [ "$page" = corbin-fl ]; then
      [ -n "$fl" ] || continue  # no libtorch: no corbin-fl package, no page
      package=$fl
    fi
    holds "$package" "$man/$page.1.gz" || { echo "$(basename "$package") lacks /$man/$page.1.gz"; exit 1; }
    checked=$((checked + 1))
  done
  # A page names its subcommand (NAME, for whatis) and shows its options.
  page=$root/$man/corbin-account.1.gz
  text=$(zcat "$page")
  grep -q '^corbin\\-account \\- ' <<<"$text" || { echo "$page: no NAME line 'corbin-account - ...'"; exit 1; }
  grep -q '^\.SH OPTIONS' <<<"$text" || { echo "$page: no OPTIONS section"; exit 1; }
  echo "man pages: $checked in the packages (corbin.1.gz and corbin-SUB.1.gz$([ -n "$fl" ] || echo ', no corbin-fl package'))"
else
  echo "no man pages: help2man is not installed (Debian package help2man), so the build made none"
fi
# `corbin fl` execs the helper beside the installed corbin.
if [ -n "$fl" ]; then
  "$root/usr/bin/corbin" fl --help >"$work/fl-help.txt" || { cat "$work/fl-help.txt"; exit 1; }
  grep -q "federated training" "$work/fl-help.txt" || { echo "corbin fl --help: unexpected"; cat "$work/fl-help.txt"; exit 1; }
  echo "$root/usr/bin/corbin fl --help: ran $root/usr/bin/corbin-fl"
fi
# `corbin check` from the package, on the package's spec (SPEC relative to the unpacked root) or
# one given by CORBIN_INSTALL_CHECK_SPEC: every bound must hold, and the JUnit report be written.
if [ -n "$spec" ]; then
  [[ $spec == /* ]] || spec=$root/$spec
  [ -f "$spec" ] || { echo "corbin check: no spec at $spec"; exit 1; }
  "$root/usr/bin/corbin" check "$spec" --junit "$work/report.xml"
  grep -q "<testsuite" "$work/report.xml" || { echo "corbin check wrote no JUnit report"; exit 1; }
  echo "$root/usr/bin/corbin check $spec: every bound holds"
fi
