// A job of N ranks as N threads of one process, for unit tests of code that
// communicates (the redundancy pipelines, the runtime) without mpirun:
//
//   mpi::InProcess job(4);
//   job.run([](mpi::Comm& world) { ... });  // once per rank, concurrently
//
// Communicators behave as MPI's do for everything SCR++ uses: messages
// matched by (communicator, source, tag) in order, nonblocking transfers,
// splits and duplicates with contexts of their own, collectives, kNoPeer.
// Sends copy and complete at once, as a buffering MPI may; so a pattern that
// could deadlock MPI only when it stops buffering passes here.
#pragma once

#include <cstddef>
#include <functional>

#include "mpi/comm.hpp"

namespace scr::mpi {

class InProcess {
 public:
  // `stack_bytes`: each rank thread's stack, 0 for the system's default;
  // jobs of thousands of ranks (bench/scale) give them less than the
  // default's 8 MiB of address space and memory mappings each.
  explicit InProcess(int ranks, size_t stack_bytes = 0) : ranks_(ranks), stack_bytes_(stack_bytes) {}

  int size() const { return ranks_; }

  // Runs `body` on every rank, each thread with a world communicator of its
  // own and its own log speaker (rank, debug level, warnings given once),
  // as a process would have; returns when every rank has returned. When a
  // rank throws, the others' waits are ended, and run() throws a
  // std::runtime_error naming each rank's failure. Ranks that all wait for
  // messages nobody will send fail the same way instead of hanging.
  void run(const std::function<void(Comm& world)>& body) const;

 private:
  int ranks_;
  size_t stack_bytes_;
};

}  // namespace scr::mpi
