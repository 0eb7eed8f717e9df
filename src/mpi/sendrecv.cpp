// Paired byte transfers (declared in comm.hpp): both sides of a swap move
// their data in one call, so neither can block the other.
#include "mpi/comm.hpp"
#include "mpi/error.hpp"

namespace scr::mpi {

Status sendrecv(const Comm& comm, const void* out, int out_bytes, int dest, void* in,
                int in_bytes, int source, int tag) {
  return status_of(MPI_Sendrecv(out, out_bytes, MPI_BYTE, dest, tag, in, in_bytes, MPI_BYTE,
                                source, tag, comm.raw(), MPI_STATUS_IGNORE),
                   "MPI_Sendrecv");
}

}  // namespace scr::mpi
