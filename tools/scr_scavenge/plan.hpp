// Which cached datasets a scavenge saves: every output dataset not flushed,
// and the newest checkpoint not flushed (with --all every checkpoint not
// flushed). Checkpoints come newest first so that, when the newest cannot be
// rebuilt, the next older one is tried; none older than the newest loadable
// checkpoint already in the prefix is worth saving, unless --all asks.
#pragma once

#include <functional>

#include <string>
#include <vector>

#include "runtime/prefix/prefix_index.hpp"
#include "tools/scr_scavenge/node_caches.hpp"

namespace scr::tools::scavenge {

struct Skipped {
  int id = 0;
  std::string name;
  std::string why;
};

struct Plan {
  std::vector<int> outputs;      // ascending
  std::vector<int> checkpoints;  // newest first; a dataset both output and checkpoint is in both
  std::vector<Skipped> skipped;  // ascending
  bool empty() const { return outputs.empty() && checkpoints.empty(); }
};

// Whether a loadable checkpoint of the prefix has its files in place (the
// older cached ones are skipped for it only then); every one by default.
using InPlace = std::function<bool(int id)>;

Plan plan_scavenge(const std::vector<CachedDataset>& cached, const rt::PrefixIndex& index,
                   bool all, const InPlace& in_place = {});

}  // namespace scr::tools::scavenge
