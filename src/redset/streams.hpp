// PARTNER's pipeline: whole byte streams (a member's logical file, or a
// replica kept in a redundancy file) copied to other members piece by piece.
// A stream is read once however many members receive it. Pieces of all
// streams advance together, one per round, with the next round's receives
// posted before this round's are awaited.
//
// The first I/O error sticks: later reads yield zeros and later writes are
// skipped, so the message schedule completes and peers never hang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/status.hpp"
#include "mpi/comm.hpp"
#include "mpi/patience.hpp"
#include "redset/views.hpp"

namespace scr::redset {

// Bytes [offset, offset + n) of a stream, in place (alive while `hold` is)
// or copied into `copy` (see views.hpp).
using ViewAt =
    std::function<Result<const uint8_t*>(uint64_t offset, size_t n, uint8_t* copy, ViewHold& hold)>;
using WriteAt = std::function<Status(uint64_t offset, const uint8_t* buf, size_t n)>;

struct OutStream {
  std::vector<int> to;  // receiving members
  int tag = 0;          // names the stream at the receivers
  uint64_t size = 0;
  ViewAt view;
};

struct InStream {
  int from = 0;
  int tag = 0;
  uint64_t size = 0;  // must equal the sender's
  WriteAt write;
};

// Collective over the members named in the streams. Returns this member's
// first I/O error. `on_path`: how a member that receives waits (busy in an
// encode, spin_first in a rebuild); a member that only sends sleeps at once.
Status run_streams(const mpi::Comm& comm, size_t piece_size, const std::vector<OutStream>& outs,
                   const std::vector<InStream>& ins, mpi::Patience on_path);

}  // namespace scr::redset
