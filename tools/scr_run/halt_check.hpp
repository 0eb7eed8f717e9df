// What the halt file says about relaunching (docs/formats/prefix.md), read
// with the runtime's own rt::read_halt and judged with rt::halt_reason, so
// the runner decides as the job itself would.
#pragma once

#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "runtime/config/settings.hpp"

namespace scr::tools::run {

struct HaltVerdict {
  std::string stop_reason;  // a halt condition holds (rt::halt_reason), or ""
  std::string finalized;    // SCR_Finalize ran in this job (its id), or ""
};

// The job id the runtime uses for this prefix (rt::resolve_job_id) without
// making one up: "" when the job has none yet.
std::string known_job_id(io::Env& env, const rt::Settings& settings);

// Errc::corrupt when the halt file cannot be read.
Result<HaltVerdict> read_verdict(io::Env& env, const rt::Settings& settings);

// FINALIZED left in the halt file by an earlier, finished run of this same
// job id would make a failed run look finished; remove it before the first
// run. Returns the removed id, or "".
Result<std::string> clear_stale_finalized(io::Env& env, const rt::Settings& settings);

}  // namespace scr::tools::run
