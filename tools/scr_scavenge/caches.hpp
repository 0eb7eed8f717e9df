// Where a scavenge reads the caches and copies from: here (this node's own
// directories, or simulated nodes, which are directories of this host), or
// on the hosts of a cluster, whose node-local storage only they can see,
// through an agent run on each (remote_caches.hpp). The steps of saving a
// dataset (dataset.hpp) are the same either way.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "redset/survey.hpp"
#include "tools/common/progress.hpp"
#include "tools/scr_scavenge/node_caches.hpp"
#include "tools/scr_scavenge/options.hpp"

namespace scr::tools::scavenge {

struct Copied {
  std::map<int, kv::Tree> entries;  // summary entry of each rank copied
  std::vector<std::string> notes;   // ranks not copied, and why
  // Why copying stopped before the last rank, or across hosts why the
  // dataset cannot be saved (a rank not copied for want of space in the
  // prefix), when it did: the ranks copied are in `entries`, so that their
  // copies can be removed.
  Status stopped;
};

class Caches {
 public:
  virtual ~Caches() = default;
  virtual CacheScan scan() = 0;
  // The survey facts of each rank's best holding that lists a redundancy
  // file, by world rank.
  virtual std::map<int, redset::MemberFacts> facts(const CachedDataset& ds) = 0;
  // Bytes of the files a holding lists that are in its cache directory.
  virtual uint64_t bytes(const Holding& h) = 0;
  // Copies each rank's best holding to the prefix (copy.hpp). Here the first
  // failure fails the dataset; across hosts a node that fails leaves its
  // ranks out, noted, and they are rebuilt like those of a lost node, unless
  // the prefix had no space for them (stopped: a rebuild there fails too).
  virtual Result<Copied> copy(const CachedDataset& ds, const std::vector<int>& ranks,
                              Progress& progress) = 0;
  // Marks the dataset FLUSHED in the filemaps that list it; what failed.
  virtual std::vector<std::string> mark_flushed(const CachedDataset& ds) = 0;
  // The rank's holding whose files are all there, else its first one.
  virtual const Holding& best(const CachedDataset& ds, int rank) = 0;
};

// The caches of this host's directories (this node's, or simulated nodes').
std::unique_ptr<Caches> local_caches(io::Env& env, const Options& o);

// Facts of a holding's redundancy file read here; nullopt when it lists none.
std::optional<redset::MemberFacts> read_holding_facts(io::Env& env, const Holding& h);

}  // namespace scr::tools::scavenge
