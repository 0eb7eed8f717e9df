/* Put first on the include path of a core-only build (SCR_CORE_ONLY): the
   layers below the API and the tools must compile without MPI, so any file
   that includes <mpi.h> there stops the build, named by the compiler. */
#error "<mpi.h> included in the MPI-free core: only scr_mpi_impl (src/mpi/mpi_comm.hpp) and the API layer may include it"
