// Halt conditions in words for --list, and as JSON for scripts (scr_halt
// --list --json). "Would a job stop now" is answered by the runtime's own
// rt::halt_reason, so the tool and the library cannot disagree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/json.hpp"
#include "kvtree/tree.hpp"

namespace scr::tools::halt {

// One sentence per condition, each ending with its key in brackets.
std::vector<std::string> describe(const kv::Tree& halt, int64_t now);

// Why a job reading this file at `now` would stop, or "" (ignoring the
// job's own SCR_HALT_SECONDS and allocation end, which only it knows).
std::string stop_reason(const kv::Tree& halt, int64_t now);

// The listing: a heading naming the file, the sentences, the verdict.
std::string conditions_text(const std::string& file, bool exists, const kv::Tree& halt,
                            int64_t now);
Json conditions_json(const std::string& file, bool exists, const kv::Tree& halt, int64_t now);

}  // namespace scr::tools::halt
