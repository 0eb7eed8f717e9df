# Installable package, under SCR's names and ours:
#   find_package(scr) -> scr::scr, scr::scr-static (as SCR 3.1 exports them)
#   find_package(SCR) -> SCR::scr, SCR::scr-static (SCR++'s first spelling)
# One config file, scr-config.cmake, answers both spellings; it loads the one
# export set under both namespaces. pkg-config: scr.
include(CMakePackageConfigHelpers)

set(SCR_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/scr)
install(TARGETS scr scr-static EXPORT SCRTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/scr.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/scr DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT SCRTargets NAMESPACE scr:: FILE scr-targets.cmake DESTINATION ${SCR_CMAKE_DIR})
install(EXPORT SCRTargets NAMESPACE SCR:: FILE SCR-targets.cmake DESTINATION ${SCR_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/SCRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/scr-config.cmake INSTALL_DESTINATION ${SCR_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/scr-config-version.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/scr-config.cmake ${PROJECT_BINARY_DIR}/scr-config-version.cmake
        DESTINATION ${SCR_CMAKE_DIR})

# scr.pc finds its prefix relative to itself, so a relocated install works.
file(RELATIVE_PATH SCR_PC_PREFIX "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
configure_file(${PROJECT_SOURCE_DIR}/cmake/scr.pc.in ${PROJECT_BINARY_DIR}/scr.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/scr.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# scr-static.pc names libscr.a itself: with both libraries installed, -lscr
# would link the shared one whatever --static says.
configure_file(${PROJECT_SOURCE_DIR}/cmake/scr-static.pc.in ${PROJECT_BINARY_DIR}/scr-static.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/scr-static.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
