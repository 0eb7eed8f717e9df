// The job id a tool works on, found but never made: the resource manager's,
// SCR_JOB_ID, or the one a job recorded in the prefix (rt::resolve_job_id
// through a read-only Env, so a tool never records an id of its own).
#pragma once

#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "runtime/config/settings.hpp"

namespace scr::tools {

// Errc::permission (naming the file it would have written) when no id is
// found.
Result<std::string> existing_job_id(io::Env& env, const rt::Settings& settings);

}  // namespace scr::tools
