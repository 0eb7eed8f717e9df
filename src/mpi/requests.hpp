// Nonblocking byte messages held in numbered slots, for pipelines that keep
// several pieces in flight (redset ring, gather and streams). A slot's buffer
// must stay untouched until the slot has been waited for; waits leave the CPU
// to the processes being waited for (mpi/wait.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "mpi/comm.hpp"

namespace scr::mpi {

// Move-only: a pending request has exactly one owner that must wait for it.
class Requests {
 public:
  Requests() = default;
  explicit Requests(size_t slots) : slots_(slots, MPI_REQUEST_NULL) {}
  Requests(const Requests&) = delete;
  Requests& operator=(const Requests&) = delete;
  Requests(Requests&&) noexcept = default;
  Requests& operator=(Requests&&) noexcept = default;

  size_t size() const { return slots_.size(); }

  // Start sending (receiving) `bytes` bytes from (into) `data` in `slot`,
  // which must be free: never used, or waited for since.
  void isend(size_t slot, const Comm& comm, const void* data, int bytes, int dest, int tag);
  void irecv(size_t slot, const Comm& comm, void* data, int bytes, int source, int tag);

  // Wait until the `count` slots from `first` on are complete and free again.
  void wait(size_t first, size_t count);
  void wait(size_t slot) { wait(slot, 1); }
  void wait_all() { wait(0, slots_.size()); }

 private:
  std::vector<MPI_Request> slots_;
};

}  // namespace scr::mpi
