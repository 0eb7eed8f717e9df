#include "tools/scr_scavenge/node_caches.hpp"

#include <algorithm>

#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/identity.hpp"

namespace scr::tools::scavenge {

bool Holding::whole(io::Env& env) const {
  if (seen) return seen->whole;
  auto names = files();
  auto red = redundancy_files();
  names.insert(names.end(), red.begin(), red.end());
  return std::all_of(names.begin(), names.end(), [&](const std::string& n) {
    auto info = env.stat(io::path::join(dir, n));
    return info && info->is_regular();
  });
}

const Holding& CachedDataset::best(io::Env& env, int rank) const {
  const auto& holdings = ranks.at(rank);
  for (const Holding& h : holdings)
    if (h.whole(env)) return h;
  return holdings.front();
}

namespace {

rt::Identity node_identity(const Options& o, const std::string& node) {
  return {o.user, o.job_id, node, !node.empty()};
}

}  // namespace

std::vector<std::shared_ptr<const rt::Filemap>> read_filemaps(io::Env& env, const std::string& base,
                                                              const std::string& dir,
                                                              std::vector<std::string>* notes) {
  std::vector<std::shared_ptr<const rt::Filemap>> out;
  if (std::string link = io::link_within(env, base, dir); !link.empty()) {
    notes->push_back("ignoring " + dir + ": " + link + " is a symbolic link; SCR++ does not follow links inside " +
                     base);
    return out;
  }
  auto names = env.list_dir(dir);
  if (!names) return out;
  for (const auto& name : *names) {
    if (!str::starts_with(name, "filemap_") || !str::ends_with(name, ".scr")) continue;
    std::string path = io::path::join(dir, name);
    auto tree = io::read_tree(env, path);
    int64_t rank = tree ? tree->int_or("RANK", -1) : -1;
    if (rank < 0) {
      notes->push_back("ignoring unreadable filemap " + path +
                       (tree ? ": it names no RANK" : ": " + tree.status().message()));
      continue;
    }
    out.push_back(std::make_shared<const rt::Filemap>(
        rt::Filemap::from_tree(path, static_cast<int>(rank), std::move(tree).value())));
  }
  return out;
}

namespace {

// The job's size, as the redundancy descriptors of the set members record it.
int world_ranks_of(const kv::Tree* descs) {
  if (descs)
    for (const auto& [w, desc] : descs->children())
      if (int n = static_cast<int>(desc->int_or("WRANKS", 0)); n > 0) return n;
  return 0;
}

}  // namespace

void add_holding(std::map<int, CachedDataset>& by_id, Holding h) {
  CachedDataset& ds = by_id[h.id];
  ds.id = h.id;
  if (ds.desc.empty() && h.desc()) {
    ds.desc = *h.desc();
    ds.info = rt::DatasetInfo::from_tree(ds.desc);
  }
  if (!ds.world_ranks) ds.world_ranks = world_ranks_of(h.filemap->member_descs(h.id));
  rt::CacheState state = h.filemap->state(h.id);
  ds.complete = ds.complete && state != rt::CacheState::routed;
  ds.flushed = ds.flushed || state == rt::CacheState::flushed || h.filemap->bypass(h.id);
  ds.ranks[h.rank].push_back(std::move(h));
}

std::string holding_dir(const Options& o, const rt::Identity& who, const rt::Filemap& fm, int id) {
  std::string store = o.cache_base_given ? o.cache_base : fm.store(id, o.cache_base);
  return io::path::join(rt::job_dir(store, who), "scr.dataset." + std::to_string(id));
}

CacheScan scan_caches(io::Env& env, const Options& o) {
  CacheScan scan;
  std::map<int, CachedDataset> by_id;
  std::vector<std::string> nodes = o.nodes.empty() ? std::vector<std::string>{""} : o.nodes;
  for (const std::string& node : nodes) {
    rt::Identity who = node_identity(o, node);
    std::string cntl = rt::job_dir(o.cntl_base, who);
    if (!env.exists(cntl)) {
      scan.notes.push_back((node.empty() ? std::string("this node") : "node " + node) +
                           " has no control directory " + cntl + " (lost, or never used)");
      continue;
    }
    for (auto& fm : read_filemaps(env, o.cntl_base, cntl, &scan.notes))
      for (int id : fm->ids())
        add_holding(by_id, {node, static_cast<int>(fm->tree().int_or("RANK", 0)),
                            holding_dir(o, who, *fm, id), fm, id, std::nullopt});
  }
  for (auto& [id, ds] : by_id) scan.datasets.push_back(std::move(ds));
  return scan;
}

}  // namespace scr::tools::scavenge
