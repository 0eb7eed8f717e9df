#include "runtime/prefix/prefix_window.hpp"

#include <algorithm>
#include <map>
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

// As in SCR 3.1, the window is the keep_n newest loadable checkpoints,
// those also marked output among them; of the older ones, a checkpoint
// marked output stays too. The one just marked stays as well: an old
// dataset a tool saved stays, and costs no newer one its place.
std::vector<int> beyond_window(const PrefixIndex& idx, int keep_n, int just_marked) {
  std::vector<int> ckpts;
  for (int id : idx.ids())
    if (idx.loadable(id)) ckpts.push_back(id);
  std::vector<int> doomed;
  int excess = static_cast<int>(ckpts.size()) - keep_n;
  for (int i = 0; i < excess; ++i)
    if (ckpts[i] != just_marked && !(idx.find(ckpts[i])->int_or("FLAGS", 0) & kFlagOutput))
      doomed.push_back(ckpts[i]);
  return doomed;
}

// Every file the datasets of the index other than `doomed` name, which
// stay; an error when one of their summaries cannot be read, since which
// files it names is then unknown.
Result<std::set<std::string>> kept_names(io::Env& env, const std::string& prefix, const PrefixIndex& idx,
                                         const std::vector<int>& doomed) {
  std::set<std::string> kept;
  for (int id : idx.ids()) {
    if (std::ranges::find(doomed, id) != doomed.end()) continue;
    SCR_ASSIGN_OR_RETURN(auto names, summary_names(env, prefix, id));
    kept.merge(names);
  }
  return kept;
}

// The file names of each of `doomed` whose summary can be read, read once
// for the deletion to come. One whose summary cannot be read stays listed:
// forgotten, its files would stay behind unlisted.
std::map<int, std::set<std::string>> known_files(io::Env& env, const std::string& prefix, const PrefixIndex& idx,
                                                 const std::vector<int>& doomed) {
  std::map<int, std::set<std::string>> out;
  for (int id : doomed) {
    auto names = summary_names(env, prefix, id);
    if (!names) {
      log::warn("SCR_PREFIX_SIZE: old checkpoint " + idx.find(id)->value_or("NAME", "") +
                " stays listed, its files unknown: " + names.status().message());
      continue;
    }
    out.emplace(id, std::move(names).value());
  }
  return out;
}

// `idx` without the datasets `ids`, saved. Until the save succeeds `idx`
// stays as the index on disk is, listing them.
Status forget_and_save(io::Env& env, PrefixIndex& idx, const std::vector<int>& ids) {
  PrefixIndex trimmed = idx;
  for (int id : ids) trimmed.forget(id);
  SCR_TRY(trimmed.save(env));
  idx = std::move(trimmed);
  return Status::Ok();
}

// The files of a dataset the saved index no longer lists, but those the
// kept datasets also name. What cannot go stays in the prefix, unlisted:
// harmless, where a listed checkpoint without its files is not.
void delete_unlisted(io::Env& env, const std::string& prefix, int id, const std::string& name,
                     const std::set<std::string>& names, const std::set<std::string>& kept, int keep_n) {
  if (Status st = delete_listed(env, prefix, id, names, kept); !st.ok()) {
    log::warn("SCR_PREFIX_SIZE: old checkpoint " + name + " is no longer listed, but its files stay in the prefix: " +
              st.message());
    return;
  }
  log::info("SCR_PREFIX_SIZE=" + std::to_string(keep_n) + ": deleted old checkpoint " + name);
}

}  // namespace

void apply_prefix_window(io::Env& env, const std::string& prefix, int keep_n, PrefixIndex& idx,
                         int just_marked) {
  if (keep_n <= 0) return;
  std::vector<int> doomed = beyond_window(idx, keep_n, just_marked);
  if (doomed.empty()) return;
  // Files a kept dataset also names stay. When a kept dataset's summary
  // cannot be read, which files it names is unknown: nothing is deleted.
  auto kept = kept_names(env, prefix, idx, doomed);
  if (!kept) {
    log::warn("SCR_PREFIX_SIZE: no old checkpoint deleted this time: " + kept.status().message());
    return;
  }
  std::map<int, std::set<std::string>> files = known_files(env, prefix, idx, doomed);
  if (files.empty()) return;
  std::vector<int> forgotten;
  std::vector<std::string> names;
  for (const auto& [id, _] : files) {
    forgotten.push_back(id);
    names.push_back(idx.find(id)->value_or("NAME", ""));
  }
  // The index first: a restart must never fall back to a listed checkpoint
  // whose files are gone. While the save fails the checkpoints stay listed
  // and whole.
  if (Status st = forget_and_save(env, idx, forgotten); !st.ok()) {
    log::warn("SCR_PREFIX_SIZE: no old checkpoint deleted this time: the index could not be saved: " +
              st.message());
    return;
  }
  for (size_t i = 0; i < forgotten.size(); ++i)
    delete_unlisted(env, prefix, forgotten[i], names[i], files[forgotten[i]], *kept, keep_n);
}

Status delete_prefix_files(io::Env& env, const std::string& prefix, int id, const PrefixIndex* others) {
  // A summary that cannot be read names no files: they stay, unlisted.
  auto names = summary_names(env, prefix, id);
  std::set<std::string> keep;
  if (names && others) {
    auto kept = kept_names(env, prefix, *others, {id});
    if (!kept) {
      log::warn("the files of dataset " + std::to_string(id) + " stay in the prefix, unlisted: which of them " +
                "the other datasets also name is unknown (" + kept.status().message() + ")");
      names = std::set<std::string>();
    } else {
      keep = std::move(kept).value();
    }
  }
  return delete_listed(env, prefix, id, names ? *names : std::set<std::string>(), keep);
}

}  // namespace scr::rt
