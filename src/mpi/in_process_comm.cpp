#include "mpi/in_process_comm.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "mpi/comm.hpp"

namespace scr::mpi {
namespace {

// One tag serves every collective: members call collectives in the same
// order, and messages between two ranks are matched in the order sent.
constexpr int kCollectiveTag = 0;

class InProcessRequestSlots final : public RequestSlots {
 public:
  InProcessRequestSlots(Fabric& fabric, size_t n) : fabric_(fabric), receives_(n) {}
  void isend(size_t slot, const CommImpl& comm, const void* data, int bytes, int dest,
             int tag) override {
    // Sends copy their bytes and are complete at once.
    (void)comm.send(data, static_cast<size_t>(bytes), dest, tag);
    receives_.at(slot).reset();
  }
  void irecv(size_t slot, const CommImpl& comm, void* data, int bytes, int source,
             int tag) override {
    receives_.at(slot) = static_cast<const InProcessComm&>(comm).post_receive(
        data, static_cast<size_t>(bytes), source, tag);
  }
  void wait(size_t first, size_t count) override {
    for (size_t i = first; i < first + count; ++i) {
      auto pending = std::move(receives_.at(i));
      if (!pending) continue;
      fabric_.wait(*pending);
      // MPI's default handler aborts the job on a truncated message.
      if (!pending->status.ok()) throw std::runtime_error(pending->status.message());
    }
  }

