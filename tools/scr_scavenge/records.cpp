#include "tools/scr_scavenge/records.hpp"


namespace scr::tools::scavenge {

std::vector<std::string> mark_filemaps_flushed(io::Env& env, const CachedDataset& ds) {
  std::vector<std::string> failed;
  for (const auto& [rank, holdings] : ds.ranks)
    for (const Holding& h : holdings) {
      auto fm = rt::Filemap::load(env, h.filemap->path(), h.rank);
      Status st = fm.status();
      if (st.ok() && fm->has(ds.id)) st = fm->advance(ds.id, rt::CacheState::flushed);
      if (st.ok() && fm->has(ds.id)) st = fm->save(env);
      if (!st.ok()) failed.push_back(h.filemap->path() + ": " + st.message());
    }
  return failed;
}

}  // namespace scr::tools::scavenge
