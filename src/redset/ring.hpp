// The XOR pipeline (docs/design.md#xor). Pieces travel around the ring from each
// member to its right neighbour. In every step a member may take the running
// XOR from its left neighbour, fold in one of its own symbols, and then pass
// the result on to the right or keep it as one of its symbols. Apply's
// reduce-scatter and recover's reduction to the root are both such schedules;
// a schedule covers one piece offset and repeats for every piece, so files are
// read once and the redundancy file written once, in order.
#pragma once

#include <optional>
#include <vector>

#include "common/status.hpp"
#include "mpi/comm.hpp"
#include "mpi/patience.hpp"
#include "redset/layout.hpp"
#include "redset/symbols.hpp"

namespace scr::redset {

struct RingStep {
  bool receive = false;        // start from the left neighbour's result (else from zeros)
  std::optional<Symbol> add;   // XOR in this symbol of ours
  bool send = false;           // pass the result to the right neighbour
  std::optional<Symbol> keep;  // write the result as this symbol of ours
};

// How deep the pipeline runs: piece buffers in rotation, and how many steps
// ahead receives are posted (fewer than `buffers`). A buffer is reused only
// after the send made from it `buffers` steps ago is done.
struct RingDepth {
  uint64_t buffers;
  uint64_t ahead;
};
// Measured where processes share cores (docs/performance.md, "The ring's
// depth"): the encode, where every member receives, XORs and sends, is
// fastest shallow, its working set staying in cache; the rebuild, where one
// member receives and writes every piece, needs the deeper pipeline to keep
// that member fed.
inline constexpr RingDepth kEncodeDepth{2, 1};
inline constexpr RingDepth kRebuildDepth{4, 2};

// Collective over comm: runs `steps` once per piece of the chunks. Returns the
// first I/O error of this member (messages are exchanged regardless).
// `on_path`: how a member that receives waits (busy in an encode, where
// every member receives, adds and sends every piece; spin_first in a
// rebuild, where members wait for the lost one's writes); a member that
// only sends sleeps at once.
Status run_ring(const mpi::Comm& comm, SymbolStore& store, uint64_t chunk, size_t piece_size,
                const std::vector<RingStep>& steps, RingDepth depth, mpi::Patience on_path);

// Apply: the reduce-scatter. Step t < p-1 folds in data chunk t and passes
// the sum right; step p-1 receives the finished check chunk of stripe `rank`.
std::vector<RingStep> encode_steps(int members);

// Recover: the reduction to `root`, one step per stripe. The members after
// the root, in ring order, each add their symbol of the stripe; the last of
// them hands the sum, the root's lost symbol, to the root.
std::vector<RingStep> rebuild_steps(int members, int rank, int root);

}  // namespace scr::redset
