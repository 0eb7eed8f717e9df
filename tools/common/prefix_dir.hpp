// Finding and opening a prefix directory the way every tool does: a prefix
// is a directory holding .scr/index.scr. Opening never creates anything, so
// a mistyped path leaves no trace.
#pragma once

#include <optional>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/file_lock.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::tools {

// $SCR_PREFIX when set, else the current directory (as the library does).
std::string default_prefix();
// Absolute, normalized form of a path given on the command line.
std::string absolute_path(const std::string& given);

// The directory exists (Errc::not_found naming it otherwise).
Status check_dir(io::Env& env, const std::string& dir);
bool has_index(io::Env& env, const std::string& prefix);

// rt::lock_prefix_index, for a tool that changes the index: the lock a
// running job holds on its prefix, taken without waiting; Errc::bad_state
// naming the job that holds it. (A file system without flock gives no lock
// and no error.)
Result<std::optional<io::FileLock>> lock_prefix(io::Env& env, const std::string& prefix);

// check_dir, then the index must exist (not_found: "... is not an SCR
// prefix") and decode (corrupt, naming the file).
Result<rt::PrefixIndex> open_index(io::Env& env, const std::string& prefix);

// For a tool about to save datasets into the prefix (under its lock): an
// index no one can read is set aside first, as SCR_Init does
// (rt::set_aside_unreadable_index), so the save is not stopped by it. The
// note to print when it was, else "".
Result<std::string> set_aside_damaged_index(io::Env& env, const std::string& prefix);

// open_index for a command that adds to the index: a damaged one reads as
// empty, and is set aside (set_aside_damaged_index) only when the change
// is saved (tools/scr_index/index_edit.hpp): a refused request leaves it.
Result<rt::PrefixIndex> open_index_to_add(io::Env& env, const std::string& prefix);

}  // namespace scr::tools
