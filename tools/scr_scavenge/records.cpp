#include "tools/scr_scavenge/records.hpp"

#include "io/files.hpp"
#include "runtime/dataset.hpp"
#include "runtime/prefix_index.hpp"

namespace scr::tools::scavenge {

Status mark_incomplete(io::Env& env, const std::string& prefix, const kv::Tree& desc) {
  SCR_ASSIGN_OR_RETURN(rt::PrefixIndex idx, rt::PrefixIndex::load(env, prefix));
  kv::Tree& e = idx.upsert(desc);
  e.erase("COMPLETE");
  e.erase("FLUSHED");
  return idx.save(env);
}

Status write_summary(io::Env& env, const std::string& prefix, const CachedDataset& ds,
                     const std::map<int, kv::Tree>& ranks) {
  kv::Tree summary;
  summary.put("DSET", ds.desc);
  summary.set_int("RANKS", ds.world_ranks);
  for (const auto& [r, files] : ranks) summary.child("RANK").put(std::to_string(r), files);
  return io::write_tree(env, rt::summary_path(prefix, ds.id), summary);
}

Status mark_flushed(io::Env& env, const std::string& prefix, const CachedDataset& ds,
                    uint64_t bytes, bool* current) {
  SCR_ASSIGN_OR_RETURN(rt::PrefixIndex idx, rt::PrefixIndex::load(env, prefix));
  kv::Tree& e = idx.upsert(ds.desc);
  e.set_uint("SIZE", bytes);
  e.set_int("COMPLETE", 1);
  e.set_int("FLUSHED", 1);
  auto named = idx.find_name(idx.current());
  *current = ds.info.is_checkpoint() && (!named || !idx.loadable(*named) || *named < ds.id);
  if (*current) idx.set_current(ds.info.name);
  return idx.save(env);
}

std::vector<std::string> mark_filemaps_flushed(io::Env& env, const CachedDataset& ds) {
  std::vector<std::string> failed;
  for (const auto& [rank, holdings] : ds.ranks)
    for (const Holding& h : holdings) {
      auto fm = rt::Filemap::load(env, h.filemap->path(), h.rank);
      Status st = fm.status();
      if (st.ok() && fm->has(ds.id)) {
        fm->set_flag(ds.id, "FLUSHED", true);
        st = fm->save(env);
      }
      if (!st.ok()) failed.push_back(h.filemap->path() + ": " + st.message());
    }
  return failed;
}

}  // namespace scr::tools::scavenge
