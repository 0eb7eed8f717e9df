// MPI return codes as Status, for calls whose failure the caller can act on.
// MPI's default error handler aborts the job before a code is returned; a
// code comes back only where an application has installed a handler that
// returns.
#pragma once

#include "common/status.hpp"

namespace scr::mpi {

// Ok for MPI_SUCCESS; otherwise Errc::mpi_error naming `call` and MPI's text.
Status status_of(int code, const char* call);

}  // namespace scr::mpi
