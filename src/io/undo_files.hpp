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

// New content for a few small files (a dataset's summary and file maps) as
// one change that can be taken back whole, also once every file is in
// place, until what the files serve (an index that names them) is saved.
// Each file is first written to a temporary beside its name, and none takes
// its name until every one is written: a full file system fails the change
// before anything is replaced. Then each takes its name, a file that held
// the name moving aside (<name>.old.<pid>) rather than being overwritten.
// keep() then removes the files moved aside; take_back() removes the new
// ones and puts the older ones back, so a file that was there before the
// change is never lost to it; leave() does neither (whether the change
// counts is unknown). Dropped undecided, the change is taken back. Renames
// and removals need no space: taking back works on a full file system.
class StagedFiles {
 public:
  explicit StagedFiles(Env& env) : env_(env) {}
  ~StagedFiles() { take_back(); }
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;

  // `bytes` written and synced beside `path`, not yet in its place.
  Status stage(const std::string& path, const std::string& bytes);
  // Every staged file at its name, their directories synced. On an error
  // some may be in place already: take_back() or keep() decides.
  Status put_in_place();
  void keep();
  void take_back();
  void leave();

 private:
  struct File {
    std::string path, aside;  // aside: where an older file of the name went
    bool placed = false;
  };
  Status sync_dirs();
  Env& env_;
  std::vector<File> files_;
};

// The directories between `top` (excluded) and each of `dirs` (included)
// that do not exist yet: what making `dirs` would add. Noted before work
// that may make them, they are what taking that work back removes
// (remove_files_and_made_dirs), and all it removes.
std::vector<std::string> missing_dirs(Env& env, const std::string& top, const std::vector<std::string>& dirs);

// Removes `files` (one already missing is no error), then each of
// `made_dirs` (missing_dirs before the work) that is empty, deepest first.
// No other directory: one that was there before stays, even when the
// removed files leave it empty. Best effort, never an error: it runs after
// a failure, which is what the caller reports.
void remove_files_and_made_dirs(Env& env, const std::string& top, const std::vector<std::string>& files,
                                const std::vector<std::string>& made_dirs);

}  // namespace scr::io
