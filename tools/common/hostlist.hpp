// Host lists in the range syntax resource managers and SCR's commands use:
// "node[1-3,7],login2" stands for node1, node2, node3, node7, login2.
// Leading zeros are kept ("n[08-10]" is n08, n09, n10).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace scr::tools {

// Expands a list (commas outside brackets separate entries); duplicates are
// dropped, order kept. Errc::invalid_argument names a malformed entry.
Result<std::vector<std::string>> expand_hosts(std::string_view list);

// The reverse: consecutive numbers with the same stem and width are folded
// into ranges, hosts sorted by stem and number ("n[0-2,4],m1").
std::string compress_hosts(const std::vector<std::string>& hosts);

}  // namespace scr::tools
