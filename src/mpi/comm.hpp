// The message layer's interface: an owning communicator handle, splits by
// string, collective decisions and sparse exchanges of metadata trees. Code
// outside src/mpi makes no MPI call of its own; it uses these (and
// mpi/requests.hpp, mpi/tags.hpp). Every collective here must be called by
// all processes of the communicator. A Comm runs over MPI (real jobs; made
// from an MPI_Comm by mpi/mpi_comm.hpp, which only the API layer includes) or
// over threads of one process (mpi/in_process.hpp); the helpers below are
// written once over the primitives of mpi/comm_impl.hpp. Nothing here names
// MPI, so every layer above compiles without <mpi.h>. Implemented in
// collectives.cpp, trees.cpp and sendrecv.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "mpi/comm_impl.hpp"

namespace scr::mpi {

// Owns its communicator; an MPI one borrowed (mpi::borrow) is never freed.
class Comm {
 public:
  Comm() = default;
  explicit Comm(std::unique_ptr<CommImpl> impl) : impl_(std::move(impl)) {}
  // A new communicator over the same processes, owned by the result.
  Comm duplicate() const { return Comm(impl_->duplicate()); }
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  Comm(Comm&&) noexcept = default;
  Comm& operator=(Comm&&) noexcept = default;
  ~Comm() = default;

  bool valid() const { return impl_ != nullptr; }
  int rank() const { return impl_->rank(); }
  int size() const { return impl_->size(); }
  bool threads_allowed() const { return impl_->threads_allowed(); }
  void barrier() const { impl_->barrier(); }
  // Collective: the processes passing one color form a new communicator,
  // ranked by key, then by rank here (MPI_Comm_split); a negative color
  // leaves the caller out with an invalid Comm.
  Comm split(int color, int key) const { return Comm(impl_->split(color, key)); }
  // For a process about to exit inside SCR (SCR_HALT_EXIT): ends its use of
  // the message layer (CommImpl::shut_down).
  void shut_down() const { impl_->shut_down(); }

  const CommImpl& impl() const { return *impl_; }

 private:
  std::unique_ptr<CommImpl> impl_;
};

// A peer rank that sends or receives nothing: a point-to-point call with it
// completes at once. MPI's null process plays this part over MPI; the value
// is SCR++'s own (MPI_PROC_NULL differs between MPI libraries), and one no
// MPI library takes for a rank or a wildcard, so a peer that reached MPI
// untranslated would fail loudly.
inline constexpr int kNoPeer = -32766;

// Collective: numbers the distinct strings the processes pass, 0..n-1 in
// sorted order; *id receives this process's string's number, *count n.
// Rank 0 numbers them (a gather and a scatter: a process sends and receives
// O(log N) messages, and only rank 0 holds every string).
void number_strings(const Comm& comm, const std::string& s, int* id, int* count);

// Split by string: processes that pass the same string land in one
// communicator, ranked by their rank in `comm`. Groups are numbered 0..n-1 in
// sorted order of the strings; *group_id and *num_groups receive them.
Comm split_by_string(const Comm& comm, const std::string& s, int* group_id = nullptr,
                     int* num_groups = nullptr);

std::vector<std::string> allgather_strings(const Comm& comm, const std::string& s);
// Every process's value, in rank order.
std::vector<int> allgather_ints(const Comm& comm, int v);
std::vector<std::array<uint64_t, 2>> allgather_pairs(const Comm& comm,
                                                     const std::array<uint64_t, 2>& v);

bool all_true(const Comm& comm, bool flag);
bool any_true(const Comm& comm, bool flag);
int64_t sum(const Comm& comm, int64_t v);
int64_t max(const Comm& comm, int64_t v);
int64_t min(const Comm& comm, int64_t v);
double max(const Comm& comm, double v);
// The minimum, waited for as the pipelines wait (mpi/wait.hpp: a spin as long
// as a piece takes, then sleeps), not with MPI's spinning collective: for
// processes that finish their share of a pipeline early and must leave the
// CPU to those still working.
int min_without_spinning(const Comm& comm, int v);

void bcast_int(const Comm& comm, int& v, int root);
void bcast_string(const Comm& comm, std::string& s, int root);
void bcast_tree(const Comm& comm, kv::Tree& tree, int root);
kv::Tree recv_tree(const Comm& comm, int source, int tag);
void send_tree(const Comm& comm, const kv::Tree& tree, int dest, int tag);
// Send `send` to `dest` and receive from `source` at once (ring shifts).
kv::Tree sendrecv_tree(const Comm& comm, const kv::Tree& send, int dest, int source, int tag);

// Send `out_bytes` bytes to `dest` while receiving up to `in_bytes` from
// `source` (either may be kNoPeer). A failed transfer is an Errc::mpi_error.
Status sendrecv(const Comm& comm, const void* out, int out_bytes, int dest, void* in,
                int in_bytes, int source, int tag);

// Sparse all-to-all of trees: send[r] goes to rank r. Returns, per source
// rank, what it sent us. Ranks that sent nothing are absent.
std::map<int, kv::Tree> exchange_trees(const Comm& comm, const std::map<int, kv::Tree>& send);

// Every process's `tree` at `root`, by rank (empty elsewhere), and the
// reverse: trees[r] from `root` to process r (`trees`, one per process, is
// read on root only). Along trees of processes: O(log P) messages each,
// where sending to or from one process with exchange_trees costs that
// process P.
std::map<int, kv::Tree> gather_trees(const Comm& comm, const kv::Tree& tree, int root);
kv::Tree scatter_trees(const Comm& comm, const std::vector<kv::Tree>& trees, int root);

// Collective error agreement: returns Ok on every rank if every rank's local
// status was ok; otherwise every rank gets the error of the lowest failing
// rank, prefixed with that rank number. Never hangs when only some fail.
Status agree(const Comm& comm, const Status& local);
// The same, but a process that failed gets its own error, in its own words;
// the others get the lowest failing rank's, naming it.
Status agree_own(const Comm& comm, const Status& local);
// "rank <n>: ...": the message of an error an agreement attributed already.
bool names_a_rank(std::string_view message);
// The status of process `root` (code and message), on every process.
Status bcast_status(const Comm& comm, const Status& local, int root);

}  // namespace scr::mpi
