# Installs the header-only harness with an exported CMake package, so a user's project does
#   find_package(OmniLink) ... target_link_libraries(my_workload PRIVATE omnilink::harness)
include(CMakePackageConfigHelpers)

install(TARGETS omnilink_harness EXPORT OmniLinkTargets)
install(DIRECTORY harness/include/omnilink DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT OmniLinkTargets
        NAMESPACE omnilink::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OmniLink)
configure_package_config_file(cmake/OmniLinkConfig.cmake.in
        ${CMAKE_CURRENT_BINARY_DIR}/OmniLinkConfig.cmake
        INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OmniLink)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/OmniLinkConfigVersion.cmake
        COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/OmniLinkConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/OmniLinkConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OmniLink)

# The demo driver, used by `nix run .#campaign` on the installed binaries.
install(PROGRAMS scripts/run-demo DESTINATION ${CMAKE_INSTALL_DATADIR}/omnilink)
install(DIRECTORY examples/campaigns DESTINATION ${CMAKE_INSTALL_DATADIR}/omnilink)
