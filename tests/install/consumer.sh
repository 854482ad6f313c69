#!/usr/bin/env bash
# install_consumer_cmake / install_consumer_pkgconfig: builds consumer/ against the staged install
# alone, the CMake way (find_package(corbin CONFIG)) or the pkg-config way, and runs it.
# Usage: consumer.sh cmake|pkg-config STAGE WORK CONSUMER_SOURCE CMAKE GENERATOR CXX
set -euo pipefail
how=$1 stage=$2 work=$3 source=$4 cmake=$5 generator=$6 cxx=$7
rm -rf "$work"
mkdir -p "$work"
case $how in
  cmake)
    "$cmake" -S "$source" -B "$work" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
             -DCMAKE_PREFIX_PATH="$stage" >"$work/configure.log" 2>&1 ||
      { cat "$work/configure.log"; exit 1; }
    found=$(sed -n 's/^corbin_DIR:PATH=//p' "$work/CMakeCache.txt")
    case $found in
      "$stage"/*) echo "find_package(corbin CONFIG): $found" ;;
      *) echo "corbin's package config came from '$found', not from $stage"; exit 1 ;;
    esac
    "$cmake" --build "$work" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    ;;
  pkg-config)
    export PKG_CONFIG_PATH
    PKG_CONFIG_PATH=$(dirname "$(compgen -G "$stage/lib*/pkgconfig/corbin.pc" | head -1)")
    version=$(pkg-config --modversion corbin)
    flags=$(pkg-config --static --cflags --libs corbin)
    echo "pkg-config --static --cflags --libs corbin: $flags"
    # shellcheck disable=SC2086  # the flags are words
    "$cxx" -std=c++20 -DEXPECTED_VERSION="\"$version\"" "$source/main.cpp" -o "$work/consumer" $flags
    ;;
  *) echo "consumer.sh: cmake or pkg-config, not $how"; exit 2 ;;
esac
"$work/consumer"
