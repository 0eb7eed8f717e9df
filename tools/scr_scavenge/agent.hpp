// The part of a scavenge that runs on each node of a cluster, where that
// node's cache and control directories are (scr_scavenge --agent MODE, run
// by the scavenge through the site's remote method; not for operators):
//   scan  each filemap of the job's control directory, with, for each
//         dataset it lists, where its files are, whether they are all there,
//         their bytes and the survey facts of its redundancy file;
//   copy  the named ranks' files of one dataset to the prefix (the flush's
//         copy: temporaries, fsync, CRC32C), answering each rank's summary
//         entry or why it failed;
//   mark  FLUSHED in the filemaps that list the dataset.
// Everything comes on the command line (a remote shell carries no
// environment); the answer goes to stdout (wire.hpp).
#pragma once

#include <string>
#include <vector>

namespace scr::tools::scavenge {

// True when the command line asks for the agent (its first word is --agent).
bool is_agent_call(int argc, const char* const* argv);

// Runs it; returns the exit code (0 answered; 1 usage error).
int run_agent(int argc, const char* const* argv);

// The command line that starts `mode` on a node.
struct AgentCall {
  std::string program;  // this scavenge's own executable (same path on every node)
  std::string mode;
  std::string prefix, cntl_base, cache_base, user, job_id;
  bool cache_base_given = false;
  int id = -1;
  std::vector<int> ranks;
};
std::vector<std::string> agent_argv(const AgentCall& call);

}  // namespace scr::tools::scavenge
