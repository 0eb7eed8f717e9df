#include "tools/scr_scavenge/copy.hpp"

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <string>
#include <vector>

#include "io/files.hpp"
#include "io/path.hpp"
#include "io/undo_files.hpp"
#include "runtime/prefix/flush_copy.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::tools::scavenge {
namespace {

// The job's own flush plan for this rank, from its holding. Each copy is
// checksummed; a file that changed since Complete is found afterwards
// (changed_files), so the rest of the rank's files are still saved.
constexpr const char* kDeferredKey = "DEFERRED";

rt::FlushJob flush_job(const Holding& h, const kv::Tree& desc, const std::string& prefix) {
  rt::FlushJob job = rt::plan_copies(*h.filemap, h.id, h.dir, prefix);
  job.desc = desc;
  for (auto& item : job.items) item.expect_crc = std::nullopt;
  return job;
}

}  // namespace

uint64_t holding_bytes(io::Env& env, const Holding& h) {
  uint64_t n = 0;
  auto names = h.files();
  auto red = h.redundancy_files();
  names.insert(names.end(), red.begin(), red.end());
  for (const auto& name : names)
    if (auto info = env.stat(io::path::join(h.dir, name))) n += info->size;
  return n;
}

// run_copies reports bytes through an atomic counter; it runs beside this
// thread, which turns the counter into progress lines.
Result<kv::Tree> copy_rank(io::Env& env, const Holding& h, const kv::Tree& desc,
                           const std::string& prefix, Progress& progress) {
  rt::FlushJob job = flush_job(h, desc, prefix);
  rt::note_new_dirs(env, prefix, job);
  std::atomic<uint64_t> copied{0};
  job.progress = &copied;
  rt::Deferred deferred;
  std::vector<std::string> finished;  // written in place under new names
  auto work =
      std::async(std::launch::async, [&] { return rt::run_copies(env, job, prefix, deferred, &finished); });
  uint64_t shown = 0;
  auto report = [&] {
    uint64_t now = copied.load();
    progress.add(now - shown);
    shown = now;
  };
  while (work.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) report();
  report();
  auto entry = work.get();
  if (!entry) {
    // The rank is not saved from here (rebuilt, or the dataset not saved):
    // what its copy had finished would only hold the prefix's space. Of the
    // directories, only those it made go: one that was there before stays.
    io::remove_files_and_made_dirs(env, prefix, finished, job.new_dirs);
    return entry;
  }
  // Sent with the entry (from an agent, over the wire) to the scavenge,
  // which alone knows when the whole dataset is there.
  for (const auto& [temp, dst] : deferred.files) {
    auto rel_dst = io::path::relative_to(prefix, dst);
    auto rel_temp = io::path::relative_to(prefix, temp);
    if (!rel_dst || !rel_temp) {
      rt::drop_deferred(env, deferred);
      return Error(Errc::invalid_argument, dst + " is not inside " + prefix);
    }
    entry->child(kDeferredKey).set(*rel_dst, *rel_temp);
  }
  return entry;
}

rt::Deferred take_deferred(const std::string& prefix, int id, std::map<int, kv::Tree>& entries) {
  rt::Deferred held;
  held.prefix = prefix;
  for (auto& [rank, entry] : entries) {
    const kv::Tree* pairs = entry.get(kDeferredKey);
    if (!pairs) continue;
    for (const auto& [dst, unused] : pairs->children()) {
      std::string t = io::path::join(prefix, pairs->value_or(dst, ""));
      // Only a temporary of the name it replaces, inside the prefix.
      if (io::path::dirname(t) == io::path::dirname(io::path::join(prefix, dst)) && io::is_temp_name(t))
        held.files.push_back({t, io::path::join(prefix, dst)});
    }
    held.lists.push_back(rt::deferred_list_path(prefix, id, rank));
    entry.erase(kDeferredKey);
  }
  return held;
}

std::vector<std::string> changed_files(const Holding& h, const kv::Tree& copied) {
  std::vector<std::string> changed;
  std::map<std::string, uint32_t> recorded;
  for (const auto& f : h.filemap->file_records(h.id))
    if (f.crc) recorded[f.name] = *f.crc;
  auto files = rt::summary_files(copied);
  if (!files) return changed;
  for (const auto& f : *files)
    if (auto r = recorded.find(f.name); r != recorded.end() && (!f.crc || *f.crc != r->second))
      changed.push_back(f.name);
  return changed;
}

}  // namespace scr::tools::scavenge
