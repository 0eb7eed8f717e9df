#include "runtime/prefix/deferred.hpp"

#include <optional>
#include <set>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::rt {

std::string deferred_list_path(const std::string& prefix, int id, int rank) {
  return io::path::join(prefix_scr_dir(prefix),
                        kDeferredListPrefix + std::to_string(id) + "." + std::to_string(rank));
}

void Deferred::absorb(Deferred&& other) {
  if (prefix.empty()) prefix = other.prefix;
  lists.insert(lists.end(), other.lists.begin(), other.lists.end());
  files.insert(files.end(), other.files.begin(), other.files.end());
  other.lists.clear();
  other.files.clear();
}

Status note_deferred(io::Env& env, Deferred& d, const std::string& list_path, const std::string& temp) {
  SCR_ASSIGN_OR_RETURN(std::string rel, io::path::relative_to(d.prefix, temp));
  // Appended whole (O_APPEND), one line per temporary: a kill leaves the
  // lines written so far.
  SCR_ASSIGN_OR_RETURN(auto file, env.open(list_path, io::OpenMode::append, 0600));
  if (d.lists.empty() || d.lists.back() != list_path) d.lists.push_back(list_path);
  std::string line = rel + "\n";
  Status st = file->pwrite(line.data(), line.size(), 0);
  Status closed = file->close();
  return st.ok() ? closed : st;
}

Status replace_deferred(io::Env& env, Deferred& d) {
  std::set<std::string> dirs;
  size_t done = 0;
  Status st;
  for (; done < d.files.size() && st.ok(); ++done) {
    const auto& [temp, dst] = d.files[done];
    st = env.rename(temp, dst);
    if (st.ok()) dirs.insert(io::path::dirname(dst));
  }
  if (!st.ok()) --done;  // the one that failed is still a temporary
  d.files.erase(d.files.begin(), d.files.begin() + static_cast<std::ptrdiff_t>(done));
  // The new names must be durable before the summary and index name them.
  for (const auto& dir : dirs)
    if (Status synced = env.sync_dir(dir); st.ok()) st = synced;
  SCR_TRY(st);
  for (const auto& list : d.lists) SCR_TRY(io::remove_file(env, list));
  d.lists.clear();
  return Status::Ok();
}

bool drop_deferred(io::Env& env, Deferred& d) {
  bool all_gone = true;
  for (const auto& f : d.files) all_gone = io::remove_file(env, f.temp).ok() && all_gone;
  d.files.clear();
  // A temporary that would not go stays listed, swept at the next SCR_Init.
  if (all_gone)
    for (const auto& list : d.lists) (void)io::remove_file(env, list);
  d.lists.clear();
  return all_gone;
}

bool sweep_deferred(io::Env& env, const std::string& prefix, const std::string& name,
                    const std::function<bool(int id)>& recorded) {
  if (!str::starts_with(name, kDeferredListPrefix)) return false;
  // scrpp.deferred.<id>.<rank>
  std::string rest = name.substr(std::string(kDeferredListPrefix).size());
  auto id = str::parse_int(rest.substr(0, rest.find('.')));
  bool forward = id && recorded(static_cast<int>(*id));
  // The list's temporaries, settled as a running flush settles its own.
  Deferred d;
  d.prefix = prefix;
  d.lists.push_back(io::path::join(prefix_scr_dir(prefix), name));
  auto text = io::read_file(env, d.lists.front());
  if (text.ok())
    for (const auto& rel : str::split(*text, '\n')) {
      if (rel.empty()) continue;
      std::string temp = io::path::join(prefix, rel);
      // Only a temporary inside the prefix, outside its .scr, is ours: judged
      // on the normal form, whatever spelling (./, a/../, absolute) the list has.
      auto inside = io::path::relative_to(prefix, temp);
      if (!io::is_temp_name(temp) || !inside || str::starts_with(*inside, ".scr/")) continue;
      // Gone when rolled forward: renamed before the job died.
      if (!forward || env.exists(temp)) d.files.push_back({temp, io::temp_target(temp)});
    }
  // A list not wholly dealt with stays, to be tried again.
  bool done = text.ok() && (forward ? replace_deferred(env, d).ok() : drop_deferred(env, d));
  if (!done)
    log::warn(name + " in " + prefix_scr_dir(prefix) + ": the copies a killed flush held back could not all be " +
              (forward ? "put in place" : "removed") + "; the next SCR_Init tries again");
  return true;
}

RecordVerdict verdict_of_record(io::Env& env, const std::string& prefix, int id) {
  auto index = PrefixIndex::load(env, prefix);
  if (!index) return RecordVerdict::unknown;
  return index->flushed(id) ? RecordVerdict::recorded : RecordVerdict::not_recorded;
}

void sweep_deferred_lists(io::Env& env, const std::string& prefix) {
  auto names = env.list_dir(prefix_scr_dir(prefix));
  if (!names) return;
  std::optional<Result<PrefixIndex>> index;  // read only if a list is there
  auto recorded = [&](int id) {
    if (!index) index = PrefixIndex::load(env, prefix);
    return index->ok() && (*index)->flushed(id);
  };
  for (const auto& n : *names) (void)sweep_deferred(env, prefix, n, recorded);
}

}  // namespace scr::rt
