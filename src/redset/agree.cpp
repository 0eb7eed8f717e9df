#include "redset/agree.hpp"

#include <mpi.h>

#include "mpi/comm.hpp"
#include "redset/wait.hpp"

namespace scr::redset {

Status agree_in_set(const Set& set, const Status& local) {
  int mine = local.ok() ? set.ranks() : set.rank();
  int first = 0;
  // Members that finish their part of a pipeline early wait here for the
  // others; they must not take the CPU from them while they do.
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, set.comm().raw(), &req);
  wait_one(req);
  if (first == set.ranks()) return Status::Ok();
  int code = static_cast<int>(local.code());
  std::string msg = local.message();
  MPI_Bcast(&code, 1, MPI_INT, first, set.comm().raw());
  mpi::bcast_string(set.comm(), msg, first);
  if (!local.ok()) return local;
  return Error(static_cast<Errc>(code),
               "rank " + std::to_string(set.members()[static_cast<size_t>(first)]) + ": " + msg);
}

}  // namespace scr::redset
