// Every MPI message tag SCR++ uses, in one place, so that no two kinds of
// message can share a tag and one can never be taken for another. Ranges that
// add a set rank, a distance or a stripe number span 256 (sets have at most
// 256 members); all tags stay below 32767, the smallest upper bound on tags
// that MPI allows. Each tag names its user.
#pragma once

namespace scr::mpi::tags {

// File movement between nodes (src/runtime/cache/file_transfer.cpp, swap_files).
inline constexpr int kFileHeaderLength = 811;  // size of the bundle header
inline constexpr int kFileHeader = 812;        // the bundle header itself
inline constexpr int kFilePiece = 813;         // file contents, piece by piece

// Sparse all-to-all of metadata trees (src/mpi/trees.cpp, exchange_trees).
inline constexpr int kTreeExchange = 7301;

// The turn passed from rank r to rank r + width (src/mpi/turns.cpp).
inline constexpr int kTurn = 7302;

// Redundancy pipelines (src/redset).
inline constexpr int kEntries = 0x5000;       // + distance: headers' metadata copies (headers.cpp)
inline constexpr int kRing = 0x5100;          // XOR pipeline (ring.cpp)
inline constexpr int kGatherSource = 0x5200;  // + stripe: RS source pieces (gather.cpp)
inline constexpr int kGatherOutput = 0x5300;  // + stripe: RS computed pieces (gather.cpp)
inline constexpr int kStream = 0x5400;        // + owner: PARTNER streams (streams.cpp)
inline constexpr int kEntryCrcs = 0x5500;     // + distance: checksums taken by the encode (crcs.cpp)

}  // namespace scr::mpi::tags
