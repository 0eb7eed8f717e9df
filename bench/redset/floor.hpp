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
};

// Collective over world; `path` is this rank's checkpoint, `bytes` long;
// `piece` as the engines' (redset::normalized_piece). Every rank times every
// part; this rank's first error comes back at the end.
Result<FloorParts> measure_floor(const mpi::Comm& world, const redset::Set& set, io::Env& env,
                                 const std::string& path, uint64_t bytes, size_t piece, int k);

// The least time the set's scheme can take to protect the checkpoint, given
// the parts and the plain write of the same data: each part scaled by the
// bytes it moves per protected byte. The smaller of two sums: of the parts'
// wall times, and of their CPU times spread over the machine's cores (a part
// whose ranks wait for each other does not count its idle time).
double floor_seconds(const redset::Set& set, int k, const FloorParts& parts, const Timing& write);

// The same for the rebuild after the loss of `lost` members of every set:
// the scheme's rebuild movements, counted per rank over the set (survivors
// read, check and send, the lost members write and check what they get).
double rebuild_floor_seconds(const redset::Set& set, int k, int lost, const FloorParts& parts,
                             const Timing& write);

}  // namespace scr::bench
