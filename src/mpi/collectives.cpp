// Collective decisions and broadcasts of small values (declared in comm.hpp).
#include <algorithm>

#include "mpi/comm.hpp"
#include "mpi/wait.hpp"

namespace scr::mpi {

std::vector<std::string> allgather_strings(const Comm& comm, const std::string& s) {
  int n = comm.size();
  int len = static_cast<int>(s.size());
  std::vector<int> lens(n), displs(n);
  MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, comm.raw());
  int total = 0;
  for (int i = 0; i < n; ++i) {
    displs[i] = total;
    total += lens[i];
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Allgatherv(s.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR,
                 comm.raw());
  std::vector<std::string> out(n);
  for (int i = 0; i < n; ++i) out[i] = all.substr(displs[i], lens[i]);
  return out;
}

std::vector<int> allgather_ints(const Comm& comm, int v) {
  std::vector<int> all(static_cast<size_t>(comm.size()));
  MPI_Allgather(&v, 1, MPI_INT, all.data(), 1, MPI_INT, comm.raw());
  return all;
}

std::vector<std::array<uint64_t, 2>> allgather_pairs(const Comm& comm,
                                                     const std::array<uint64_t, 2>& v) {
  // std::array has no padding: the vector is 2 * size() contiguous values.
  std::vector<std::array<uint64_t, 2>> all(static_cast<size_t>(comm.size()));
  MPI_Allgather(v.data(), 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm.raw());
  return all;
}

// An allgather of names and a local sort is O(P) memory per process, which is
// fine for the job sizes we target; a distributed (e.g. bitonic) sort of the
// names is the scalable replacement should we ever need it.
Comm split_by_string(const Comm& comm, const std::string& s, int* group_id, int* num_groups) {
  auto names = allgather_strings(comm, s);
  std::vector<std::string> distinct = names;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  int id = static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), s) - distinct.begin());
  if (group_id) *group_id = id;
  if (num_groups) *num_groups = static_cast<int>(distinct.size());
  return comm.split(id, comm.rank());
}

bool all_true(const Comm& comm, bool flag) {
  int in = flag ? 1 : 0, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, comm.raw());
  return out != 0;
}

bool any_true(const Comm& comm, bool flag) {
  int in = flag ? 1 : 0, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm.raw());
  return out != 0;
}

namespace {
int64_t reduce_i64(const Comm& comm, int64_t v, MPI_Op op) {
  long long in = v, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, op, comm.raw());
  return out;
}
}  // namespace

int64_t sum(const Comm& comm, int64_t v) { return reduce_i64(comm, v, MPI_SUM); }
int64_t max(const Comm& comm, int64_t v) { return reduce_i64(comm, v, MPI_MAX); }
int64_t min(const Comm& comm, int64_t v) { return reduce_i64(comm, v, MPI_MIN); }
double max(const Comm& comm, double v) {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, comm.raw());
  return out;
}

int min_without_spinning(const Comm& comm, int v) {
  int out = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Iallreduce(&v, &out, 1, MPI_INT, MPI_MIN, comm.raw(), &req);
  wait_one(req);
  return out;
}

void bcast_int(const Comm& comm, int& v, int root) { MPI_Bcast(&v, 1, MPI_INT, root, comm.raw()); }

void bcast_string(const Comm& comm, std::string& s, int root) {
  long long len = static_cast<long long>(s.size());
  MPI_Bcast(&len, 1, MPI_LONG_LONG, root, comm.raw());
  s.resize(static_cast<size_t>(len));
  if (len > 0) MPI_Bcast(s.data(), static_cast<int>(len), MPI_CHAR, root, comm.raw());
}

Status bcast_status(const Comm& comm, const Status& local, int root) {
  int code = static_cast<int>(local.code());
  std::string msg = local.message();
  bcast_int(comm, code, root);
  bcast_string(comm, msg, root);
  return Status(static_cast<Errc>(code), std::move(msg));
}

Status agree(const Comm& comm, const Status& local) {
  int mine = local.ok() ? comm.size() : comm.rank();
  int first = 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm.raw());
  if (first == comm.size()) return Status::Ok();
  Status theirs = bcast_status(comm, local, first);
  return Error(theirs.code(), "rank " + std::to_string(first) + ": " + theirs.message());
}

}  // namespace scr::mpi
