// Taking back files written below a top directory (a prefix) whose work
// failed: a flush or a scavenge that was not recorded. Left behind, such
// files would hold the space the next flush needs, and an emptied
// directory such as step.30/ would pass for a checkpoint.
#pragma once

#include <string>
#include <vector>

#include "io/env.hpp"

namespace scr::io {

// Removes `files` (one already missing is no error), then every directory
// between `top` (kept) and each of them, and each of `also_dirs_of`, that
// this leaves empty (remove_emptied_dirs). `also_dirs_of` are paths whose
// directories the caller made without putting a file there (the planned
// destinations of a copy that stopped). Best effort, never an error: it runs
// after a failure, which is what the caller reports.
void remove_files_and_emptied_dirs(Env& env, const std::string& top, const std::vector<std::string>& files,
                                   const std::vector<std::string>& also_dirs_of = {});

}  // namespace scr::io
