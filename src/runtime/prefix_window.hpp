// SCR_PREFIX_SIZE: keep only the newest N checkpoints in the prefix. Older
// checkpoint-only datasets lose their files and index entries; datasets
// flagged as output are never deleted by it.
#pragma once

#include <set>
#include <string>

#include "runtime/context.hpp"
#include "runtime/prefix_index.hpp"

namespace scr::rt {

// Rank 0 only, with the index loaded; the caller saves the index.
void apply_prefix_window(Context& ctx, PrefixIndex& idx);

// Delete a dataset's files from the prefix as listed in its summary, and its
// .scr/scr.dataset.<id> directory, except files named in `keep`. Missing
// files are fine.
Status delete_prefix_files(io::Env& env, const std::string& prefix, int id,
                           const std::set<std::string>& keep = {});

}  // namespace scr::rt
