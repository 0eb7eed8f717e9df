// A fetched checkpoint's redundancy data, taken back from the prefix instead
// of encoded again.
//
// A flush copies every process's redundancy file into the dataset's
// directory in the prefix's .scr. When a job of the same size fetches the
// checkpoint, forms the same sets, and the files it fetched are the ones
// the headers record (names, sizes, CRC32C, mode, owner and modification
// time), those redundancy files are what an encode would write again, but
// for the access and change times their headers keep: copying them back
// protects the cached copy for the price of reading the parity, where an
// encode reads every file once more and moves it between processes. Any
// difference on any process, and every process encodes as before.
//
// PARTNER always encodes again: its redundancy file is a whole copy of its
// neighbours' files, so taking it back would double what the fetch reads
// from the prefix (on a real cluster, the parallel file system every job
// shares), where its encode only moves data between nodes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kvtree/tree.hpp"
#include "redset/set.hpp"
#include "runtime/cache/cache.hpp"

namespace scr::rt {

// This process's flushed redundancy file: where it lies in the prefix, its
// size and CRC32C as flushed, and where its copy goes in cache.
struct FlushedRedundancy {
  std::string src, dst;
  uint64_t size = 0;
  uint32_t crc = 0;
};

// Local: the redundancy file of `set` for dataset `id` when its scheme may
// take it back and the summary entry of this process (`summary_entry`,
// RANK/<r> of the summary) lists exactly that one, with its CRC32C;
// nullopt otherwise.
// `dir` is the dataset's directory in cache.
std::optional<FlushedRedundancy> flushed_redundancy(const Job& job, const redset::Set& set, int id,
                                                    const kv::Tree& summary_entry, const std::string& dir);

// Local, in the fetch's turn at the prefix: copy it into the cache, its
// durability left to the fetch's one syncfs. A copy that fails, or whose
// size or CRC32C is not the flushed one, is removed; the caller then
// encodes. (The headers record the CRC32C of the application's files, not
// of the parity: this check is what keeps a damaged parity in the prefix
// out of the cache.)
Status copy_flushed_redundancy(io::Env& env, const FlushedRedundancy& red);

// Collective: when every process copied its redundancy file and each
// belongs to its set and to the files this process fetched (`fetched`, as
// redset describes files), the dataset is recorded protected in the
// catalog (the caller commits) and the result is true. Otherwise every copy
// is removed and the result is false: the caller encodes.
bool adopt_flushed_redundancy(const Job& job, CacheCatalog& cache, const ProtectionSet& ps, int id,
                              const std::optional<FlushedRedundancy>& red, const kv::Tree& fetched);

}  // namespace scr::rt
