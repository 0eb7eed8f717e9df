#include "mpi/requests.hpp"

#include <span>

#include "mpi/wait.hpp"

namespace scr::mpi {

void Requests::isend(size_t slot, const Comm& comm, const void* data, int bytes, int dest,
                     int tag) {
  MPI_Isend(data, bytes, MPI_BYTE, dest, tag, comm.raw(), &slots_[slot]);
}

void Requests::irecv(size_t slot, const Comm& comm, void* data, int bytes, int source, int tag) {
  MPI_Irecv(data, bytes, MPI_BYTE, source, tag, comm.raw(), &slots_[slot]);
}

void Requests::wait(size_t first, size_t count) {
  mpi::wait_all(std::span(slots_).subspan(first, count));
}

}  // namespace scr::mpi
