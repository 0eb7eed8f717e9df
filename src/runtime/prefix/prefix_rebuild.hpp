// The verify step for lost ranks: rebuilding them in the prefix from the
// redundancy files copied there, for the routes that do it before marking a
// dataset flushed (the job's salvage at restart and scr_scavenge) and for
// scr_index --build. No MPI.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/files.hpp"
#include "kvtree/tree.hpp"
#include "redset/offline.hpp"

namespace scr::rt {

struct PrefixRebuildOptions {
  size_t piece_size = io::kDefaultPieceSize;
  // Called as the rebuild goes with the bytes written since the last call.
  std::function<void(uint64_t)> progress;
  // Also asked of each rebuilt application file before it appears, with
  // the CRC32C it was rebuilt with: a record of the caller's own to hold it
  // to (scr_index --build: the summary's).
  std::function<Status(int rank, const redset::FileEntry& file, uint32_t crc)> check;
};

struct RebuiltInPrefix {
  // Each rebuilt rank's summary entry ({FILES, FILELIST, REDFILE}).
  std::map<int, kv::Tree> entries;
  // The files it wrote where no file was before: what a caller takes back
  // when a later step fails (the files it wrote over older ones are not).
  std::vector<std::string> new_files;
  // The directories it made (missing before it wrote): with new_files, all
  // that a caller takes back.
  std::vector<std::string> new_dirs;
};

// Rebuild every lost member of the survey's sets into the prefix (application
// files at their names, redundancy files in .scr/scr.dataset.<id>/). Each
// rebuilt file must have the CRC32C its redundancy header recorded before it
// appears: damaged redundancy data never reaches the prefix as a good file.
// A rebuild that stops part way (no space, a read error, a file that fails
// its check) takes back what it wrote where no file was, the sets it had
// finished included, and the directories it made, then reports why: the
// prefix is as it found it but for files it wrote over (an older file of
// the same name, a damaged copy), whose content was gone either way.
Result<RebuiltInPrefix> rebuild_in_prefix(io::Env& env, const redset::offline::Survey& survey,
                                          const std::string& prefix, int id,
                                          const PrefixRebuildOptions& options = {});

}  // namespace scr::rt
