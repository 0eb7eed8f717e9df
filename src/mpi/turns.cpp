#include "mpi/turns.hpp"

#include "mpi/tags.hpp"

namespace scr::mpi {

Status in_turns(const Comm& comm, int width, const std::function<Status()>& work) {
  if (width < 1) return Error(Errc::invalid_argument, "a width of processes at once must be at least 1");
  int rank = comm.rank(), size = comm.size();
  if (width >= size) return work();
  char token = 0;
  int before = rank - width, after = rank + width;
  if (before >= 0) SCR_TRY(sendrecv(comm, nullptr, 0, kNoPeer, &token, 1, before, tags::kTurn));
  Status done = work();
  Status passed = after < size ? sendrecv(comm, &token, 1, after, nullptr, 0, kNoPeer, tags::kTurn) : Status::Ok();
  return done.ok() ? passed : done;
}

}  // namespace scr::mpi
