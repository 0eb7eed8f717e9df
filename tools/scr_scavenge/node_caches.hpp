// What the nodes' caches hold, as the filemaps in their control directories
// describe it (docs/formats/prefix.md): for every dataset, where each rank's
// files are. With simulated nodes every node's directories are read
// (<base>/<node>/<user>/scr.<jobid>), else this node's own. A dataset is
// looked for in the store its filemap names (STORE), unless --cache-base
// says where all of them are (a staged copy).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "redset/survey.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/identity.hpp"
#include "tools/scr_scavenge/options.hpp"

namespace scr::tools::scavenge {

// One filemap's entry for a dataset: one rank's files in one node's cache.
struct Holding {
  std::string node;  // "" for this node's own directories; a host's name when an agent read it
  int rank = 0;      // the owner (world rank)
  std::string dir;   // the dataset directory in that node's cache
  std::shared_ptr<const rt::Filemap> filemap;
  int id = 0;

  const kv::Tree* desc() const { return filemap->desc(id); }
  std::vector<std::string> files() const { return filemap->files(id); }
  std::vector<std::string> redundancy_files() const { return filemap->redundancy_files(id); }
  // What a node agent found there (on a host this process cannot see);
  // unset when read here.
  struct Seen {
    bool whole = false;
    uint64_t bytes = 0;
    std::optional<redset::MemberFacts> facts;  // of its redundancy file, if it lists one
  };
  std::optional<Seen> seen;

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
  // No host could be read: none answered (unreachable, timed out), or all
  // are down or excluded. What their caches hold is unknown, which is not
  // "nothing to do".
  bool no_host_answered = false;
};

// Every holding of every filemap in the control directories of the nodes
// the options name (simulated nodes, else this node), gathered by dataset.
CacheScan scan_caches(io::Env& env, const Options& options);

// The filemaps of one control directory `dir` below `base`; what cannot be
// read is noted, and so is a directory reached through a symbolic link
// below `base` (SCR_Init refuses the same), which is not read.
std::vector<std::shared_ptr<const rt::Filemap>> read_filemaps(io::Env& env, const std::string& base,
                                                              const std::string& dir,
                                                              std::vector<std::string>* notes);

// Where a filemap's dataset `id` is cached on the node of `who`.
std::string holding_dir(const Options& o, const rt::Identity& who, const rt::Filemap& fm, int id);

// Holdings gathered by dataset, ascending id.
void add_holding(std::map<int, CachedDataset>& by_id, Holding h);

}  // namespace scr::tools::scavenge
