#include "tools/scr_scavenge/plan.hpp"

#include <algorithm>

namespace scr::tools::scavenge {
namespace {

// The newest checkpoint a restart from the prefix could load, with its
// files in place, or 0: one whose file is gone leaves the older cached
// checkpoints worth saving.
int newest_loadable(const rt::PrefixIndex& index, const InPlace& in_place) {
  std::vector<int> ids = index.ids();
  std::sort(ids.rbegin(), ids.rend());
  for (int id : ids)
    if (index.loadable(id) && (!in_place || in_place(id))) return id;
  return 0;
}

// Why a dataset is not saved whatever else is in cache, or "".
std::string never_why(const CachedDataset& ds, const rt::PrefixIndex& index) {
  if (ds.desc.empty()) return "no filemap holds its descriptor";
  if (!ds.complete) return "incomplete: the run ended while it was being written";
  if (ds.flushed || index.flushed(ds.id))
    return "already flushed";
  return "";
}

}  // namespace

Plan plan_scavenge(const std::vector<CachedDataset>& cached, const rt::PrefixIndex& index,
                   bool all, const InPlace& in_place) {
  Plan plan;
  int newest = newest_loadable(index, in_place);
  for (const CachedDataset& ds : cached) {
    if (std::string why = never_why(ds, index); !why.empty()) {
      plan.skipped.push_back({ds.id, ds.info.name, why});
      continue;
    }
    if (ds.info.is_output()) plan.outputs.push_back(ds.id);
    if (!ds.info.is_checkpoint()) continue;
    if (!all && ds.id < newest && !ds.info.is_output())
      plan.skipped.push_back({ds.id, ds.info.name,
                              "older than " + index.find(newest)->value_or("NAME", "?") +
                                  ", which the prefix already has"});
    else if (ds.id > newest || all)
      plan.checkpoints.push_back(ds.id);
  }
  std::reverse(plan.checkpoints.begin(), plan.checkpoints.end());
  return plan;
}

}  // namespace scr::tools::scavenge
