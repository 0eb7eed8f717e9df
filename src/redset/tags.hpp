// MPI tags of the redundancy pipelines, in disjoint ranges so that a message
// can never be taken for one of another kind. Ranges that add a set rank or
// a stripe number span 256 (sets have at most 256 members); all stay below
// 32767, the smallest MPI_TAG_UB MPI allows.
#pragma once

namespace scr::redset::tags {

inline constexpr int kEntries = 0x5000;       // + distance: headers' metadata copies
inline constexpr int kRing = 0x5100;          // XOR pipeline
inline constexpr int kGatherSource = 0x5200;  // + stripe: RS source pieces
inline constexpr int kGatherOutput = 0x5300;  // + stripe: RS computed pieces
inline constexpr int kStream = 0x5400;        // + owner: PARTNER streams

}  // namespace scr::redset::tags
