# install() of the library, its headers and an exported, versioned package
# config, so that a downstream project does find_package(voltaic) and links
# voltaic::voltaic.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VOLTAIC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/voltaic)

set(_voltaic_targets voltaic voltaic_io)
if(VOLTAIC_HAS_MPI)
  list(APPEND _voltaic_targets voltaic_mpi)
  set(_voltaic_exclude_mpi "")
else()
  set(_voltaic_exclude_mpi PATTERN mpi EXCLUDE)  # its headers need the library
endif()
install(TARGETS ${_voltaic_targets} EXPORT voltaicTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/voltaic DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} ${_voltaic_exclude_mpi})
install(FILES ${PROJECT_BINARY_DIR}/include/voltaic/config.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/voltaic)
install(EXPORT voltaicTargets NAMESPACE voltaic:: DESTINATION ${VOLTAIC_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/voltaicConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/voltaicConfig.cmake
                              INSTALL_DESTINATION ${VOLTAIC_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/voltaicConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/voltaicConfig.cmake ${PROJECT_BINARY_DIR}/voltaicConfigVersion.cmake
        DESTINATION ${VOLTAIC_INSTALL_CMAKEDIR})
