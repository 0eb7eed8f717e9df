# Helpers to register tests.
#
# scr_add_unit_test(NAME src... LIBS libs...)
#   A GoogleTest binary run directly, one ctest entry per binary.
# scr_add_mpi_test(NAME src... NP n LIBS libs... [ENV VAR=VALUE...] [TIMEOUT s] [ARGS ...])
#   A GoogleTest (or plain) binary run under mpirun with n ranks. Open MPI is
#   told it may run as root and oversubscribe this 2-core machine.
# scr_add_script_test(NAME script [ARGS...] [ENV ...] [TIMEOUT s])
#   An end-to-end shell scenario (tests/e2e) that runs mpirun itself.
#
# Test programs link the fault-injecting I/O library (scr_io_faults, for
# io::FaultEnv and SCR_FAULT_INJECT); what users link never does.

set(SCR_MPI_ENV
  "OMPI_ALLOW_RUN_AS_ROOT=1" "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
  "OMPI_MCA_rmaps_base_oversubscribe=1" "OMPI_MCA_btl_vader_single_copy_mechanism=none"
  "OMPI_MCA_btl=self,vader" "OMPI_MCA_mpi_yield_when_idle=1")
set(SCR_MPIEXEC ${MPIEXEC_EXECUTABLE})

# The precompiled GoogleTest header of tests/CMakeLists.txt, where it exists.
function(scr_use_test_pch name)
  if(TARGET scr_test_pch)
    target_precompile_headers(${name} REUSE_FROM scr_test_pch)
  endif()
endfunction()

function(scr_add_unit_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "LIBS;ENV" ${ARGN})
  add_executable(${name} ${T_UNPARSED_ARGUMENTS})
  scr_use_test_pch(${name})
  target_link_libraries(${name} PRIVATE ${T_LIBS} scr_io_faults GTest::gtest GTest::gtest_main)
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS unit
                       ENVIRONMENT "${SCR_MPI_ENV};${T_ENV}")
endfunction()

function(scr_add_mpi_test name)
  cmake_parse_arguments(T "" "NP;TIMEOUT" "LIBS;ENV;ARGS" ${ARGN})
  if(NOT TARGET ${name})
    add_executable(${name} ${T_UNPARSED_ARGUMENTS})
    scr_use_test_pch(${name})
    target_link_libraries(${name} PRIVATE ${T_LIBS} scr_io_faults GTest::gtest)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  add_test(NAME ${name}_np${T_NP}
           COMMAND ${SCR_MPIEXEC} --oversubscribe -n ${T_NP} $<TARGET_FILE:${name}> ${T_ARGS})
  set_tests_properties(${name}_np${T_NP} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS mpi
                       PROCESSORS 2 ENVIRONMENT "${SCR_MPI_ENV};${T_ENV}")
endfunction()

function(scr_add_script_test name script)
  cmake_parse_arguments(T "" "TIMEOUT" "ENV" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  add_test(NAME ${name} COMMAND bash ${script} ${T_UNPARSED_ARGUMENTS})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS e2e PROCESSORS 2
    ENVIRONMENT "${SCR_MPI_ENV};SCR_BUILD_DIR=${PROJECT_BINARY_DIR};SCR_SOURCE_DIR=${PROJECT_SOURCE_DIR};MPIEXEC=${SCR_MPIEXEC};${T_ENV}")
endfunction()
