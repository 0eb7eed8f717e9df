#include "tools/scr_scavenge/records.hpp"


namespace scr::tools::scavenge {

std::vector<std::string> mark_filemaps_flushed(io::Env& env, const CachedDataset& ds) {
  std::vector<std::string> failed;
  for (const auto& [rank, holdings] : ds.ranks)
    for (const Holding& h : holdings)
      if (Status st = mark_filemap_flushed(env, h.filemap->path(), h.rank, ds.id); !st.ok())
        failed.push_back(h.filemap->path() + ": " + st.message());
  return failed;
}

Status mark_filemap_flushed(io::Env& env, const std::string& path, int rank, int id) {
  SCR_ASSIGN_OR_RETURN(rt::Filemap fm, rt::Filemap::load(env, path, rank));
  if (!fm.has(id)) return Status::Ok();
  SCR_TRY(fm.advance(id, rt::CacheState::flushed));
  return fm.save(env);
}

}  // namespace scr::tools::scavenge
