// SCR_PREFIX_SIZE: keep only the newest N checkpoints in the prefix. Older
// checkpoint-only datasets lose their index entries, then their files;
// datasets flagged as output are never deleted by it.
#pragma once

#include <set>
#include <string>

#include "io/env.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::rt {

// With the index loaded and saved, by the one process holding the prefix
// lock (rank 0 of a job, or a tool). `keep_n` is SCR_PREFIX_SIZE. The
// dataset `just_marked` is never deleted, nor does it push a newer one out:
// a job's newest checkpoint is never among the oldest anyway, and a tool
// that saved an old one did so to keep it.
// The order keeps the index from ever listing a checkpoint whose files are
// gone: the old checkpoints leave `idx`, the index is saved, and only then
// are their files deleted. A save that fails deletes nothing and leaves
// `idx` as it was (they stay listed, whole); a file that cannot be deleted
// after it stays in the prefix, unlisted. Either is a warning, not an
// error: the new checkpoint stands, and the next flush tries again on
// whatever old checkpoint the index still lists.
void apply_prefix_window(io::Env& env, const std::string& prefix, int keep_n, PrefixIndex& idx,
                         int just_marked);

// Delete a dataset's files from the prefix as listed in its summary, and its
// .scr/scr.dataset.<id> directory. Missing files are fine; with a summary
// that cannot be read, its files stay (unlisted) and the directory goes.
// A file another dataset of `others` also names stays (applications may
// reuse file names); when one of their summaries cannot be read, no file is
// deleted (a warning says so). `others` null: every dataset goes (a purge).
Status delete_prefix_files(io::Env& env, const std::string& prefix, int id, const PrefixIndex* others);

}  // namespace scr::rt
