#include "tools/common/summary.hpp"

#include <algorithm>

#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/scr31/dataset_files.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::tools {

uint64_t Summary::bytes() const {
  uint64_t n = 0;
  for (const auto& r : per_rank)
    for (const auto& f : r.files) n += f.size;
  return n;
}

size_t Summary::file_count() const {
  size_t n = 0;
  for (const auto& r : per_rank) n += r.files.size();
  return n;
}

Summary view_summary(const rt::Summary& summary) {
  Summary s;
  s.desc = summary.desc();
  s.info = rt::DatasetInfo::from_tree(s.desc);
  s.ranks = summary.writers();
  for (int r = 0; r < s.ranks; ++r) {
    RankFiles rf;
    rf.rank = r;
    // Both lists were checked when the summary was parsed.
    if (auto files = rt::summary_files(summary.rank(r)))
      for (auto& f : *files) rf.files.push_back({std::move(f.name), f.size, f.crc});
    if (auto red = rt::summary_redundancy(summary.rank(r)))
      for (auto& f : *red) rf.redundancy.push_back({std::move(f.name), f.size, std::nullopt});
    s.per_rank.push_back(std::move(rf));
  }
  return s;
}

Result<Summary> read_summary(io::Env& env, const std::string& prefix, int id) {
  auto summary = rt::Summary::read(env, prefix, id);
  // What a summary or map in the prefix names (a file outside it, say) is
  // damaged data (3), never the caller's usage error (1).
  if (!summary && summary.status().code() == Errc::invalid_argument)
    return Error(Errc::corrupt, summary.status().message());
  if (!summary) return summary.status();
  return view_summary(*summary);
}

Status scr31_files_readable(io::Env& env, const std::string& prefix, int id) {
  if (!env.exists(rt::own_summary_path(prefix, id))) return Status::Ok();
  SCR_ASSIGN_OR_RETURN(kv::Tree theirs, io::read_any_tree(env, rt::summary_path(prefix, id)));
  return rt::scr31::read_dataset_files(env, prefix, id, theirs).status();
}

std::vector<int> dataset_dirs(io::Env& env, const std::string& prefix) {
  std::vector<int> ids;
  auto names = env.list_dir(rt::prefix_scr_dir(prefix));
  if (!names) return ids;
  const std::string stem = "scr.dataset.";
  for (const auto& n : *names) {
    if (!str::starts_with(n, stem)) continue;
    if (auto id = str::parse_int(n.substr(stem.size())); id && *id >= 0 && *id <= INT32_MAX)
      ids.push_back(static_cast<int>(*id));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace scr::tools
