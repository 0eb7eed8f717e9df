#include "tools/scr_run/scavenge_hook.hpp"

#include <unistd.h>

#include <cstdlib>

#include "common/strings.hpp"
#include "io/path.hpp"
#include "tools/common/remote.hpp"
#include "tools/scr_run/launch.hpp"

namespace scr::tools::run {
namespace {

bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

std::string own_dir() {
  std::string self = own_executable();
  return self.empty() ? "" : io::path::dirname(self);
}

}  // namespace

std::string find_sibling(const std::string& name) {
  if (std::string dir = own_dir(); !dir.empty() && executable(io::path::join(dir, name)))
    return io::path::join(dir, name);
  return find_on_path(name);
}

std::string run_scavenge(const std::string& program, const std::string& prefix) {
  Outcome o = run_program({program, "--prefix", prefix});
  if (o.ok()) return "scavenge finished";
  // scr_scavenge's exit code for "nothing to do" (docs/tools.md).
  if (o.started && o.exit_code == 2) return "nothing to scavenge: every cached dataset was flushed";
  return "scavenge failed (" + o.describe() + ")";
}

}  // namespace scr::tools::run
