# Installable package: find_package(SCR) gives SCR::scr; pkg-config gives scr.
include(CMakePackageConfigHelpers)

install(TARGETS scr EXPORT SCRTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/scr.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/scr DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT SCRTargets NAMESPACE SCR:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/SCR)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/SCRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/SCRConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/SCR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/SCRConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/SCRConfig.cmake ${PROJECT_BINARY_DIR}/SCRConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/SCR)

# scr.pc finds its prefix relative to itself, so a relocated install works.
file(RELATIVE_PATH SCR_PC_PREFIX "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
configure_file(${PROJECT_SOURCE_DIR}/cmake/scr.pc.in ${PROJECT_BINARY_DIR}/scr.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/scr.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
