#include "io/undo_files.hpp"

#include "io/files.hpp"

namespace scr::io {

void remove_files_and_emptied_dirs(Env& env, const std::string& top, const std::vector<std::string>& files,
                                   const std::vector<std::string>& also_dirs_of) {
  for (const auto& path : files) (void)remove_file(env, path);
  std::vector<std::string> emptied = files;
  emptied.insert(emptied.end(), also_dirs_of.begin(), also_dirs_of.end());
  remove_emptied_dirs(env, top, emptied);
}

}  // namespace scr::io
