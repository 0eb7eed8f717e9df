#include "redset/streams.hpp"

#include <algorithm>
#include <cstring>

#include "mpi/requests.hpp"
#include "mpi/tags.hpp"
#include "redset/buffer.hpp"
#include "redset/layout.hpp"

namespace scr::redset {
namespace {

constexpr int kTagBase = mpi::tags::kStream;

uint64_t rounds_of(uint64_t size, size_t piece) { return (size + piece - 1) / piece; }

class Streams {
 public:
  Streams(const mpi::Comm& comm, size_t piece, const std::vector<OutStream>& outs,
          const std::vector<InStream>& ins, mpi::Patience on_path)
      : comm_(comm), piece_(piece), outs_(outs), ins_(ins), on_path_(on_path) {
    for (const auto& o : outs_) {
      rounds_ = std::max(rounds_, rounds_of(o.size, piece_));
      for (auto& set : out_bufs_) set.emplace_back(piece_);
      for (auto& set : out_views_) set.emplace_back();
      for (auto& set : out_reqs_) set.emplace_back(o.to.size());
    }
    for (const auto& i : ins_) {
      rounds_ = std::max(rounds_, rounds_of(i.size, piece_));
      for (auto& set : in_bufs_) set.emplace_back(piece_);
    }
    for (auto& set : in_reqs_) set = mpi::Requests(ins_.size());
  }

  Status run() {
    if (rounds_ > 0) post_receives(0);
    for (uint64_t t = 0; t < rounds_; ++t) {
      send_round(t);
      if (t + 1 < rounds_) post_receives(t + 1);
      receive_round(t);
    }
    for (auto& set : out_reqs_)
      for (auto& reqs : set) reqs.wait_all(send_patience());
    return status_;
  }

 private:
  const mpi::Comm& comm_;
  size_t piece_;
  const std::vector<OutStream>& outs_;
  const std::vector<InStream>& ins_;
  mpi::Patience on_path_;
  uint64_t rounds_ = 0;
  std::vector<AlignedBuffer> out_bufs_[2], in_bufs_[2];
  std::vector<ViewHold> out_views_[2];  // pieces sent in place, until sent
  std::vector<mpi::Requests> out_reqs_[2];  // per out stream, one slot per destination
  mpi::Requests in_reqs_[2];                 // one slot per in stream
  Status status_;

  // A member that only sends (a survivor of a rebuild handing a lost member
  // its files) waits for a receiver busy writing every piece it gets; with
  // two pieces in flight that receiver always has one to take, so the
  // sender sleeps at once rather than spin on the cores the receiver needs.
  // A member that also receives (a byte or more) is on the set's path, and
  // waits as such.
  mpi::Patience send_patience() const {
    bool receives = std::any_of(ins_.begin(), ins_.end(), [](const InStream& in) { return in.size > 0; });
    return receives ? on_path_ : mpi::Patience::sleep_first;
  }

  // Length of piece t of a stream of `size` bytes; 0 when it has no such piece.
  int length(uint64_t size, uint64_t t) const {
    uint64_t at = t * piece_;
    return at >= size ? 0 : static_cast<int>(std::min<uint64_t>(piece_, size - at));
  }

  void send_round(uint64_t t) {
    for (size_t i = 0; i < outs_.size(); ++i) {
      const OutStream& o = outs_[i];
      int len = length(o.size, t);
      if (len == 0) continue;
      auto& reqs = out_reqs_[t % 2][i];
      reqs.wait_all(send_patience());
      uint8_t* copy = out_bufs_[t % 2][i].data();
      const uint8_t* piece = copy;
      if (status_.ok()) {
        auto got = o.view(t * piece_, static_cast<size_t>(len), copy, out_views_[t % 2][i]);
        if (got.ok())
          piece = *got;
        else
          status_ = got.status();
      }
      if (!status_.ok()) std::memset(copy, 0, static_cast<size_t>(len));
      for (size_t d = 0; d < o.to.size(); ++d)
        reqs.isend(d, comm_, piece, len, o.to[d], kTagBase + o.tag);
    }
  }

  void post_receives(uint64_t t) {
    for (size_t i = 0; i < ins_.size(); ++i) {
      int len = length(ins_[i].size, t);
      if (len == 0) continue;
      in_reqs_[t % 2].irecv(i, comm_, in_bufs_[t % 2][i].data(), len, ins_[i].from,
                            kTagBase + ins_[i].tag);
    }
  }

  void receive_round(uint64_t t) {
    for (size_t i = 0; i < ins_.size(); ++i) {
      int len = length(ins_[i].size, t);
      if (len == 0) continue;
      in_reqs_[t % 2].wait(i, 1, on_path_);
      if (status_.ok())
        status_ = ins_[i].write(t * piece_, in_bufs_[t % 2][i].data(), static_cast<size_t>(len));
    }
  }
};

}  // namespace

Status run_streams(const mpi::Comm& comm, size_t piece_size, const std::vector<OutStream>& outs,
                   const std::vector<InStream>& ins, mpi::Patience on_path) {
  return Streams(comm, normalized_piece(piece_size), outs, ins, on_path).run();
}

}  // namespace scr::redset
