#include "tools/common/summary.hpp"

#include <algorithm>

#include "common/strings.hpp"
#include "io/files.hpp"
#include "runtime/prefix_index.hpp"

namespace scr::tools {
namespace {

Result<std::vector<SummaryFile>> parse_files(const kv::Tree* list, const std::string& where) {
  std::vector<SummaryFile> out;
  if (!list) return out;
  for (const auto& [name, meta] : list->children()) {
    SummaryFile f;
    f.name = name;
    auto size = meta->get_uint("SIZE");
    if (!size) return Error(Errc::corrupt, where + ": file " + name + " has no valid SIZE");
    f.size = *size;
    if (meta->has("CRC")) {
      auto crc = meta->get_uint("CRC");
      if (!crc || *crc > UINT32_MAX)
        return Error(Errc::corrupt, where + ": file " + name + " has a malformed CRC");
      f.crc = static_cast<uint32_t>(*crc);
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

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

Result<Summary> parse_summary(const kv::Tree& tree, const std::string& where) {
  Summary s;
  const kv::Tree* desc = tree.get("DSET");
  if (!desc || !desc->has("ID") || !desc->has("NAME"))
    return Error(Errc::corrupt, where + ": no dataset descriptor (DSET with ID and NAME)");
  s.desc = *desc;
  s.info = rt::DatasetInfo::from_tree(*desc);
  auto ranks = tree.get_int("RANKS");
  if (!ranks || *ranks <= 0) return Error(Errc::corrupt, where + ": no valid RANKS count");
  s.ranks = static_cast<int>(*ranks);
  for (int r = 0; r < s.ranks; ++r) {
    const kv::Tree* rank = tree.at({"RANK", std::to_string(r)});
    if (!rank)
      return Error(Errc::corrupt, where + ": rank " + std::to_string(r) + " of " +
                                      std::to_string(s.ranks) + " has no file list");
    RankFiles rf;
    rf.rank = r;
    auto files = rt::summary_files(*rank);
    if (!files) return Error(Errc::corrupt, where + ": rank " + std::to_string(r) + ": " + files.status().message());
    for (auto& f : *files) rf.files.push_back({std::move(f.name), f.size, f.crc});
    SCR_ASSIGN_OR_RETURN(rf.redundancy, parse_files(rank->get("REDFILE"), where));
    s.per_rank.push_back(std::move(rf));
  }
  return s;
}

Result<Summary> read_summary(io::Env& env, const std::string& prefix, int id) {
  std::string path = rt::summary_path(prefix, id);
  auto tree = io::read_tree(env, path);
  if (!tree) {
    Status st = tree.status();
    if (st.code() == Errc::invalid_argument) return Error(Errc::corrupt, st.message());
    return st;
  }
  return parse_summary(*tree, path);
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
