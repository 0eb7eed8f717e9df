// Diagnostics on stderr, prefixed with "SCR++" and the world rank when known.
#pragma once

#include <string>

namespace scr::log {

// Set once by the runtime after MPI rank and SCR_DEBUG are known.
void set_rank(int rank);
void set_debug_level(int level);
int debug_level();

void error(const std::string& msg);
void warn(const std::string& msg);
// A warning about a configuration that holds for the whole run (a scheme
// falling back on one node, say) would repeat at every checkpoint: this one
// is printed the first time the process meets that exact text only.
void warn_once(const std::string& msg);
void info(const std::string& msg);          // printed by rank 0 only when debug >= 1
void debug(int level, const std::string& msg);  // printed by every rank at that level

}  // namespace scr::log
