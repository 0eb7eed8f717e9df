#include "redset/ring.hpp"

#include <algorithm>
#include <cstring>

#include "mpi/requests.hpp"
#include "mpi/tags.hpp"
#include "redset/buffer.hpp"
#include "redset/kernels/xor.hpp"

namespace scr::redset {
namespace {

constexpr int kTag = mpi::tags::kRing;

class Ring {
 public:
  Ring(const mpi::Comm& comm, SymbolStore& store, const Pieces& pieces,
       const std::vector<RingStep>& steps, RingDepth depth, mpi::Patience on_path)
      : depth_(depth),
        comm_(comm),
        left_((comm.rank() + comm.size() - 1) % comm.size()),
        right_((comm.rank() + 1) % comm.size()),
        store_(store),
        pieces_(pieces),
        steps_(steps),
        total_(pieces.count() * steps.size()),
        own_(pieces.size()),
        on_path_(on_path),
        send_patience_(sends_only(steps) ? mpi::Patience::sleep_first : on_path),
        views_(depth.buffers),
        sends_(depth.buffers),
        recvs_(depth.buffers) {
    for (uint64_t i = 0; i < depth_.buffers; ++i) slots_.emplace_back(pieces.size());
  }

  void run() {
    for (uint64_t u = 0; u < std::min(depth_.ahead, total_); ++u) prepare(u);
    for (uint64_t u = 0; u < total_; ++u) {
      step(u);
      if (u + depth_.ahead < total_) prepare(u + depth_.ahead);
    }
    sends_.wait_all(send_patience_);
  }

 private:
  // A member whose schedule receives nothing (the first of a rebuild's
  // chain) waits only for its sends: for members busier than it, so it
  // sleeps at once rather than spin on their cores (mpi/patience.hpp).
  static bool sends_only(const std::vector<RingStep>& steps) {
    return std::none_of(steps.begin(), steps.end(), [](const RingStep& st) { return st.receive; });
  }

  RingDepth depth_;
  const mpi::Comm& comm_;
  int left_, right_;
  SymbolStore& store_;
  const Pieces& pieces_;
  const std::vector<RingStep>& steps_;
  uint64_t total_;
  AlignedBuffer own_;  // our symbol, when it cannot be viewed in place
  mpi::Patience on_path_;
  mpi::Patience send_patience_;
  std::vector<AlignedBuffer> slots_;
  std::vector<ViewHold> views_;  // symbols sent in place, kept until their send is done
  mpi::Requests sends_, recvs_;

  const RingStep& at(uint64_t u) const { return steps_[u % steps_.size()]; }
  uint64_t piece_of(uint64_t u) const { return u / steps_.size(); }
  int length(uint64_t u) const { return static_cast<int>(pieces_.length(piece_of(u))); }

  void prepare(uint64_t u) {
    uint64_t s = u % depth_.buffers;
    sends_.wait(s, 1, send_patience_);
    views_[s].reset();
    if (at(u).receive)
      recvs_.irecv(s, comm_, slots_[s].data(), length(u), left_, kTag);
  }

  void step(uint64_t u) {
    const RingStep& st = at(u);
    uint64_t s = u % depth_.buffers;
    uint8_t* slot = slots_[s].data();
    size_t len = static_cast<size_t>(length(u));
    uint64_t offset = pieces_.offset(piece_of(u));
    const uint8_t* result = slot;  // what is passed on and/or kept
    if (!st.receive) {
      // A chain starts with our own symbol, sent from the file in place when possible.
      if (st.add)
        result = store_.view(*st.add, offset, len, slot, views_[s]);
      else
        std::memset(slot, 0, len);
    } else {
      // Our symbol is fetched while the left neighbour's piece is on its way.
      ViewHold own_view;
      const uint8_t* own =
          st.add ? store_.view(*st.add, offset, len, own_.data(), own_view) : nullptr;
      recvs_.wait(s, 1, on_path_);
      if (own) kernels::xor_into(slot, own, len);
    }
    if (st.send)
      sends_.isend(s, comm_, result, static_cast<int>(len), right_, kTag);
    if (st.keep) store_.write(*st.keep, offset, result, len);
  }
};

}  // namespace

Status run_ring(const mpi::Comm& comm, SymbolStore& store, uint64_t chunk, size_t piece_size,
                const std::vector<RingStep>& steps, RingDepth depth, mpi::Patience on_path) {
  Pieces pieces(chunk, piece_size);
  Ring(comm, store, pieces, steps, depth, on_path).run();
  return store.status();
}

std::vector<RingStep> encode_steps(int members) {
  std::vector<RingStep> steps(static_cast<size_t>(members));
  for (int t = 0; t < members; ++t) {
    RingStep& st = steps[static_cast<size_t>(t)];
    st.receive = t > 0;
    if (t < members - 1) {
      st.add = Symbol::data(t);
      st.send = true;
    } else {
      st.keep = Symbol::check(0);
    }
  }
  return steps;
}

std::vector<RingStep> rebuild_steps(int members, int rank, int root) {
  StripeLayout layout(members, 1);
  int chain_position = ((rank - root - 1) % members + members) % members;
  std::vector<RingStep> steps(static_cast<size_t>(members));
  for (int stripe = 0; stripe < members; ++stripe) {
    RingStep& st = steps[static_cast<size_t>(stripe)];
    if (rank == root) {
      st.receive = true;
      st.keep = layout.symbol_of(rank, stripe);
    } else {
      st.receive = chain_position > 0;
      st.add = layout.symbol_of(rank, stripe);
      st.send = true;
    }
  }
  return steps;
}

}  // namespace scr::redset
