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
  // Receives never waited for (a rank unwinding from a failed run) are
  // withdrawn: their buffers go with the slots.
  ~InProcessRequestSlots() override {
    for (auto& r : receives_)
      if (r) fabric_.withdraw(*r);
  }
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
  void wait(size_t first, size_t count, Patience patience) override {
    // Threads block on a condition variable either way; the request is
    // counted so that tests see which waits a pipeline makes patient.
    if (patience == Patience::sleep_first && count > 0) ++thread_traffic().sleeping_waits;
    if (patience == Patience::busy && count > 0) ++thread_traffic().busy_waits;
    if (patience == Patience::spin_first && count > 0) ++thread_traffic().spinning_waits;
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
T combine(T a, T b, ReduceOp op) {
  switch (op) {
    case ReduceOp::min: return std::min(a, b);
    case ReduceOp::max: return std::max(a, b);
    case ReduceOp::sum: return a + b;
    case ReduceOp::land: return (a != T{0} && b != T{0}) ? T{1} : T{0};
    case ReduceOp::lor: return (a != T{0} || b != T{0}) ? T{1} : T{0};
  }
  return a;
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

// Every member's (color, key) up a tree to rank 0, which forms the groups
// and sends each member its place down again, as MPI_Comm_split.
std::unique_ptr<CommImpl> InProcessComm::split(int color, int key) const {
  struct Entry {
    int color, key, rank;
  };
  struct Place {
    int rank, size;  // in the new communicator; a size of 0 leaves the member out
  };
  Entry mine{color, key, rank_};
  std::string all = gather_concatenated(std::string(bytes_of(&mine, sizeof mine)), 0);
  std::vector<std::string> places;
  if (rank_ == 0) {
    std::vector<Entry> entries(static_cast<size_t>(size_));
    std::memcpy(entries.data(), all.data(), entries.size() * sizeof(Entry));
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      if (a.color != b.color) return a.color < b.color;
      return a.key != b.key ? a.key < b.key : a.rank < b.rank;
    });
    places.assign(static_cast<size_t>(size_), std::string(sizeof(Place), '\0'));
    for (size_t first = 0; first < entries.size();) {
      size_t end = first;
      while (end < entries.size() && entries[end].color == entries[first].color) ++end;
      for (size_t i = first; i < end; ++i) {
        Place p{static_cast<int>(i - first), entries[i].color < 0 ? 0 : static_cast<int>(end - first)};
        std::memcpy(places[static_cast<size_t>(entries[i].rank)].data(), &p, sizeof p);
      }
      first = end;
    }
  }
  std::string got = scatter_concatenated(std::move(places), 0);
  Place place{};
  std::memcpy(&place, got.data(), sizeof place);
  uint64_t sequence = derivations_++;
  if (color < 0) return nullptr;
  uint64_t context = fabric_->derived_context(context_, sequence, color);
  return std::make_unique<InProcessComm>(fabric_, context, place.rank, place.size);
}

std::unique_ptr<CommImpl> InProcessComm::duplicate() const { return split(0, rank_); }

void InProcessComm::barrier() const { (void)reduce_all(int64_t{0}, ReduceOp::sum); }

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

