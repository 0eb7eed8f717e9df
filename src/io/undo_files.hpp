// Taking back files written below a top directory (a prefix) whose work
// failed: a flush, a scavenge that was not recorded, a rebuild in the
// prefix that stopped part way. Left behind, such files would hold the
// space the next flush needs, and an emptied directory such as step.30/
// would pass for a checkpoint.
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

// The directories between `top` (excluded) and each of `dirs` (included)
// that do not exist yet: what making `dirs` would add. Noted before work
// that may make them, they are what taking that work back removes
// (remove_files_and_made_dirs), and all it removes.
std::vector<std::string> missing_dirs(Env& env, const std::string& top, const std::vector<std::string>& dirs);

// Removes `files` (one already missing is no error), then each of
// `made_dirs` (missing_dirs before the work) that is empty, deepest first.
// No other directory: one that was there before stays, even when the
// removed files leave it empty. Best effort, never an error, as above.
void remove_files_and_made_dirs(Env& env, const std::string& top, const std::vector<std::string>& files,
                                const std::vector<std::string>& made_dirs);

}  // namespace scr::io
