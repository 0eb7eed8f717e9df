// The Reed-Solomon pipeline. For every stripe one member, its gatherer,
// collects the stripe's source symbols, computes the wanted symbols as GF(2^8)
// combinations of them, keeps those that are its own and sends the others to
// their owners. Encoding gathers the p-k data symbols of a stripe and computes
// its k check rows; rebuilding gathers p-k surviving symbols and computes the
// lost ones. Each source piece crosses the network once (k-fold less traffic
// than passing k running sums around the ring), and every member gathers about
// one stripe, so the work is spread evenly.
//
// All stripes advance one piece offset per phase; buffers are doubled so the
// next phase's pieces arrive while this phase is computed, and the piece size
// shrinks when a large set would otherwise need more than kGatherMemory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/status.hpp"
#include "mpi/comm.hpp"
#include "mpi/patience.hpp"
#include "redset/kernels/gf256.hpp"
#include "redset/layout.hpp"
#include "redset/symbols.hpp"

namespace scr::redset {

// 8 MiB keeps a process's peak under 32 MiB (with MPI's own 13 MiB); 16 MiB
// encoded 2-25% faster (8 ranks, 64 and 256 MiB each) but peaked at 35-37 MiB
// (docs/performance.md).
inline constexpr size_t kGatherMemory = size_t{8} << 20;

struct Located {
  int member = 0;
  Symbol symbol;
};

struct StripeJob {
  int gatherer = 0;
  std::vector<Located> sources;
  std::vector<Located> outputs;
  kernels::GfTables coefficients;  // outputs x sources
};

// Collective over comm; `jobs` is the same on every member, indexed by stripe.
// Returns the first I/O error of this member (messages are exchanged regardless).
// `on_path`: how every member waits (busy in an encode, spin_first in a
// rebuild).
Status run_gather(const mpi::Comm& comm, SymbolStore& store, uint64_t chunk, size_t piece_size,
                  const std::vector<StripeJob>& jobs, mpi::Patience on_path);

}  // namespace scr::redset
