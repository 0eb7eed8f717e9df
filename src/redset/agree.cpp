#include "redset/agree.hpp"

#include "mpi/comm.hpp"

namespace scr::redset {

Status agree_in_set(const Set& set, const Status& local) {
  int mine = local.ok() ? set.ranks() : set.rank();
  // Members that finish their part of a pipeline early wait here for the
  // others; they must not take the CPU from them while they do.
  int first = mpi::min_without_spinning(set.comm(), mine);
  if (first == set.ranks()) return Status::Ok();
  Status theirs = mpi::bcast_status(set.comm(), local, first);
  if (!local.ok()) return local;
  if (mpi::names_a_rank(theirs.message())) return theirs;
  return Error(theirs.code(), "rank " + std::to_string(set.members()[static_cast<size_t>(first)]) +
                                  ": " + theirs.message());
}

}  // namespace scr::redset
