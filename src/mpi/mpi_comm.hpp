// Communicators over MPI (library scr_mpi_impl): the one header of the
// message layer that includes <mpi.h>. Only code that is handed an MPI_Comm
// or must know whether MPI is up includes it: the API layer (src/api), the
// MPI tests and benchmarks. Everything else takes an mpi::Comm (comm.hpp).
// Each primitive of MpiComm is the MPI call of the same name, on an MPI_Comm
// it owns (frees) unless borrowed.
#pragma once

#include <mpi.h>

#include "mpi/comm.hpp"
#include "mpi/comm_impl.hpp"

namespace scr::mpi {

// Over an MPI communicator: a duplicate owned by the result, or `comm`
// itself, never freed.
Comm dup(MPI_Comm comm);
Comm borrow(MPI_Comm comm);
// The MPI communicator under `comm`, for tests and benchmarks that call MPI
// themselves; MPI_COMM_NULL for an in-process one.
MPI_Comm raw(const Comm& comm);
// The communicator of all the launch's processes, borrowed.
Comm world();
// Whether MPI has been initialized (SCR_Init must come after it).
bool initialized();

class MpiComm final : public CommImpl {
 public:
  MpiComm(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {}
  MpiComm(const MpiComm&) = delete;
  MpiComm& operator=(const MpiComm&) = delete;
  ~MpiComm() override;

  MPI_Comm handle() const { return comm_; }

  int rank() const override;
  int size() const override;
  bool threads_allowed() const override;
  std::unique_ptr<CommImpl> split(int color, int key) const override;
  std::unique_ptr<CommImpl> duplicate() const override;
  void barrier() const override;
  void shut_down() const override;

  Status send(const void* data, size_t bytes, int dest, int tag) const override;
  Status sendrecv(const void* out, int out_bytes, int dest, void* in, int in_bytes, int source,
                  int tag) const override;
  std::string recv_any_length(int source, int tag) const override;
  std::unique_ptr<RequestSlots> make_requests(size_t slots) const override;

  int64_t allreduce(int64_t v, ReduceOp op) const override;
  double allreduce(double v, ReduceOp op) const override;
  int min_without_spinning(int v) const override;
  void allgather(const void* mine, size_t bytes, void* all) const override;
  std::vector<std::string> allgather_strings(std::string_view mine) const override;
  void alltoall(const void* out, size_t bytes, void* in) const override;
  void bcast(void* data, size_t bytes, int root) const override;
  std::vector<std::string> gather_strings(std::string_view mine, int root) const override;
  std::string scatter_strings(std::vector<std::string> parts, int root) const override;

 private:
  MPI_Comm comm_;
  bool owned_;
};

}  // namespace scr::mpi
