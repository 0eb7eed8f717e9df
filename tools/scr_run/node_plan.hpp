// Which nodes the next run uses: every node found down is replaced, at its
// own position, by the next spare (so the ranks of the other nodes keep
// their node and their cached files); without a spare left it is dropped.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace scr::tools::run {

struct NodePlan {
  std::vector<std::string> nodes;    // for the next run, in rank-block order
  std::vector<std::string> spares;   // still unused
  std::vector<std::string> dropped;  // down nodes no spare replaced
};

NodePlan plan_nodes(const std::vector<std::string>& nodes, const std::vector<std::string>& spares,
                    const std::set<std::string>& down);

// "n0,n1,n4" and back.
std::string join_nodes(const std::vector<std::string>& nodes);
std::vector<std::string> split_nodes(const std::string& list);

}  // namespace scr::tools::run
