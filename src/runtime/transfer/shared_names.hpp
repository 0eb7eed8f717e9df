// Which routed file names of a dataset were routed by more than one process.
//
// Every process sends its names to a "referee" process chosen by a hash of the
// name, so each name is judged by exactly one process and no process ever
// holds the whole dataset's list. The referee answers each sender, for the
// names it shares with others: the owner (the lowest rank that routed it, the
// one that checksums it) and the nodes the sharers run on.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "mpi/comm.hpp"

namespace scr::rt {

struct SharedName {
  int owner = 0;                    // lowest world rank that routed the name
  std::vector<std::string> nodes;   // distinct nodes of its routers, sorted
};

// Collective over `world`. `names` are this process's routed names (each
// once); the result holds only those also routed by another process.
std::map<std::string, SharedName> survey_shared_names(const mpi::Comm& world,
                                                      const std::string& node,
                                                      const std::vector<std::string>& names);

}  // namespace scr::rt
