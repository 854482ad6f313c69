# What `cmake --install` puts in place beyond each directory's own targets (the library and its
# headers: src/corbin; the CLI and the files it reads at run time: analysis; the Python module:
# analysis/python), and the Debian packages CPack builds from the same rules.
#
# Components, one Debian package each:
#   runtime -> corbin      the CLI, its data (share/corbin) and the Python module
#   dev     -> corbin-dev  the static library, headers, CMake package config and pkg-config file
#   fl      -> corbin-fl   `corbin fl`'s helper corbin-fl, linked with libtorch (its runtime
#                          package alone is hundreds of MB, which a CI job running `corbin check`
#                          should not pull in)
include(CMakePackageConfigHelpers)

set(CORBIN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/corbin CACHE STRING
    "where corbinConfig.cmake is installed, relative to the prefix")
install(EXPORT corbinTargets NAMESPACE corbin:: DESTINATION ${CORBIN_INSTALL_CMAKEDIR} COMPONENT dev)
configure_package_config_file(cmake/corbinConfig.cmake.in ${PROJECT_BINARY_DIR}/corbinConfig.cmake
                              INSTALL_DESTINATION ${CORBIN_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/corbinConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/corbinConfig.cmake ${PROJECT_BINARY_DIR}/corbinConfigVersion.cmake
              cmake/corbinDependencies.cmake
        DESTINATION ${CORBIN_INSTALL_CMAKEDIR} COMPONENT dev)

# The .pc file names its prefix relative to its own directory, so that an unpacked or staged tree
# works wherever it lies.
file(RELATIVE_PATH pc_prefix_from_pcdir /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(cmake/corbin.pc.in ${PROJECT_BINARY_DIR}/corbin.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/corbin.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

set(CORBIN_PACKAGE_MAINTAINER "corbin maintainers <maintainers@users.noreply.a-seed-76134255.example>"
    CACHE STRING "the Maintainer field of the Debian packages")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME corbin)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
if(TARGET corbin_fl_cli)
  list(APPEND CPACK_COMPONENTS_ALL fl)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CORBIN_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The shared libraries' packages (libgmp10, libmpfr6, libmpfi0, libsodium23, libssl3, zlib1g,
# libtorch1.13, ...) from dpkg-shlibdeps, as Debian's own packages get them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME corbin)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "The corbin command (joint laws, PLDP, UCDP, accounting, the audit), \
the files it reads at run time in /usr/share/corbin, and the Python module corbin.")
# The Python module is built for one interpreter's ABI (analysis/python records which); the
# audit's figures use matplotlib. The CLI's other commands need neither.
if(CORBIN_PYTHON_ABI)
  string(REPLACE "." ";" abi "${CORBIN_PYTHON_ABI}")
  list(GET abi 0 major)
  list(GET abi 1 minor)
  math(EXPR next "${minor} + 1")
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS
      "python3 (>= ${major}.${minor}), python3 (<< ${major}.${next}), python3-matplotlib")
endif()
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS "corbin-fl, coq, libcoq-interval, libcoq-coquelicot")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME corbin-dev)
set(CPACK_COMPONENT_DEV_DESCRIPTION "The static library libcorbin.a (C++20), its headers, a CMake package \
(find_package(corbin CONFIG) gives corbin::corbin) and a pkg-config file (pkg-config --static).")
# What the headers include and what the static library links, as development packages.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libboost-dev (>= 1.74), libgmp-dev, libmpfr-dev, libmpfi-dev, libsodium-dev, libssl-dev, zlib1g-dev, pkg-config")
set(CPACK_DEBIAN_FL_PACKAGE_NAME corbin-fl)
set(CPACK_COMPONENT_FL_DESCRIPTION "The helper corbin-fl that corbin fl runs: federated training with a \
privacy mechanism, on libtorch.")
set(CPACK_COMPONENT_FL_DEPENDS runtime)
include(CPack)