 private:
  Fabric& fabric_;
  std::vector<std::shared_ptr<PostedReceive>> receives_;  // null: complete
};

template <typename T>
T reduce(const std::vector<std::string>& parts, ReduceOp op) {
  T out{};
  for (size_t i = 0; i < parts.size(); ++i) {
    T v{};
    std::memcpy(&v, parts[i].data(), sizeof v);
    if (i == 0 && op != ReduceOp::sum) out = v;
    switch (op) {
      case ReduceOp::min: out = std::min(out, v); break;
      case ReduceOp::max: out = std::max(out, v); break;
      case ReduceOp::sum: out += v; break;
      case ReduceOp::land: out = (out != T{0} && v != T{0}) ? T{1} : T{0}; break;
      case ReduceOp::lor: out = (out != T{0} || v != T{0}) ? T{1} : T{0}; break;
    }
  }
  return out;
}

std::string_view bytes_of(const void* data, size_t bytes) {
  return {static_cast<const char*>(data), bytes};
}

}  // namespace

void InProcessComm::check_peer(int peer) const {
  if (peer != kNoPeer && (peer < 0 || peer >= size_))
    throw std::out_of_range("in-process message to or from rank " + std::to_string(peer) +
                            " of a communicator of " + std::to_string(size_));
}

std::unique_ptr<CommImpl> InProcessComm::split(int color, int key) const {
  struct Entry {
    int color, key, rank;
  };
  Entry mine{color, key, rank_};
  std::vector<Entry> all(static_cast<size_t>(size_));
  allgather(&mine, sizeof mine, all.data());
  uint64_t sequence = derivations_++;
  if (color < 0) return nullptr;
  std::vector<Entry> group;
  for (const Entry& e : all)
    if (e.color == color) group.push_back(e);
  std::stable_sort(group.begin(), group.end(), [](const Entry& a, const Entry& b) {
    return a.key != b.key ? a.key < b.key : a.rank < b.rank;
  });
  auto me = std::find_if(group.begin(), group.end(), [&](const Entry& e) { return e.rank == rank_; });
  uint64_t context = fabric_->derived_context(context_, sequence, color);
  return std::make_unique<InProcessComm>(fabric_, context, static_cast<int>(me - group.begin()),
                                         static_cast<int>(group.size()));
}

std::unique_ptr<CommImpl> InProcessComm::duplicate() const { return split(0, rank_); }

void InProcessComm::barrier() const { exchange({}); }

Status InProcessComm::send(const void* data, size_t bytes, int dest, int tag) const {
  check_peer(dest);
  if (dest != kNoPeer) fabric_->send(context_, rank_, dest, tag, data, bytes);
  return Status::Ok();
}

std::shared_ptr<PostedReceive> InProcessComm::post_receive(void* data, size_t bytes, int source,
                                                           int tag) const {
  check_peer(source);
  if (source == kNoPeer) return nullptr;
  PostedReceive r;
  r.data = data;
  r.capacity = bytes;
  r.source = source;
  r.tag = tag;
  return fabric_->post(context_, rank_, std::move(r));
}

Status InProcessComm::sendrecv(const void* out, int out_bytes, int dest, void* in, int in_bytes,
                               int source, int tag) const {
  auto receive = post_receive(in, static_cast<size_t>(in_bytes), source, tag);
  SCR_TRY(send(out, static_cast<size_t>(out_bytes), dest, tag));
  if (!receive) return Status::Ok();
  fabric_->wait(*receive);
  return receive->status;
}

std::string InProcessComm::recv_any_length(int source, int tag) const {
  check_peer(source);
  std::string bytes;
  if (source == kNoPeer) return bytes;
  PostedReceive r;
  r.whole = &bytes;
  r.source = source;
  r.tag = tag;
  fabric_->wait(*fabric_->post(context_, rank_, std::move(r)));
  return bytes;
}

std::unique_ptr<RequestSlots> InProcessComm::make_requests(size_t slots) const {
  return std::make_unique<InProcessRequestSlots>(*fabric_, slots);
}

void InProcessComm::collective_send(int dest, std::string_view bytes) const {
  fabric_->send(context_ + 1, rank_, dest, kCollectiveTag, bytes.data(), bytes.size());
}

std::string InProcessComm::collective_recv(int source) const {
  std::string bytes;
  PostedReceive r;
  r.whole = &bytes;
  r.source = source;
  r.tag = kCollectiveTag;
  fabric_->wait(*fabric_->post(context_ + 1, rank_, std::move(r)));
  return bytes;
}

std::vector<std::string> InProcessComm::exchange(std::string_view mine) const {
  for (int r = 0; r < size_; ++r)
    if (r != rank_) collective_send(r, mine);
  std::vector<std::string> all(static_cast<size_t>(size_));
  for (int r = 0; r < size_; ++r)
    all[static_cast<size_t>(r)] = r == rank_ ? std::string(mine) : collective_recv(r);
  return all;
}

int64_t InProcessComm::allreduce(int64_t v, ReduceOp op) const {
  return reduce<int64_t>(exchange(bytes_of(&v, sizeof v)), op);
}

double InProcessComm::allreduce(double v, ReduceOp op) const {
  return reduce<double>(exchange(bytes_of(&v, sizeof v)), op);
}

int InProcessComm::min_without_spinning(int v) const {
  return static_cast<int>(allreduce(int64_t{v}, ReduceOp::min));
}

void InProcessComm::allgather(const void* mine, size_t bytes, void* all) const {
  auto parts = exchange(bytes_of(mine, bytes));
  for (size_t r = 0; r < parts.size(); ++r)
    std::memcpy(static_cast<char*>(all) + r * bytes, parts[r].data(), bytes);
}

std::vector<std::string> InProcessComm::allgather_strings(std::string_view mine) const {
  return exchange(mine);
}

void InProcessComm::alltoall(const void* out, size_t bytes, void* in) const {
  const char* blocks = static_cast<const char*>(out);
  for (int r = 0; r < size_; ++r)
    if (r != rank_) collective_send(r, bytes_of(blocks + static_cast<size_t>(r) * bytes, bytes));
  for (int r = 0; r < size_; ++r) {
    char* into = static_cast<char*>(in) + static_cast<size_t>(r) * bytes;
    if (r == rank_)
      std::memcpy(into, blocks + static_cast<size_t>(r) * bytes, bytes);
    else
      std::memcpy(into, collective_recv(r).data(), bytes);
  }
}

void InProcessComm::bcast(void* data, size_t bytes, int root) const {
  check_peer(root);
  if (rank_ == root) {
    for (int r = 0; r < size_; ++r)
      if (r != rank_) collective_send(r, bytes_of(data, bytes));
    return;
  }
  std::string got = collective_recv(root);
  if (got.size() != bytes)
    throw std::length_error("in-process bcast: root sent " + std::to_string(got.size()) +
                            " bytes, this rank expected " + std::to_string(bytes));
  if (bytes > 0) std::memcpy(data, got.data(), bytes);
}

}  // namespace scr::mpi
