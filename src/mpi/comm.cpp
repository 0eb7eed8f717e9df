#include "mpi/comm.hpp"

namespace scr::mpi {

Comm Comm::dup(MPI_Comm comm) {
  MPI_Comm out = MPI_COMM_NULL;
  MPI_Comm_dup(comm, &out);
  return Comm(out, true);
}

Comm& Comm::operator=(Comm&& o) noexcept {
  if (this != &o) {
    if (owned_ && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    comm_ = o.comm_;
    owned_ = o.owned_;
    o.comm_ = MPI_COMM_NULL;
  }
  return *this;
}

Comm::~Comm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owned_ && comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

int Comm::rank() const {
  int r = 0;
  MPI_Comm_rank(comm_, &r);
  return r;
}

int Comm::size() const {
  int n = 0;
  MPI_Comm_size(comm_, &n);
  return n;
}

void Comm::barrier() const { MPI_Barrier(comm_); }

Comm Comm::split(int color, int key) const {
  MPI_Comm out = MPI_COMM_NULL;
  MPI_Comm_split(comm_, color, key, &out);
  return Comm(out, true);
}

Comm world() { return Comm::borrow(MPI_COMM_WORLD); }

bool initialized() {
  int up = 0;
  MPI_Initialized(&up);
  return up != 0;
}

void finalize() { MPI_Finalize(); }

}  // namespace scr::mpi
