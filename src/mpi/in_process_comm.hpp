// The in-process implementation of the communicator primitives
// (comm_impl.hpp): ranks are threads sharing a Fabric. Collectives are plain
// messages on the communicator's collective context along binomial trees, so
// that a rank of a job of thousands sends O(log P) messages per collective,
// as under MPI (in_process_comm.cpp); all-to-all alone is P messages a rank.
#pragma once

#include <memory>

#include "mpi/comm_impl.hpp"
#include "mpi/in_process_fabric.hpp"

namespace scr::mpi {

class InProcessComm final : public CommImpl {
 public:
  InProcessComm(std::shared_ptr<Fabric> fabric, uint64_t context, int rank, int size)
      : fabric_(std::move(fabric)), context_(context), rank_(rank), size_(size) {}

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  bool threads_allowed() const override { return true; }  // ranks are threads already
  std::unique_ptr<CommImpl> split(int color, int key) const override;
  std::unique_ptr<CommImpl> duplicate() const override;
  void barrier() const override;
  void shut_down() const override {}

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

  // Nonblocking transfers of the request slots; a null result is complete.
  std::shared_ptr<PostedReceive> post_receive(void* data, size_t bytes, int source,
                                              int tag) const;
  Fabric& fabric() const { return *fabric_; }

 private:
  void check_peer(int peer) const;
  // The collective context: messages the caller's tags can never match.
  void collective_send(int dest, std::string_view bytes) const;
  std::string collective_recv(int source) const;
  std::vector<std::string> exchange(std::string_view mine) const;
  int real_rank(int virtual_rank, int root) const;
  // Up a binomial tree: the root gets every rank's `mine` concatenated in
  // the order of ranks counted from the root; the others get "".
  std::string gather_concatenated(std::string mine, int root) const;
  // Down a binomial tree: every rank gets the root's `data`.
  void bcast_bytes(std::string& data, int root) const;
  // Down a binomial tree: every rank gets its part of the root's `parts`
  // (indexed by rank; ignored elsewhere).
  std::string scatter_concatenated(std::vector<std::string> parts, int root) const;
  template <typename T>
  T reduce_all(T v, ReduceOp op) const;

  std::shared_ptr<Fabric> fabric_;
  uint64_t context_;  // even; context_ + 1 carries the collectives
  int rank_;
  int size_;
  // Splits and duplicates made from this communicator so far: every member
  // makes them in the same order, so the count names the new context.
  mutable uint64_t derivations_ = 0;
};

}  // namespace scr::mpi
