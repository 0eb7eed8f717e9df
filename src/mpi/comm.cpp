#include "mpi/comm.hpp"

#include "mpi/mpi_comm.hpp"

namespace scr::mpi {

Comm Comm::dup(MPI_Comm comm) { return Comm(MpiComm(comm, false).duplicate()); }

Comm Comm::borrow(MPI_Comm comm) { return Comm(std::make_unique<MpiComm>(comm, false)); }

MPI_Comm Comm::raw() const {
  const auto* over_mpi = dynamic_cast<const MpiComm*>(impl_.get());
  return over_mpi ? over_mpi->handle() : MPI_COMM_NULL;
}

Comm world() { return Comm::borrow(MPI_COMM_WORLD); }

bool initialized() {
  int up = 0;
  MPI_Initialized(&up);
  return up != 0;
}

void finalize() { MPI_Finalize(); }

}  // namespace scr::mpi