// Binomial trees over virtual ranks (rank - root, modulo size): virtual rank
// v's parent is v without its lowest set bit, its children are v + m for
// every power of two m below that bit (below size for the root), and the
// subtree of child c is [c, min(c + m, size)). Every rank sends and receives
// O(log P) messages per collective, as MPI's own collectives do; only the
// root of a gather or scatter handles O(P) bytes.
namespace {

int lowest_bit_or(int v, int otherwise) { return v == 0 ? otherwise : (v & -v); }

int top_mask(int n) {
  int m = 1;
  while (m < n) m <<= 1;
  return m;
}

void put_length(std::string& out, size_t n) {
  uint64_t v = n;
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Length-prefixed parts, one after the other, into `count` strings.
std::vector<std::string> unpack(std::string_view packed, size_t count) {
  std::vector<std::string> parts;
  parts.reserve(count);
  size_t at = 0;
  while (parts.size() < count && at + sizeof(uint64_t) <= packed.size()) {
    uint64_t n = 0;
    std::memcpy(&n, packed.data() + at, sizeof n);
    at += sizeof n;
    parts.emplace_back(packed.substr(at, static_cast<size_t>(n)));
    at += static_cast<size_t>(n);
  }
  if (parts.size() != count)
    throw std::length_error("in-process collective: " + std::to_string(parts.size()) +
                            " parts where " + std::to_string(count) + " were expected");
  return parts;
}

}  // namespace

int InProcessComm::real_rank(int virtual_rank, int root) const {
  return (virtual_rank + root) % size_;
}

std::string InProcessComm::gather_concatenated(std::string mine, int root) const {
  const int v = (rank_ - root + size_) % size_;
  for (int m = 1; m < size_; m <<= 1) {
    if (v & m) {
      collective_send(real_rank(v - m, root), mine);
      return {};
    }
    if (v + m < size_) mine += collective_recv(real_rank(v + m, root));
  }
  return mine;  // the root: every rank's part, in virtual rank order
}

void InProcessComm::bcast_bytes(std::string& data, int root) const {
  const int v = (rank_ - root + size_) % size_;
  const int low = lowest_bit_or(v, top_mask(size_));
  if (v != 0) data = collective_recv(real_rank(v - low, root));
  for (int m = low >> 1; m > 0; m >>= 1)
    if (v + m < size_) collective_send(real_rank(v + m, root), data);
}

std::string InProcessComm::scatter_concatenated(std::vector<std::string> parts, int root) const {
  const int v = (rank_ - root + size_) % size_;
  const int low = lowest_bit_or(v, top_mask(size_));
  // The parts of this rank's subtree, [v, v + span), in virtual rank order.
  const int span = std::min(low, size_ - v);
  std::vector<std::string> mine;
  if (v == 0) {
    mine.resize(static_cast<size_t>(size_));
    for (int r = 0; r < size_; ++r) mine[static_cast<size_t>((r - root + size_) % size_)] = std::move(parts[static_cast<size_t>(r)]);
  } else {
    mine = unpack(collective_recv(real_rank(v - low, root)), static_cast<size_t>(span));
  }
  for (int m = low >> 1; m > 0; m >>= 1) {
    if (v + m >= size_) continue;
    std::string packed;
    for (int c = m; c < std::min(2 * m, size_ - v); ++c) {
      put_length(packed, mine[static_cast<size_t>(c)].size());
      packed += mine[static_cast<size_t>(c)];
    }
    collective_send(real_rank(v + m, root), packed);
  }
  return std::move(mine[0]);
}

std::vector<std::string> InProcessComm::exchange(std::string_view mine) const {
  std::string part;
  put_length(part, mine.size());
  part += mine;
  std::string all = gather_concatenated(std::move(part), 0);
  bcast_bytes(all, 0);
  return unpack(all, static_cast<size_t>(size_));
}

template <typename T>
T InProcessComm::reduce_all(T v, ReduceOp op) const {
  // Up the tree to rank 0, combining as it goes, then down again.
  for (int m = 1; m < size_; m <<= 1) {
    if (rank_ & m) {
      collective_send(rank_ - m, bytes_of(&v, sizeof v));
      break;
    }
    if (rank_ + m < size_) {
      std::string got = collective_recv(rank_ + m);
      T theirs{};
      std::memcpy(&theirs, got.data(), sizeof theirs);
      v = combine(v, theirs, op);
    }
  }
  std::string out(bytes_of(&v, sizeof v));
  bcast_bytes(out, 0);
  std::memcpy(&v, out.data(), sizeof v);
  return v;
}

int64_t InProcessComm::allreduce(int64_t v, ReduceOp op) const { return reduce_all(v, op); }

double InProcessComm::allreduce(double v, ReduceOp op) const { return reduce_all(v, op); }

int InProcessComm::min_without_spinning(int v) const {
  return static_cast<int>(allreduce(int64_t{v}, ReduceOp::min));
}

void InProcessComm::allgather(const void* mine, size_t bytes, void* all) const {
  std::string together = gather_concatenated(std::string(bytes_of(mine, bytes)), 0);
  bcast_bytes(together, 0);
  if (together.size() != bytes * static_cast<size_t>(size_))
    throw std::length_error("in-process allgather: ranks gave parts of different sizes");
  if (!together.empty()) std::memcpy(all, together.data(), together.size());
}

std::vector<std::string> InProcessComm::allgather_strings(std::string_view mine) const {
  return exchange(mine);
}

std::vector<std::string> InProcessComm::gather_strings(std::string_view mine, int root) const {
  check_peer(root);
  std::string part;
  put_length(part, mine.size());
  part += mine;
  std::string all = gather_concatenated(std::move(part), root);
  if (rank_ != root) return {};
  auto virtual_order = unpack(all, static_cast<size_t>(size_));
  std::vector<std::string> out(static_cast<size_t>(size_));
  for (int v = 0; v < size_; ++v)
    out[static_cast<size_t>(real_rank(v, root))] = std::move(virtual_order[static_cast<size_t>(v)]);
  return out;
}

std::string InProcessComm::scatter_strings(std::vector<std::string> parts, int root) const {
  check_peer(root);
  if (rank_ == root && parts.size() != static_cast<size_t>(size_))
    throw std::length_error("in-process scatter: " + std::to_string(parts.size()) +
                            " parts for " + std::to_string(size_) + " ranks");
  return scatter_concatenated(std::move(parts), root);
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
  std::string got;
  if (rank_ == root) got.assign(static_cast<const char*>(data), bytes);
  bcast_bytes(got, root);
  if (got.size() != bytes)
    throw std::length_error("in-process bcast: root sent " + std::to_string(got.size()) +
                            " bytes, this rank expected " + std::to_string(bytes));
  if (rank_ != root && bytes > 0) std::memcpy(data, got.data(), bytes);
}

}  // namespace scr::mpi
