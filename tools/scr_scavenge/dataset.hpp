// Saving one cached dataset in the prefix:
//  1. survey the caches (read only, from the facts `caches` gives, read on
//     each host): which ranks are lost, and can the redundancy data rebuild
//     them? If not, stop before writing anything;
//  2. record the dataset in the index as incomplete (rt::mark_flush_begun);
//  3. copy every intact rank's files to the prefix, and its redundancy file
//     to .scr/scr.dataset.<id>/, with their CRC32C (each host copies its own);
//  4. rebuild the lost ranks' files there (redset/offline.hpp), their file
//     lists coming from their neighbours' redundancy headers;
//  5. check that every file of every rank is there with its size and CRC32C;
//  6. rt::record_flushed, as a job's flush does: summary.scr, then COMPLETE
//     and FLUSHED, the CURRENT rule and the SCR_PREFIX_SIZE window
//     (runtime/prefix/flush_protocol.hpp);
//  7. mark it FLUSHED in the filemaps that list it.
// A failure at any step leaves the dataset not loadable.
#pragma once

#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "tools/scr_scavenge/caches.hpp"
#include "tools/scr_scavenge/node_caches.hpp"
#include "tools/scr_scavenge/options.hpp"

namespace scr::tools::scavenge {

struct Saved {
  int ranks = 0;
  size_t files = 0;
  uint64_t bytes = 0;        // application files
  std::vector<int> rebuilt;  // ranks rebuilt from redundancy data
  bool current = false;      // now CURRENT in the index
  std::vector<std::string> notes;
};

// Copies the dataset to the prefix, rebuilding lost ranks, and records it.
// `saved` says how far it went; its notes (ranks a host could not copy, and
// why) count also when it fails: they say why.
Status save_dataset(io::Env& env, const Options& options, Caches& caches, const CachedDataset& ds,
                    Saved& saved);

}  // namespace scr::tools::scavenge
