#include "io/undo_files.hpp"

#include <unistd.h>

#include <set>

#include "io/files.hpp"
#include "io/path.hpp"

namespace scr::io {

Status StagedFiles::stage(const std::string& path, const std::string& bytes) {
  SCR_TRY(write_temp_file(env_, path, bytes));
  files_.push_back({path, {}, false});
  return Status::Ok();
}

Status StagedFiles::put_in_place() {
  for (File& f : files_) {
    if (f.placed) continue;
    if (env_.exists(f.path)) {
      std::string aside = f.path + ".old." + std::to_string(::getpid());
      SCR_TRY(env_.rename(f.path, aside));
      f.aside = std::move(aside);
    }
    SCR_TRY(env_.rename(temp_name(f.path), f.path));
    f.placed = true;
  }
  // Durable before anything names them.
  return sync_dirs();
}

void StagedFiles::keep() {
  for (const File& f : files_) {
    if (!f.placed) (void)remove_file(env_, temp_name(f.path));
    if (!f.aside.empty()) (void)remove_file(env_, f.aside);
  }
  files_.clear();
}

void StagedFiles::take_back() {
  for (const File& f : files_) {
    if (!f.placed) (void)remove_file(env_, temp_name(f.path));
    // Over the new file in one step: the name is never empty meanwhile.
    if (!f.aside.empty()) (void)env_.rename(f.aside, f.path);
    else if (f.placed) (void)remove_file(env_, f.path);
  }
  (void)sync_dirs();
  files_.clear();
}

void StagedFiles::leave() { files_.clear(); }

Status StagedFiles::sync_dirs() {
  std::set<std::string> dirs;
  for (const File& f : files_) dirs.insert(path::dirname(f.path));
  Status first;
  for (const auto& dir : dirs)
    if (Status st = env_.sync_dir(dir); !st.ok() && first.ok()) first = st;
  return first;
}

std::vector<std::string> missing_dirs(Env& env, const std::string& top, const std::vector<std::string>& dirs) {
  const std::string base = path::normalize(top);
  std::set<std::string> seen, missing;
  for (const auto& dir : dirs)
    for (std::string d = path::normalize(dir); d != base && path::is_within(base, d); d = path::dirname(d)) {
      if (!seen.insert(d).second) break;  // and its parents, looked at already
      // Only one that is certainly absent: a directory that cannot be looked
      // at (EACCES) may well be someone's.
      auto info = env.stat(d);
      if (info || info.status().code() != Errc::not_found) break;
      missing.insert(d);
    }
  return {missing.begin(), missing.end()};
}

void remove_files_and_made_dirs(Env& env, const std::string& top, const std::vector<std::string>& files,
                                const std::vector<std::string>& made_dirs) {
  for (const auto& path : files) (void)remove_file(env, path);
  remove_dirs_if_empty(env, top, made_dirs);
}

}  // namespace scr::io
