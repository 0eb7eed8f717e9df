// What the nodes' caches hold, as the filemaps in their control directories
// describe it (docs/formats/prefix.md): for every dataset, where each rank's
// files are. With simulated nodes every node's directories are read
// (<base>/<node>/<user>/scr.<jobid>), else this node's own. A dataset is
// looked for in the store its filemap names (STORE), unless --cache-base
// says where all of them are (a staged copy).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "runtime/dataset.hpp"
#include "tools/scr_scavenge/options.hpp"

namespace scr::tools::scavenge {

// One filemap's entry for a dataset: one rank's files in one node's cache.
struct Holding {
  std::string node;  // "" for this node's own directories
  int rank = 0;      // the owner (world rank)
  std::string dir;   // the dataset directory in that node's cache
  std::shared_ptr<const rt::Filemap> filemap;
  int id = 0;

  const kv::Tree& entry() const { return *filemap->find(id); }
  std::vector<std::string> files() const { return filemap->files(id); }
  std::vector<std::string> redundancy_files() const { return filemap->redundancy_files(id); }
  // Every application and redundancy file it lists is in `dir`.
  bool whole(io::Env& env) const;
};

struct CachedDataset {
  int id = 0;
  kv::Tree desc;
  rt::DatasetInfo info;
  int world_ranks = 0;   // from the redundancy descriptors (REDDESC/<w>/WRANKS)
  bool complete = true;  // no filemap lists it without COMPLETE
  bool flushed = false;  // a filemap marks it FLUSHED (or read in place: BYPASS)
  std::map<int, std::vector<Holding>> ranks;  // every holding of each rank found

  // The rank's holding whose files are all there, else its first one.
  const Holding& best(io::Env& env, int rank) const;
};

struct CacheScan {
  std::vector<CachedDataset> datasets;  // ascending id
  std::vector<std::string> notes;       // nodes without storage, unreadable filemaps
};

CacheScan scan_caches(io::Env& env, const Options& options);

}  // namespace scr::tools::scavenge
