#include "io/undo_files.hpp"

#include <set>

#include "io/files.hpp"
#include "io/path.hpp"

namespace scr::io {

void remove_files_and_emptied_dirs(Env& env, const std::string& top, const std::vector<std::string>& files,
                                   const std::vector<std::string>& also_dirs_of) {
  for (const auto& path : files) (void)remove_file(env, path);
  std::vector<std::string> emptied = files;
  emptied.insert(emptied.end(), also_dirs_of.begin(), also_dirs_of.end());
  remove_emptied_dirs(env, top, emptied);
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
