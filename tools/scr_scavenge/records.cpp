#include "tools/scr_scavenge/records.hpp"

#include "runtime/cache/catalog.hpp"

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
  return rt::CacheCatalog::mark_flushed_in(env, path, rank, id);
}

}  // namespace scr::tools::scavenge
