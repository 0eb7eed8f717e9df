// The calls that take the application's MPI communicator: C SCRPP_Init_comm
// and SCRPP_Init_comm_f (include/scr/scr_ext.h), C++ scr::Library(comm)
// (include/scr/scr.hpp). It turns the application's handle into a
// duplicate the session owns (mpi::dup, mpi/mpi_comm.hpp), and leaves
// everything else to api_state.
#include <mpi.h>

#include <string>

#include "api/api_state.hpp"
#include "api/c_boundary.hpp"
#include "api/cpp_errors.hpp"
#include "mpi/mpi_comm.hpp"
#include "scr/scr.hpp"
#include "scr/scr_ext.h"

namespace {

constexpr const char* kCall = "SCRPP_Init_comm";

// `handle` is asked for the communicator only once MPI is known to be up
// (MPI_Comm_f2c needs it).
template <class Handle>
scr::Status init_on(Handle handle) {
  using scr::Errc;
  using scr::Error;
  if (!scr::mpi::initialized()) return Error(Errc::bad_state, std::string(kCall) + " called before MPI was initialized");
  MPI_Comm comm = handle();
  if (comm == MPI_COMM_NULL)
    return Error(Errc::invalid_argument, std::string(kCall) +
                                             " was given MPI_COMM_NULL; processes outside the job's "
                                             "communicator must not call SCR++");
  return scr::api::init(scr::mpi::dup(comm));
}

}  // namespace

extern "C" {

int SCRPP_Init_comm(MPI_Comm comm) {
  return scr::api::guarded(kCall, [comm] { return init_on([comm] { return comm; }); });
}

int SCRPP_Init_comm_f(MPI_Fint comm) {
  return scr::api::guarded(kCall, [comm] { return init_on([comm] { return MPI_Comm_f2c(comm); }); });
}

}  // extern "C"

scr::Library::Library(MPI_Comm comm) { scr::api::throw_if_failed(init_on([comm] { return comm; })); }
