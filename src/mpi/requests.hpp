// Nonblocking byte messages held in numbered slots, for pipelines that keep
// several pieces in flight (redset ring, gather and streams). A slot's buffer
// must stay untouched until the slot has been waited for; waits leave the CPU
// to the processes being waited for (mpi/wait.hpp).
#pragma once

#include <cstddef>
#include <memory>

#include "mpi/comm.hpp"

namespace scr::mpi {

// Move-only: a pending request has exactly one owner that must wait for it.
// The slots come from the implementation of the first communicator used
// (one allocation per set, none per message); every later transfer must use
// a communicator of the same implementation.
class Requests {
 public:
  Requests() = default;
  explicit Requests(size_t slots) : size_(slots) {}
  Requests(const Requests&) = delete;
  Requests& operator=(const Requests&) = delete;
  Requests(Requests&& o) noexcept : size_(o.size_), slots_(std::move(o.slots_)) { o.size_ = 0; }
  Requests& operator=(Requests&& o) noexcept {
    size_ = o.size_;
    slots_ = std::move(o.slots_);
    o.size_ = 0;
    return *this;
  }

  size_t size() const { return size_; }

  // Start sending (receiving) `bytes` bytes from (into) `data` in `slot`,
  // which must be free: never used, or waited for since.
  void isend(size_t slot, const Comm& comm, const void* data, int bytes, int dest, int tag) {
    slots_for(comm).isend(slot, comm.impl(), data, bytes, dest, tag);
  }
  void irecv(size_t slot, const Comm& comm, void* data, int bytes, int source, int tag) {
    slots_for(comm).irecv(slot, comm.impl(), data, bytes, source, tag);
  }

  // Wait until the `count` slots from `first` on are complete and free again.
  void wait(size_t first, size_t count, Patience patience = Patience::spin_first) {
    if (slots_) slots_->wait(first, count, patience);
  }
  void wait(size_t slot) { wait(slot, 1); }
  void wait_all(Patience patience = Patience::spin_first) { wait(0, size_, patience); }

 private:
  RequestSlots& slots_for(const Comm& comm) {
    if (!slots_) slots_ = comm.impl().make_requests(size_);
    return *slots_;
  }
  size_t size_ = 0;
  std::unique_ptr<RequestSlots> slots_;
};

}  // namespace scr::mpi
