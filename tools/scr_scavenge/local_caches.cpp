// The caches this process sees itself: this node's, or simulated nodes'.
#include "io/path.hpp"
#include "tools/scr_scavenge/caches.hpp"
#include "tools/scr_scavenge/copy.hpp"
#include "tools/scr_scavenge/records.hpp"

namespace scr::tools::scavenge {
namespace {

class LocalCaches : public Caches {
 public:
  LocalCaches(io::Env& env, const Options& o) : env_(env), o_(o) {}

  CacheScan scan() override { return scan_caches(env_, o_); }

  std::map<int, redset::MemberFacts> facts(const CachedDataset& ds) override {
    std::map<int, redset::MemberFacts> out;
    for (const auto& [rank, holdings] : ds.ranks)
      if (auto f = read_holding_facts(env_, best(ds, rank))) out[rank] = std::move(*f);
    return out;
  }

  uint64_t bytes(const Holding& h) override { return holding_bytes(env_, h); }

  Result<Copied> copy(const CachedDataset& ds, const std::vector<int>& ranks,
                      Progress& progress) override {
    Copied out;
    for (int rank : ranks) {
      auto entry = copy_rank(env_, best(ds, rank), ds.desc, o_.prefix, progress);
      if (!entry) {
        out.stopped = entry.status();
        break;
      }
      out.entries[rank] = std::move(entry).value();
    }
    return out;
  }

  std::vector<std::string> mark_flushed(const CachedDataset& ds) override {
    return mark_filemaps_flushed(env_, ds);
  }

  const Holding& best(const CachedDataset& ds, int rank) override { return ds.best(env_, rank); }

 private:
  io::Env& env_;
  const Options& o_;
};

}  // namespace

std::optional<redset::MemberFacts> read_holding_facts(io::Env& env, const Holding& h) {
  auto red = h.redundancy_files();
  if (red.empty()) return std::nullopt;
  return redset::read_member_facts(env, h.dir, io::path::join(h.dir, red.front()));
}

std::unique_ptr<Caches> local_caches(io::Env& env, const Options& o) {
  return std::make_unique<LocalCaches>(env, o);
}

}  // namespace scr::tools::scavenge
