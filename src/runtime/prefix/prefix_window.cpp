#include "runtime/prefix/prefix_window.hpp"

#include <algorithm>
#include <set>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {
namespace {

// Prefix-relative names of a dataset's files, from its summary; none when
// it has no summary (its flush never finished), an error when the summary
// cannot be read.
Result<std::set<std::string>> summary_names(io::Env& env, const std::string& prefix, int id) {
  std::set<std::string> out;
  auto summary = Summary::read(env, prefix, id);
  if (!summary) {
    if (summary.status().code() == Errc::not_found) return out;
    return summary.status();
  }
  for (int r = 0; r < summary->writers(); ++r)
    if (auto files = summary_files(summary->rank(r)))
      for (auto& f : *files) out.insert(std::move(f.name));
  return out;
}

// Delete the listed files, but none outside the prefix nor any in `keep`,
// and the directories they leave empty, then the dataset's
// .scr/scr.dataset.<id> directory.
Status delete_listed(io::Env& env, const std::string& prefix, int id, const std::set<std::string>& names,
                     const std::set<std::string>& keep) {
  std::vector<std::string> removed;
  Status st;
  for (const auto& rel : names) {
    std::string p = io::path::join(prefix, rel);
    // Never act on a name that would leave the prefix or reach its .scr, nor
    // on a file that a dataset we keep also names (applications may reuse
    // file names).
    if (!io::path::is_within(prefix, p) || keep.count(rel) || rel == ".scr" || str::starts_with(rel, ".scr/"))
      continue;
    st = io::remove_file(env, p);
    if (!st.ok()) break;
    removed.push_back(std::move(p));
  }
  // The dataset's directories go with its files, as in SCR.
  io::remove_emptied_dirs(env, prefix, removed);
  SCR_TRY(st);
  return io::remove_tree(env, prefix_dataset_dir(prefix, id));
}

}  // namespace

Status delete_prefix_files(io::Env& env, const std::string& prefix, int id, const PrefixIndex* others) {
  // A summary that cannot be read names no files: they stay, unlisted.
  auto names = summary_names(env, prefix, id);
  std::set<std::string> keep;
  if (names && others)
    for (int other : others->ids()) {
      if (other == id) continue;
      auto kept = summary_names(env, prefix, other);
      if (!kept) {
        log::warn("the files of dataset " + std::to_string(id) + " stay in the prefix, unlisted: which of them " +
                  "dataset " + std::to_string(other) + " also names is unknown (" + kept.status().message() + ")");
        names = std::set<std::string>();
        break;
      }
      keep.merge(*kept);
    }
  return delete_listed(env, prefix, id, names ? *names : std::set<std::string>(), keep);
}

void apply_prefix_window(io::Env& env, const std::string& prefix, int keep_n, PrefixIndex& idx,
                         int just_marked) {
  if (keep_n <= 0) return;
  // As in SCR 3.1, the window is the keep_n newest loadable checkpoints,
  // those also marked output among them; of the older ones, a checkpoint
  // marked output stays too.
  std::vector<int> ckpts;
  for (int id : idx.ids())
    if (idx.loadable(id)) ckpts.push_back(id);
  int excess = static_cast<int>(ckpts.size()) - keep_n;
  if (excess <= 0) return;
  // The oldest beyond the window, but never the one just marked: an old
  // dataset a tool saved stays, and costs no newer one its place.
  std::vector<int> doomed;
  for (int id : std::vector<int>(ckpts.begin(), ckpts.begin() + excess))
    if (id != just_marked && !(idx.find(id)->int_or("FLAGS", 0) & kFlagOutput)) doomed.push_back(id);
  // Files a kept dataset also names stay. When a kept dataset's summary
  // cannot be read, which files it names is unknown: nothing is deleted.
  std::set<std::string> kept_files;
  for (int id : idx.ids()) {
    if (std::find(doomed.begin(), doomed.end(), id) != doomed.end()) continue;
    auto names = summary_names(env, prefix, id);
    if (!names) {
      log::warn("SCR_PREFIX_SIZE: no old checkpoint deleted this time: " + names.status().message());
      return;
    }
    kept_files.merge(*names);
  }
  for (int id : doomed) {
    std::string name = idx.find(id)->value_or("NAME", "");
    auto names = summary_names(env, prefix, id);
    Status st = names ? delete_listed(env, prefix, id, *names, kept_files) : names.status();
    if (!st.ok()) {
      log::warn("SCR_PREFIX_SIZE: could not delete old checkpoint " + name + ": " + st.message());
      continue;
    }
    idx.forget(id);
    log::info("SCR_PREFIX_SIZE=" + std::to_string(keep_n) + ": deleted old checkpoint " + name);
  }
}

}  // namespace scr::rt
