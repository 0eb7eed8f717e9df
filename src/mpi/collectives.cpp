// Collective decisions and broadcasts of small values (declared in comm.hpp).
#include <algorithm>
#include <cstring>

#include "mpi/comm.hpp"

namespace scr::mpi {

std::vector<std::string> allgather_strings(const Comm& comm, const std::string& s) {
  return comm.impl().allgather_strings(s);
}

std::vector<int> allgather_ints(const Comm& comm, int v) {
  std::vector<int> all(static_cast<size_t>(comm.size()));
  comm.impl().allgather(&v, sizeof v, all.data());
  return all;
}

std::vector<std::array<uint64_t, 2>> allgather_pairs(const Comm& comm,
                                                     const std::array<uint64_t, 2>& v) {
  // std::array has no padding: the vector is 2 * size() contiguous values.
  std::vector<std::array<uint64_t, 2>> all(static_cast<size_t>(comm.size()));
  comm.impl().allgather(v.data(), sizeof v, all.data());
  return all;
}

// The names go up a tree to rank 0, which numbers them; each process gets
// its group's number and the count back down. A process never holds the
// other processes' names (an allgather would give each of them all P), and
// rank 0 holds them once: what SCR does with a distributed sort, at the cost
// of rank 0 sorting P names.
void number_strings(const Comm& comm, const std::string& s, int* id, int* count) {
  auto names = comm.impl().gather_strings(s, 0);
  std::vector<std::string> numbered;
  if (comm.rank() == 0) {
    std::vector<std::string> distinct = names;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (const auto& name : names) {
      std::array<int, 2> id_and_count{
          static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), name) - distinct.begin()),
          static_cast<int>(distinct.size())};
      numbered.emplace_back(reinterpret_cast<const char*>(id_and_count.data()), sizeof id_and_count);
    }
  }
  std::string mine = comm.impl().scatter_strings(std::move(numbered), 0);
  std::array<int, 2> id_and_count{};
  std::memcpy(id_and_count.data(), mine.data(), sizeof id_and_count);
  if (id) *id = id_and_count[0];
  if (count) *count = id_and_count[1];
}

Comm split_by_string(const Comm& comm, const std::string& s, int* group_id, int* num_groups) {
  int id = 0;
  number_strings(comm, s, &id, num_groups);
  if (group_id) *group_id = id;
  return comm.split(id, comm.rank());
}

bool all_true(const Comm& comm, bool flag) {
  return comm.impl().allreduce(int64_t{flag ? 1 : 0}, ReduceOp::land) != 0;
}

bool any_true(const Comm& comm, bool flag) {
  return comm.impl().allreduce(int64_t{flag ? 1 : 0}, ReduceOp::lor) != 0;
}

int64_t sum(const Comm& comm, int64_t v) { return comm.impl().allreduce(v, ReduceOp::sum); }
int64_t max(const Comm& comm, int64_t v) { return comm.impl().allreduce(v, ReduceOp::max); }
int64_t min(const Comm& comm, int64_t v) { return comm.impl().allreduce(v, ReduceOp::min); }
double max(const Comm& comm, double v) { return comm.impl().allreduce(v, ReduceOp::max); }

int min_without_spinning(const Comm& comm, int v) { return comm.impl().min_without_spinning(v); }

void bcast_int(const Comm& comm, int& v, int root) { comm.impl().bcast(&v, sizeof v, root); }

void bcast_string(const Comm& comm, std::string& s, int root) {
  int64_t len = static_cast<int64_t>(s.size());
  comm.impl().bcast(&len, sizeof len, root);
  s.resize(static_cast<size_t>(len));
  if (len > 0) comm.impl().bcast(s.data(), s.size(), root);
}

Status bcast_status(const Comm& comm, const Status& local, int root) {
  int code = static_cast<int>(local.code());
  std::string msg = local.message();
  bcast_int(comm, code, root);
  bcast_string(comm, msg, root);
  return Status(static_cast<Errc>(code), std::move(msg));
}

bool names_a_rank(std::string_view message) {
  if (message.substr(0, 5) != "rank ") return false;
  size_t i = 5;
  while (i < message.size() && message[i] >= '0' && message[i] <= '9') ++i;
  return i > 5 && message.substr(i, 2) == ": ";
}

Status agree(const Comm& comm, const Status& local) {
  int64_t mine = local.ok() ? comm.size() : comm.rank();
  int first = static_cast<int>(min(comm, mine));
  if (first == comm.size()) return Status::Ok();
  Status theirs = bcast_status(comm, local, first);
  // An error agreed on before (in a redundancy set, or here) names its rank already.
  if (names_a_rank(theirs.message())) return theirs;
  return Error(theirs.code(), "rank " + std::to_string(first) + ": " + theirs.message());
}

Status agree_own(const Comm& comm, const Status& local) {
  Status agreed = agree(comm, local);
  return local.ok() ? agreed : local;
}

}  // namespace scr::mpi
