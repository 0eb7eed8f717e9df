// A prefix directory: the index as scr_index lists it, then each flushed
// dataset's summary (per rank: files, sizes, CRC32C, redundancy files), and
// dataset directories the index does not list.
#include <cstdio>
#include <set>

#include "common/strings.hpp"
#include "io/files.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"
#include "tools/common/index_view.hpp"
#include "tools/common/kv_json.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/common/summary.hpp"
#include "tools/common/table.hpp"
#include "tools/common/times.hpp"
#include "tools/scr_inspect/views.hpp"

namespace scr::tools::inspect {
namespace {

std::string crc_text(const std::optional<uint32_t>& crc) {
  if (!crc) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", *crc);
  return buf;
}

std::string summary_text(int id, const Summary& s) {
  std::string out =
      "\nDataset " + std::to_string(id) + ": " + s.info.name + " (" + flags_word(s.info.flags) +
      (s.info.ckpt > 0 ? " " + std::to_string(s.info.ckpt) : "") + "), " + std::to_string(s.ranks) +
      " ranks, " + std::to_string(s.file_count()) + " files, " + str::format_bytes(s.bytes());
  if (auto job = s.desc.value("JOBID")) out += ", job " + *job;
  if (int64_t created = s.desc.int_or("CREATED", 0); created > 0)
    out += ", created " + local_time(created / 1000000);
  out += "\n";
  Table t({"RANK", "KIND", "FILE", "SIZE", "CRC32C"});
  t.align_right(0);
  t.align_right(3);
  for (const auto& r : s.per_rank) {
    for (const auto& f : r.files)
      t.add({std::to_string(r.rank), "data", f.name, std::to_string(f.size), crc_text(f.crc)});
    for (const auto& f : r.redundancy)
      t.add(
          {std::to_string(r.rank), "redundancy", f.name, std::to_string(f.size), crc_text(f.crc)});
  }
  std::string table = t.render();
  for (const auto& line : str::split(table, '\n')) out += "  " + line + "\n";
  return out;
}

}  // namespace

Report inspect_prefix(io::Env& env, const std::string& prefix) {
  Report r;
  r.text = "Prefix " + prefix + "\n";
  r.json.set("kind", "prefix").set("path", prefix);
  std::set<int> indexed;
  bool index_readable = true;
  if (!has_index(env, prefix)) {
    r.text += "No index yet (" + rt::prefix_index_path(prefix) + " does not exist).\n";
  } else if (auto idx = open_index(env, prefix); !idx) {
    r.problems.push_back(idx.status().message());
    index_readable = false;
  } else {
    r.text += index_text(prefix, *idx);
    r.json.set("index", index_json(prefix, *idx));
    for (int id : idx->ids()) indexed.insert(id);
  }
  Json summaries = Json::object();
  std::vector<std::string> unindexed;
  for (int id : dataset_dirs(env, prefix)) {
    if (!env.exists(rt::summary_path(prefix, id))) {
      // A flush writes the summary last: without one the flush never finished.
      r.text += "\nDataset " + std::to_string(id) + ": no summary (its flush did not finish)\n";
      continue;
    }
    auto read = rt::Summary::read(env, prefix, id);
    if (!read) {
      r.problems.push_back(read.status().message());
      continue;
    }
    if (Status theirs = scr31_files_readable(env, prefix, id); !theirs.ok())
      r.problems.push_back("dataset " + std::to_string(id) + ": SCR 3.1 could not restart from it: " +
                           theirs.message() + " (scr_index --build " + std::to_string(id) + " writes them again)");
    Summary s = view_summary(*read);
    r.text += summary_text(id, s);
    summaries.set(std::to_string(id), tree_to_json(read->tree()));
    // Which are indexed is unknown when the index cannot be read (and no
    // scr_index change is possible then): none is called unindexed.
    if (index_readable && !indexed.count(id)) unindexed.push_back(s.info.name);
  }
  r.json.set("summaries", std::move(summaries));
  Json not_in_index = Json::array();
  for (const auto& name : unindexed) {
    r.text += "\nNot in the index: " + name + " (scr_index --add " + name + " adopts it)\n";
    not_in_index.push(name);
  }
  r.json.set("not_in_index", std::move(not_in_index));
  return r;
}

}  // namespace scr::tools::inspect
