# The libraries the corbin library is built against, each as an imported target. The build
# includes this file, and so does the installed package config (corbinConfig.cmake), so that a
# consumer of the static libcorbin.a links what it was built with, found on the consumer's machine:
#   Boost::headers, corbin::gmp, corbin::mpfr, corbin::mpfi     public: the headers use them
#   PkgConfig::CORBIN_SODIUM, PkgConfig::CORBIN_CRYPTO,         the archive's own (libsodium for
#   ZLIB::ZLIB, Threads::Threads                                key agreement, libcrypto for SHA-256,
#                                                               zlib for the IDX files)
# Nothing here is REQUIRED: the includer reads corbin_dependencies_missing and fails its own way
# (the build with an error, the package config with corbin_FOUND false and the names).
set(corbin_dependencies_missing "")

find_package(Boost 1.74 QUIET)
if(NOT Boost_FOUND)
  list(APPEND corbin_dependencies_missing "Boost >= 1.74 (libboost-dev)")
endif()

# GMP, MPFR and MPFI have no CMake config on Debian: found by name, as the library and its
# header. In a private prefix (the CUDA build unpacks Debian's packages into one) the headers are
# not on the compiler's default path, hence the include directories.
foreach(dep gmp mpfr mpfi)
  string(TOUPPER ${dep} DEP)
  find_library(CORBIN_${DEP}_LIBRARY ${dep})
  find_path(CORBIN_${DEP}_INCLUDE_DIR ${dep}.h)
  if(NOT CORBIN_${DEP}_LIBRARY OR NOT CORBIN_${DEP}_INCLUDE_DIR)
    list(APPEND corbin_dependencies_missing "${dep} (lib${dep}-dev)")
  elseif(NOT TARGET corbin::${dep})
    add_library(corbin::${dep} UNKNOWN IMPORTED)
    set_target_properties(corbin::${dep} PROPERTIES IMPORTED_LOCATION "${CORBIN_${DEP}_LIBRARY}"
                          INTERFACE_INCLUDE_DIRECTORIES "${CORBIN_${DEP}_INCLUDE_DIR}")
  endif()
endforeach()
if(TARGET corbin::mpfi AND TARGET corbin::mpfr AND TARGET corbin::gmp)
  # MPFI is built on MPFR, MPFR on GMP: a static link needs them in this order.
  set_target_properties(corbin::mpfi PROPERTIES INTERFACE_LINK_LIBRARIES corbin::mpfr)
  set_target_properties(corbin::mpfr PROPERTIES INTERFACE_LINK_LIBRARIES corbin::gmp)
endif()

find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(CORBIN_SODIUM QUIET IMPORTED_TARGET libsodium)
  pkg_check_modules(CORBIN_CRYPTO QUIET IMPORTED_TARGET libcrypto)
endif()
if(NOT TARGET PkgConfig::CORBIN_SODIUM)
  list(APPEND corbin_dependencies_missing "libsodium (libsodium-dev, pkg-config)")
endif()
if(NOT TARGET PkgConfig::CORBIN_CRYPTO)
  list(APPEND corbin_dependencies_missing "libcrypto (libssl-dev, pkg-config)")
endif()

find_package(ZLIB QUIET)
if(NOT ZLIB_FOUND)
  list(APPEND corbin_dependencies_missing "zlib (zlib1g-dev)")
endif()
find_package(Threads QUIET)
if(NOT Threads_FOUND)
  list(APPEND corbin_dependencies_missing "threads")
endif()
