// Which nodes of a failed run are down.
//  - Simulated nodes (README, "Several nodes on one host"): a node is lost when its node-local storage,
//    <SCR_CACHE_BASE>/<node> or <SCR_CNTL_BASE>/<node>, is gone. That only
//    means something when the run got far enough to create storage (SCR_Init
//    ran): if no node of the run has storage, nothing can be told.
//  - Real clusters: `--down-check CMD` is run as `CMD NODE` for every node;
//    a non-zero exit status means down.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "io/env.hpp"

namespace scr::tools::run {

struct Health {
  std::set<std::string> down;
  std::vector<std::string> notes;  // what could not be told, for the log
};

Health find_down_nodes(io::Env& env, const std::vector<std::string>& nodes, bool check_storage,
                       const std::string& cache_base, const std::string& cntl_base,
                       const std::string& down_check);

// Spares the check declares down (storage is not checked: unused spares have none).
std::set<std::string> spares_down(const std::vector<std::string>& spares,
                                  const std::string& down_check);

}  // namespace scr::tools::run
