// A control directory: each filemap_<rank>.scr in words -- the datasets the
// rank holds in cache, their files, flags, recorded CRCs and the redundancy
// descriptors of its set.
#include <cstdio>
#include <map>

#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/dataset.hpp"
#include "tools/common/index_view.hpp"
#include "tools/common/kv_json.hpp"
#include "tools/scr_inspect/dir_names.hpp"
#include "tools/scr_inspect/redundancy_words.hpp"
#include "tools/scr_inspect/views.hpp"

namespace scr::tools::inspect {
namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out.empty() ? "none" : out;
}

std::string dataset_text(const rt::Filemap& fm, int id) {
  rt::DatasetInfo info = fm.info(id).value_or(rt::DatasetInfo{});
  std::vector<std::string> state;
  switch (fm.state(id)) {
    case rt::CacheState::routed: break;
    case rt::CacheState::complete: state = {"complete"}; break;
    case rt::CacheState::flushing: state = {"complete", "a flush was running"}; break;
    case rt::CacheState::flushed: state = {"complete", "flushed"}; break;
  }
  if (fm.bypass(id)) state.push_back("read in place from the prefix");
  std::string out = "  dataset " + std::to_string(id) + ": " +
                    (info.name.empty() ? "(no descriptor)" : info.name) + " (" +
                    flags_word(info.flags) +
                    (info.ckpt > 0 ? " " + std::to_string(info.ckpt) : "") + "), " +
                    (state.empty() ? std::string("not complete") : joined(state)) + "\n";
  if (std::string store = fm.store(id, ""); !store.empty()) out += "    store: " + store + "\n";
  out += "    files: " + joined(fm.files(id)) + "\n";
  out += "    redundancy files: " + joined(fm.redundancy_files(id)) + "\n";
  for (const auto& f : fm.file_records(id)) {
    if (!f.crc) continue;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", *f.crc);
    out += "    CRC32C of " + f.name + ": " + hex + "\n";
  }
  if (const kv::Tree* reds = fm.member_descs(id))
    for (int64_t w : reds->int_keys())
      out += "    redundancy of rank " + std::to_string(w) + ": " +
             describe_reddesc(*reds->get(std::to_string(w))) + "\n";
  return out;
}

}  // namespace

Report inspect_control(io::Env& env, const std::string& dir) {
  Report r;
  r.text = "Control directory " + dir + "\n";
  r.json.set("kind", "control").set("path", dir);
  Json filemaps = Json::object();
  auto names = env.list_dir(dir);
  if (!names) {
    r.problems.push_back(names.status().message());
    return r;
  }
  std::map<int, std::string> by_rank;  // numeric order: filemap_2 before filemap_10
  for (const auto& name : *names)
    if (int rank = filemap_rank(name); rank >= 0) by_rank[rank] = name;
  for (const auto& [rank, name] : by_rank) {
    std::string path = io::path::join(dir, name);
    auto tree = io::read_tree(env, path);
    if (!tree) {
      r.problems.push_back(tree.status().message());
      continue;
    }
    rt::Filemap fm = rt::Filemap::from_tree(path, rank, *tree);
    auto ids = fm.ids();
    r.text += name + " (rank " + std::to_string(rank) + "): " + std::to_string(ids.size()) +
              " dataset" + (ids.size() == 1 ? "" : "s") + "\n";
    for (int id : ids) r.text += dataset_text(fm, id);
    filemaps.set(std::to_string(rank), tree_to_json(*tree));
  }
  r.json.set("filemaps", std::move(filemaps));
  return r;
}

}  // namespace scr::tools::inspect
