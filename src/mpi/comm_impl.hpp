// What a communicator must provide: the primitives every helper of the
// message layer (comm.hpp, requests.hpp) is written on. Two implementations
// exist: MPI itself (mpi_comm.hpp, library scr_mpi_impl), for real jobs, and
// threads of one process (in_process.hpp, in scr_mpi with this interface),
// for runtimes and redundancy sets run in one process (the unit tests). Collectives
// that MPI does better than point-to-point messages (reductions, gathers,
// broadcasts) are primitives here so that the MPI path keeps using them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "mpi/patience.hpp"

namespace scr::mpi {

enum class ReduceOp { min, max, sum, land, lor };

class CommImpl;

// Numbered nonblocking byte transfers of one implementation, behind
// mpi::Requests. `comm` is always of the implementation that made the slots.
class RequestSlots {
 public:
  virtual ~RequestSlots() = default;
  virtual void isend(size_t slot, const CommImpl& comm, const void* data, int bytes, int dest,
                     int tag) = 0;
  virtual void irecv(size_t slot, const CommImpl& comm, void* data, int bytes, int source,
                     int tag) = 0;
  // Until the `count` slots from `first` on are complete (and free again).
  virtual void wait(size_t first, size_t count, Patience patience) = 0;
};

class CommImpl {
 public:
  virtual ~CommImpl() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Whether the process may run threads besides the one calling into
  // communication (MPI: a thread level of at least MPI_THREAD_FUNNELED).
  virtual bool threads_allowed() const = 0;
  // New communicators; collective over this one. A negative color leaves
  // the caller out (nullptr).
  virtual std::unique_ptr<CommImpl> split(int color, int key) const = 0;
  virtual std::unique_ptr<CommImpl> duplicate() const = 0;
  virtual void barrier() const = 0;
  // The process is about to exit inside SCR (SCR_HALT_EXIT): MPI is
  // finalized, as the application would have done; in one process, whose
  // ranks are threads that go on, nothing happens.
  virtual void shut_down() const = 0;

  // Point to point. A peer of kNoPeer (comm.hpp) sends or receives nothing.
  virtual Status send(const void* data, size_t bytes, int dest, int tag) const = 0;
  virtual Status sendrecv(const void* out, int out_bytes, int dest, void* in, int in_bytes,
                          int source, int tag) const = 0;
  // The next message from `source` with `tag`, whatever its length.
  virtual std::string recv_any_length(int source, int tag) const = 0;
  virtual std::unique_ptr<RequestSlots> make_requests(size_t slots) const = 0;

  // Collectives.
  virtual int64_t allreduce(int64_t v, ReduceOp op) const = 0;
  virtual double allreduce(double v, ReduceOp op) const = 0;
  // The minimum, waited for as the pipelines wait (mpi::min_without_spinning).
  virtual int min_without_spinning(int v) const = 0;
  // `bytes` bytes from every process into `all`, in rank order.
  virtual void allgather(const void* mine, size_t bytes, void* all) const = 0;
  // Strings of any length from every process, in rank order.
  virtual std::vector<std::string> allgather_strings(std::string_view mine) const = 0;
  // `bytes` bytes per process: block r of `out` goes to rank r; block r of
  // `in` comes from it.
  virtual void alltoall(const void* out, size_t bytes, void* in) const = 0;
  virtual void bcast(void* data, size_t bytes, int root) const = 0;
  // Strings of any length from every process to `root`, in rank order there
  // (empty elsewhere): what one process must learn of every other, without
  // every process holding all of it as an allgather would.
  virtual std::vector<std::string> gather_strings(std::string_view mine, int root) const = 0;
  // `parts[r]` (given on `root`, one per process) to process r.
  virtual std::string scatter_strings(std::vector<std::string> parts, int root) const = 0;
};

}  // namespace scr::mpi
