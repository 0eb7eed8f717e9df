#include "tools/scr_run/node_plan.hpp"

#include "common/strings.hpp"

namespace scr::tools::run {

NodePlan plan_nodes(const std::vector<std::string>& nodes, const std::vector<std::string>& spares,
                    const std::set<std::string>& down) {
  NodePlan p;
  size_t next_spare = 0;
  // A spare that is itself down is never used.
  auto take_spare = [&]() -> std::string {
    while (next_spare < spares.size() && down.count(spares[next_spare])) ++next_spare;
    return next_spare < spares.size() ? spares[next_spare++] : "";
  };
  for (const auto& n : nodes) {
    if (!down.count(n)) {
      p.nodes.push_back(n);
      continue;
    }
    if (std::string spare = take_spare(); !spare.empty()) {
      p.nodes.push_back(spare);
    } else {
      p.dropped.push_back(n);
    }
  }
  for (size_t i = next_spare; i < spares.size(); ++i)
    if (!down.count(spares[i])) p.spares.push_back(spares[i]);
  return p;
}

std::string join_nodes(const std::vector<std::string>& nodes) {
  std::string out;
  for (const auto& n : nodes) out += (out.empty() ? "" : ",") + n;
  return out;
}

std::vector<std::string> split_nodes(const std::string& list) {
  std::vector<std::string> out;
  for (auto& n : str::split(list, ',')) {
    std::string t = str::trim(n);
    if (!t.empty()) out.push_back(t);
  }
  return out;
}

}  // namespace scr::tools::run
