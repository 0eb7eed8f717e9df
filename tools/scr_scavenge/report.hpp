// What scr_scavenge says: one line per dataset on stdout (saved, not saved
// and why, skipped and why) and what a restart from the prefix loads now;
// or the same as JSON. Problems also go to stderr, as errors and notes.
#pragma once

#include <string>

#include "tools/common/cli.hpp"
#include "tools/scr_scavenge/options.hpp"
#include "tools/scr_scavenge/run.hpp"

namespace scr::tools::scavenge {

void print_report(const Cli& cli, const Options& options, const Report& report);
std::string report_json(const Options& options, const Report& report);

}  // namespace scr::tools::scavenge
