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

#include <functional>

#include "mpi/comm.hpp"

namespace scr::mpi {

class InProcess {
 public:
  explicit InProcess(int ranks) : ranks_(ranks) {}

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
};

}  // namespace scr::mpi
