// The floor of an encode on one node: the data movements every scheme is
// made of, each timed alone with every rank at once, in the same run as the
// encode they bound. docs/performance.md#the-floor-model-measured-in-the-same-run explains
// the sums.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "io/env.hpp"
#include "redset/set.hpp"
#include "timing.hpp"

namespace scr::bench {

// Each part moves D bytes per rank, D being the checkpoint's size.
struct FloorParts {
  Timing view;   // the checkpoint viewed in place piece by piece, as the engines read it
  Timing read;   // the same pieces read into a buffer (pread)
  Timing check;  // the checkpoint viewed piece by piece and each piece's CRC32C taken:
                 // one pass over its bytes where they live (the page cache, in memory)
  Timing send;  // D bytes to the right neighbour in the set and D from the left, pipelined
  Timing xor_;  // D bytes XORed into a piece (ISA-L)
  Timing crc;   // the CRC32C of D bytes already in the processor's caches (ISA-L)
  Timing code;  // RS only: D source bytes encoded into the set's k check rows (ISA-L)
  // One process alone, the others asleep at the barrier: a member's own
  // costs, which no idle core can share with it.
  Timing receive_alone;  // D bytes received from another member, pipelined as `send`
  Timing write_alone;    // D bytes written into a new file in the cache
  int ranks = 1;  // processes that ran each shared part at once (cpu_s sums over them)
};

// Collective over world; `path` is this rank's checkpoint, `bytes` long;
// `piece` as the engines' (redset::normalized_piece). Every rank times every
// part; this rank's first error comes back at the end.
Result<FloorParts> measure_floor(const mpi::Comm& world, const redset::Set& set, io::Env& env,
                                 const std::string& path, uint64_t bytes, size_t piece, int k);

// A floor and the two bounds it is the larger of.
struct Floor {
  double seconds = 0;  // max(machine, path)
  // The machine's bound: the set's work, each part scaled by the bytes it
  // moves per protected byte on average over the members; the smaller of the
  // sum of the parts' wall times and of their CPU times spread over the
  // machine's cores (a part whose ranks wait for each other does not count
  // its idle time).
  double machine = 0;
  // The busiest member's own work: a member is one process, and under MPI's
  // default thread level one thread, so what it must do itself runs one piece
  // after another however many cores are idle. Each part costs its CPU time
  // per process (cpu_s / ranks); receiving and writing the cheaper of that
  // and what one process alone takes for them.
  double path = 0;
};

// The least time the set's scheme can take to protect the checkpoint, given
// the parts and the plain write of the same data.
Floor encode_floor(const redset::Set& set, int k, const FloorParts& parts, const Timing& write);

// The same for the rebuild after the loss of `lost` members of every set:
// the scheme's rebuild movements (survivors read, check and send, the lost
// members receive, write and check what they get).
Floor rebuild_floor(const redset::Set& set, int k, int lost, const FloorParts& parts,
                    const Timing& write);

}  // namespace scr::bench
