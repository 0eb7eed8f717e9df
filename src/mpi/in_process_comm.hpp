// The in-process implementation of the communicator primitives
// (comm_impl.hpp): ranks are threads sharing a Fabric. Collectives are plain
// messages on the communicator's collective context, every rank sending its
// part to every rank that needs it: O(P^2) messages, right for a handful of
// threads in a test.
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

  std::shared_ptr<Fabric> fabric_;
  uint64_t context_;  // even; context_ + 1 carries the collectives
  int rank_;
  int size_;
  // Splits and duplicates made from this communicator so far: every member
  // makes them in the same order, so the count names the new context.
  mutable uint64_t derivations_ = 0;
};

}  // namespace scr::mpi
