// Copying one rank's cached files to the prefix with the runtime's own flush
// copy (rt::run_copies: temporaries, fsync, CRC32C), so what scavenge writes
// is what a flush would have written, including the rank's summary entry
// {FILE/<name>/{SIZE, CRC}, REDFILE/<name>/SIZE}.
#pragma once

#include <map>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "runtime/prefix/deferred.hpp"
#include "tools/common/progress.hpp"
#include "tools/scr_scavenge/node_caches.hpp"

namespace scr::tools::scavenge {

// Bytes of the files a holding lists that are in its cache directory.
uint64_t holding_bytes(io::Env& env, const Holding& h);

// Copies the holding's application files to their names in the prefix and
// its redundancy files to .scr/scr.dataset.<id>/; returns the summary entry.
// A name an older dataset's file holds is not replaced: the entry's
// DEFERRED/<name> names the temporary the scavenge puts in place once the
// whole dataset is in the prefix (take_deferred).
Result<kv::Tree> copy_rank(io::Env& env, const Holding& h, const kv::Tree& desc,
                           const std::string& prefix, Progress& progress);

// The DEFERRED entries of every rank's entry, taken out of them (they are no
// part of a summary): the replacements to make before the dataset is
// recorded (rt::replace_deferred), or to drop.
rt::Deferred take_deferred(const std::string& prefix, int id, std::map<int, kv::Tree>& entries);

// Files whose CRC32C as copied differs from the one the filemap recorded at
// SCR_Complete_output: their cached copy changed since.
std::vector<std::string> changed_files(const Holding& h, const kv::Tree& copied);

}  // namespace scr::tools::scavenge
