// The POSIX side of Env::lock: flock(2) on a lock file, for PosixEnv.
#pragma once

#include <memory>
#include <string>

#include "io/env.hpp"

namespace scr::io {

Result<std::unique_ptr<HeldLock>> flock_file(const std::string& path, bool wait, const std::string& holder);

}  // namespace scr::io
