// Running one command on many nodes at once, through whatever the site uses
// to reach its compute nodes: srun (one task on that node, beside any step
// already running there), mpirun (one process there), pdsh, ssh, or an
// rsh-like agent given as its command words (run as `WORDS NODE LINE`, as
// Open MPI's plm_rsh_agent is). Each node's run is bounded by a timeout
// (0: none); a run that cannot even start is told apart from one that ran
// and failed, so a broken method is not mistaken for every node down.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace scr::tools {

// What running the command on one node gave.
struct NodeRun {
  bool started = false;  // false: the remote method itself could not be executed
  bool timed_out = false;
  int exit_code = 0;
  std::string output;  // stdout (pdsh prefixes each line with "NODE: ")
  std::string error;   // why it could not start
};

// The words that run `argv` on `node` through `method`. Methods that hand a
// command line to the node's shell (pdsh, ssh, agents) get `argv` quoted.
std::vector<std::string> remote_argv(const std::string& method, const std::string& node,
                                     const std::vector<std::string>& argv,
                                     int connect_timeout_seconds);

// `argv` as one POSIX shell line, each word quoted.
std::string shell_line(const std::vector<std::string>& argv);

// Runs `argv_for(node)` (already the full local command) for every node at
// once, at most `fanout` at a time, each bounded by `timeout_seconds` (0: no
// bound); a run over time is killed with its process group.
std::map<std::string, NodeRun> run_each(const std::vector<std::string>& nodes,
                                        const std::function<std::vector<std::string>(
                                            const std::string& node)>& argv_for,
                                        int timeout_seconds, size_t fanout = 64);

// This host's name up to its first dot, as resource managers list nodes.
std::string short_host_name();

// This process's own executable (/proc/self/exe), "" when unknown.
std::string own_executable();

// `program` found in a directory of $PATH, as execvp would: its path, or "".
std::string find_on_path(const std::string& program);

// The lines a node printed, without the "NODE: " prefix pdsh puts on them.
std::vector<std::string> node_lines(const std::string& output, const std::string& node);

}  // namespace scr::tools
