// Paired byte transfers (declared in comm.hpp): both sides of a swap move
// their data in one call, so neither can block the other.
#include "mpi/comm.hpp"

namespace scr::mpi {

Status sendrecv(const Comm& comm, const void* out, int out_bytes, int dest, void* in,
                int in_bytes, int source, int tag) {
  return comm.impl().sendrecv(out, out_bytes, dest, in, in_bytes, source, tag);
}

}  // namespace scr::mpi
