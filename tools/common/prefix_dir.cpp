#include "tools/common/prefix_dir.hpp"

#include <unistd.h>

#include <cstdlib>

#include "io/path.hpp"
#include "runtime/prefix/flush_protocol.hpp"

namespace scr::tools {

std::string default_prefix() {
  if (const char* p = std::getenv("SCR_PREFIX"); p && *p) return absolute_path(p);
  return absolute_path(".");
}

std::string absolute_path(const std::string& given) {
  char buf[4096];
  std::string cwd = ::getcwd(buf, sizeof buf) ? buf : "/";
  return io::path::absolute(given, cwd);
}

Status check_dir(io::Env& env, const std::string& dir) {
  auto info = env.stat(dir);
  if (!info) return Error(Errc::not_found, dir + " does not exist");
  if (!info->is_dir()) return Error(Errc::not_found, dir + " is not a directory");
  return Status::Ok();
}

bool has_index(io::Env& env, const std::string& prefix) { return env.exists(rt::prefix_index_path(prefix)); }

Result<rt::PrefixIndex> open_index(io::Env& env, const std::string& prefix) {
  SCR_TRY(check_dir(env, prefix));
  if (!has_index(env, prefix))
    return Error(Errc::not_found, prefix + " is not an SCR prefix: " + rt::prefix_index_path(prefix) +
                                      " does not exist (no dataset was ever flushed there)");
  auto idx = rt::PrefixIndex::load(env, prefix);
  // The message names the file; a decoder complaint of any kind means the
  // index is damaged, while I/O and permission errors keep their own code.
  if (!idx &&
      (idx.status().code() == Errc::invalid_argument || idx.status().code() == Errc::corrupt))
    return Error(Errc::corrupt,
                 idx.status().message() + " (the index is damaged; it was left as it is)");
  return idx;
}

Result<std::string> set_aside_damaged_index(io::Env& env, const std::string& prefix) {
  std::string why;
  SCR_ASSIGN_OR_RETURN(std::string aside, rt::set_aside_unreadable_index(env, prefix, &why));
  if (aside.empty()) return std::string();
  return why + "; set aside as " + aside + " and a new index started. Datasets listed only in the old " +
         "index can be added back with scr_index --build ID --prefix " + prefix;
}

Result<rt::PrefixIndex> open_index_to_add(io::Env& env, const std::string& prefix) {
  auto idx = open_index(env, prefix);
  if (!idx && idx.status().code() == Errc::corrupt) return rt::PrefixIndex::replacing_unreadable(prefix);
  return idx;
}

Result<std::optional<io::FileLock>> lock_prefix(io::Env& env, const std::string& prefix) {
  auto lock = rt::lock_prefix_index(env, prefix);
  if (!lock && lock.status().code() == Errc::bad_state)
    return Error(Errc::bad_state, "a job is using " + prefix + ": " + lock.status().message() +
                                      "; change the index after it ends");
  return lock;
}

}  // namespace scr::tools
