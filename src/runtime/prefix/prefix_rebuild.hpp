// The verify step for lost ranks: rebuilding them in the prefix from the
// redundancy files copied there, for the routes that do it before marking a
// dataset flushed (the job's salvage at restart and scr_scavenge). No MPI.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "redset/offline.hpp"

namespace scr::rt {

// Rebuild every lost member of the survey's sets into the prefix (application
// files at their names, redundancy files in .scr/scr.dataset.<id>/). Each
// rebuilt file must have the CRC32C its redundancy header recorded before it
// appears: damaged redundancy data never reaches the prefix as a good file.
// Returns each rebuilt rank's summary entry ({FILES, FILELIST, REDFILE}).
Result<std::map<int, kv::Tree>> rebuild_in_prefix(io::Env& env, const redset::offline::Survey& survey,
                                                  const std::string& prefix, int id, size_t piece_size,
                                                  std::function<void(uint64_t)> progress = {});

// Every path rebuild_in_prefix may write for the same arguments
// (redset::offline::rebuild_paths), whether or not it gets there.
std::vector<std::string> paths_rebuilt_in_prefix(const redset::offline::Survey& survey, const std::string& prefix,
                                                 int id);

}  // namespace scr::rt
