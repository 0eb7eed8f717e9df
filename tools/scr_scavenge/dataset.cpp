#include "tools/scr_scavenge/dataset.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "io/files.hpp"
#include "io/path.hpp"
#include "io/undo_files.hpp"
#include "redset/offline.hpp"
#include "runtime/prefix/deferred.hpp"
#include "runtime/prefix/flush_protocol.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/prefix_rebuild.hpp"
#include "runtime/prefix/summary.hpp"
#include "tools/common/progress.hpp"
#include "tools/scr_scavenge/caches.hpp"
#include "tools/scr_scavenge/copy.hpp"
#include "tools/scr_scavenge/records.hpp"

namespace scr::tools::scavenge {
namespace {

namespace offline = redset::offline;

// The redundancy files copied to the prefix, by rank.
std::map<int, offline::Place> prefix_places(const std::string& prefix, int id,
                                            const std::map<int, kv::Tree>& copied) {
  std::map<int, offline::Place> places;
  std::string dir = rt::prefix_dataset_dir(prefix, id);
  for (const auto& [rank, tree] : copied)
    if (const kv::Tree* red = tree.get("REDFILE"); red && red->size() == 1)
      places[rank] = {prefix, io::path::join(dir, red->children().begin()->first)};
  return places;
}

// Step 1: the survey must find every rank's files intact or rebuildable, in
// a job of the size the filemaps record, and no file named inside .scr.
Result<offline::Survey> survey_caches(const Options& o, const CachedDataset& ds,
                                      const std::map<int, redset::MemberFacts>& facts) {
  if (ds.world_ranks <= 0)
    return Error(Errc::corrupt, "no filemap records how many ranks wrote it");
  offline::Survey survey = offline::survey_facts(facts);
  SCR_TRY(survey.verdict());
  if (survey.world_ranks != ds.world_ranks)
    return Error(Errc::corrupt,
                 "its redundancy files belong to a job of " + std::to_string(survey.world_ranks) +
                     " ranks, its filemaps to one of " + std::to_string(ds.world_ranks));
  for (int r = 0; r < survey.world_ranks; ++r) {
    SCR_ASSIGN_OR_RETURN(auto files, survey.files(r));
    for (const auto& f : files)
      if (io::path::is_within(rt::prefix_scr_dir(o.prefix), io::path::join(o.prefix, f.name)))
        return Error(Errc::corrupt, "rank " + std::to_string(r) + " names " + f.name +
                                        ", inside the prefix's .scr directory");
  }
  return survey;
}

std::set<int> lost_ranks(const offline::Survey& survey) {
  std::set<int> lost;
  for (const auto& l : survey.lost()) lost.insert(l.world_rank);
  return lost;
}

uint64_t bytes_of(const std::vector<redset::FileEntry>& files) {
  uint64_t n = 0;
  for (const auto& f : files) n += f.meta.size;
  return n;
}

// Step 3: intact ranks' files to the prefix. A rank whose copy fails the
// CRC32C recorded at Complete becomes a suspect, rebuilt; so does a rank a
// host could not copy. When copying stopped (this host's copy failed, or a
// host's for want of space in the prefix), the ranks copied are in `copied`
// all the same, with the error.
Status copy_intact(Caches& caches, const CachedDataset& ds, const std::vector<int>& intact,
                   Progress& progress, std::map<int, kv::Tree>* copied, std::set<int>* suspects,
                   Saved* saved) {
  SCR_ASSIGN_OR_RETURN(Copied done, caches.copy(ds, intact, progress));
  for (const auto& note : done.notes) saved->notes.push_back(note + "; rebuilding it");
  for (auto& [rank, entry] : done.entries) {
    for (const auto& name : changed_files(caches.best(ds, rank), entry)) {
      saved->notes.push_back(name +
                             " changed in cache since it was written (CRC32C); rebuilding it");
      suspects->insert(rank);
    }
    (*copied)[rank] = std::move(entry);
  }
  return done.stopped;
}

// Step 4: the lost ranks rebuilt in the prefix, each with its summary entry.
// A rebuild that stops part way takes back what it wrote itself; the files
// it wrote where none was are returned, for a later step's failure to take
// back.
Result<std::vector<std::string>> rebuild_lost(io::Env& env, const Options& o, int id,
                                              const offline::Survey& survey, Progress& progress,
                                              std::map<int, kv::Tree>* copied, Saved* saved) {
  rt::PrefixRebuildOptions options;
  options.progress = [&progress](uint64_t n) { progress.add(n); };
  SCR_ASSIGN_OR_RETURN(rt::RebuiltInPrefix rebuilt, rt::rebuild_in_prefix(env, survey, o.prefix, id, options));
  for (auto& [rank, entry] : rebuilt.entries) {
    (*copied)[rank] = std::move(entry);
    saved->rebuilt.push_back(rank);
  }
  return std::move(rebuilt.new_files);
}

// Replacements of older files of the same names, held back until the whole
// dataset is in the prefix; removed if the scavenge stops before that.
struct HeldBack {
  io::Env& env;
  rt::Deferred files;
  std::map<std::string, std::string> temp_of;  // destination -> temporary
  ~HeldBack() { rt::drop_deferred(env, files); }
  void add(rt::Deferred&& more) {
    for (const auto& f : more.files) temp_of[f.dst] = f.temp;
    files.absorb(std::move(more));
  }
  // Every held-back copy put in place: the older files are replaced.
  Status replace() {
    temp_of.clear();
    return rt::replace_deferred(env, files);
  }
  // Where the bytes copied for `path` are now.
  std::string where(const std::string& path) const {
    auto it = temp_of.find(path);
    return it == temp_of.end() ? path : it->second;
  }
};

// The copies this scavenge wrote under new names (a name an older file
// held went to a temporary instead, HeldBack), and the files its rebuild of
// lost ranks wrote under new names, removed with the directories made for
// the dataset when they are empty, unless the dataset is recorded: left
// behind, a failed scavenge's files (a full prefix) would hold the space
// the next flush needs. A name a copy reports outside the prefix is never
// touched, nor a directory that was there before. (A rebuild that stops
// part way takes back its own files; these are for a later step failing.)
struct PlacedCopies {
  io::Env& env;
  std::string prefix;
  std::vector<std::string> paths;
  std::vector<std::string> new_dirs;
  bool keep = false;
  ~PlacedCopies() {
    if (!keep) io::remove_files_and_made_dirs(env, prefix, paths, new_dirs);
  }
  // Before anything is copied: the directories of the dataset's files and
  // of its redundancy files, and those above them, that do not exist yet
  // (a rank's copy that finished no file still made them).
  void note_new_dirs(int id, const offline::Survey& survey) {
    std::set<std::string> dirs{rt::prefix_dataset_dir(prefix, id)};
    for (int r = 0; r < survey.world_ranks; ++r)
      if (auto files = survey.files(r))
        for (const auto& f : *files)
          if (io::path::is_normal(f.name)) dirs.insert(io::path::dirname(io::path::join(prefix, f.name)));
    new_dirs = io::missing_dirs(env, prefix, {dirs.begin(), dirs.end()});
  }
  void add(const std::string& path, const HeldBack& held) {
    if (io::path::is_within(prefix, path) && held.where(path) == path) paths.push_back(path);
  }
  // The application and redundancy files of every copied rank.
  void add_copied(int id, const std::map<int, kv::Tree>& entries, const HeldBack& held) {
    std::string meta_dir = rt::prefix_dataset_dir(prefix, id);
    for (const auto& [rank, entry] : entries) {
      if (auto files = rt::summary_files(entry))
        for (const auto& f : *files)
          if (io::path::is_normal(f.name)) add(io::path::join(prefix, f.name), held);
      if (const kv::Tree* red = entry.get("REDFILE"))
        for (const auto& [name, meta] : red->children())
          if (io::path::basename(name) == name) add(io::path::join(meta_dir, name), held);
    }
  }
  // The files the rebuild wrote where none was (rt::RebuiltInPrefix): a
  // name a file held already stays, an older dataset's file or a copy
  // listed above.
  void add_rebuilt(const std::vector<std::string>& new_files, const HeldBack& held) {
    for (const auto& path : new_files) add(path, held);
  }
};

// A record that reported a failure is settled as the index says
// (rt::verdict_of_record). Not recorded: the copies go with `held` and
// `new_copies`.
void settle_failed_record(io::Env& env, const std::string& prefix, int id, HeldBack& held,
                          PlacedCopies& new_copies) {
  rt::RecordVerdict verdict = rt::verdict_of_record(env, prefix, id);
  if (verdict == rt::RecordVerdict::not_recorded) return;
  // Recorded: the index names their bytes. What cannot be renamed, or an
  // index that cannot be read, stays listed for the next SCR_Init.
  new_copies.keep = true;
  if (verdict == rt::RecordVerdict::recorded) (void)held.replace();
  held.files.keep_listed();
}

// Step 5: every rank's files, as its redundancy header lists them, are in
// the prefix at their size (or in the temporary that replaces an older file
// of their name), each with a CRC32C; every redundancy file too.
Status check_all_there(io::Env& env, const Options& o, int id, const offline::Survey& survey,
                       const std::map<int, kv::Tree>& entries, const HeldBack& held, Saved* saved) {
  for (int r = 0; r < survey.world_ranks; ++r) {
    auto entry = entries.find(r);
    SCR_ASSIGN_OR_RETURN(auto files, survey.files(r));
    if (entry == entries.end() && !files.empty())
      return Error(Errc::corrupt, "the files of rank " + std::to_string(r) + " are missing");
    std::map<std::string, kv::FileRecord> listed;
    if (entry != entries.end()) {
      SCR_ASSIGN_OR_RETURN(auto copied, rt::summary_files(entry->second));
      for (auto& f : copied) listed.emplace(f.name, std::move(f));
    }
    for (const auto& f : files) {
      auto e = listed.find(f.name);
      auto info = env.stat(held.where(io::path::join(o.prefix, f.name)));
      if (e == listed.end() || !e->second.crc || e->second.size != f.meta.size || !info ||
          info->size != f.meta.size)
        return Error(Errc::corrupt,
                     f.name + " of rank " + std::to_string(r) +
                         " is not in the prefix as its redundancy header records it");
    }
    if (listed.size() != files.size())
      return Error(Errc::corrupt,
                   "rank " + std::to_string(r) + " has files its header does not list");
    const kv::Tree* red = entry == entries.end() ? nullptr : entry->second.get("REDFILE");
    if (!red || red->empty())
      return Error(Errc::corrupt,
                   "the redundancy file of rank " + std::to_string(r) + " is missing");
    for (const auto& [name, meta] : red->children())
      if (!env.exists(held.where(io::path::join(rt::prefix_dataset_dir(o.prefix, id), name))))
        return Error(Errc::corrupt, "redundancy file " + name + " is missing");
    saved->files += files.size();
    saved->bytes += bytes_of(files);
  }
  saved->ranks = survey.world_ranks;
  return Status::Ok();
}

// As the job would have marked it had it flushed the dataset: the CURRENT
// rule and its SCR_PREFIX_SIZE window.
rt::MarkPolicy mark_policy(const Options& o) {
  rt::MarkPolicy policy;
  policy.prefix_size = o.prefix_size;
  return policy;
}

uint64_t work_bytes(Caches& caches, const CachedDataset& ds, const offline::Survey& survey,
                    const std::vector<int>& intact) {
  uint64_t n = survey.rebuild_bytes();
  for (int rank : intact) n += caches.bytes(caches.best(ds, rank));
  return n;
}

// The ranks to copy: those with a redundancy file that the survey did not
// find lost.
std::vector<int> intact_ranks(const std::map<int, redset::MemberFacts>& facts,
                              const offline::Survey& survey) {
  std::set<int> lost = lost_ranks(survey);
  std::vector<int> intact;
  for (const auto& [rank, f] : facts)
    if (!lost.count(rank)) intact.push_back(rank);
  return intact;
}

}  // namespace

Status save_dataset(io::Env& env, const Options& o, Caches& caches, const CachedDataset& ds,
                    Saved& saved) {
  std::map<int, redset::MemberFacts> facts = caches.facts(ds);
  SCR_ASSIGN_OR_RETURN(offline::Survey in_cache, survey_caches(o, ds, facts));
  std::vector<int> intact = intact_ranks(facts, in_cache);
  SCR_TRY(rt::edit_prefix_index(env, o.prefix, [&](rt::PrefixIndex& idx) {
    rt::mark_flush_begun(idx, ds.desc);
    return Status::Ok();
  }));

  Progress progress("scavenging " + ds.info.name, work_bytes(caches, ds, in_cache, intact));
  std::map<int, kv::Tree> entries;  // summary entry of each rank
  std::set<int> suspects;
  HeldBack held{env, {}, {}};
  PlacedCopies new_copies{env, o.prefix, {}, {}};  // destroyed before `held`
  new_copies.note_new_dirs(ds.id, in_cache);
  Status copied = copy_intact(caches, ds, intact, progress, &entries, &suspects, &saved);
  held.add(take_deferred(o.prefix, ds.id, entries));
  new_copies.add_copied(ds.id, entries, held);
  SCR_TRY(copied);
  // A rebuild of lost ranks reads the copies at their names: held-back
  // copies take them first, so that the checkpoint being scavenged comes
  // before the older one whose names it reuses (should the rebuild then
  // fail, that one has lost those files, as before copies were held back).
  if (entries.size() < static_cast<size_t>(ds.world_ranks) || !suspects.empty()) SCR_TRY(held.replace());
  offline::Survey in_prefix =
      offline::survey(env, prefix_places(o.prefix, ds.id, entries), suspects);
  SCR_TRY(in_prefix.verdict());
  SCR_ASSIGN_OR_RETURN(auto rebuilt, rebuild_lost(env, o, ds.id, in_prefix, progress, &entries, &saved));
  new_copies.add_rebuilt(rebuilt, held);
  progress.finish();
  std::sort(saved.rebuilt.begin(), saved.rebuilt.end());

  SCR_TRY(check_all_there(env, o, ds.id, in_prefix, entries, held, &saved));
  auto recorded = rt::record_flushed(env, o.prefix, ds.desc, ds.world_ranks, entries,
                                     static_cast<int64_t>(saved.bytes), mark_policy(o));
  if (!recorded.ok()) {
    settle_failed_record(env, o.prefix, ds.id, held, new_copies);
    return recorded.status();
  }
  saved.current = *recorded;
  new_copies.keep = true;
  // Whole and recorded: only now are older files of its names replaced. What
  // cannot be stays listed, and the next SCR_Init finishes it.
  Status placed = held.replace();
  held.files.keep_listed();  // recorded: what is left is never removed
  if (!placed.ok())
    saved.notes.push_back("some files could not yet replace the older files of their names (" + placed.message() +
                          "); the next job's SCR_Init finishes that");
  for (const auto& failed : caches.mark_flushed(ds))
    saved.notes.push_back("could not mark the cached copy flushed in " + failed);
  return Status::Ok();
}

}  // namespace scr::tools::scavenge
