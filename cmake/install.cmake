# `cmake --install` puts the headers, the static library, the `polynav` tool (with the HTTP
# module `polynav serve` loads) and a CMake package config in the prefix, so another project can
# `find_package(polynav)` and link polynav::polynav.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS polynav_lib EXPORT polynavTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS polynav_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# `polynav serve`'s HTTP module, where the installed tool looks for it (src/cli/CMakeLists.txt).
install(TARGETS polynav_http LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/polynav)
install(DIRECTORY include/polynav DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT polynavTargets NAMESPACE polynav:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/polynav)

configure_package_config_file(cmake/polynavConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/polynavConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/polynav)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/polynavConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/polynavConfig.cmake
              ${PROJECT_BINARY_DIR}/polynavConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/polynav)
