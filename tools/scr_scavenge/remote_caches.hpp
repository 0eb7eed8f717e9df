// The caches of a cluster's hosts, each seen only by its own host: a
// scavenge runs itself on each host of the job as an agent (agent.hpp)
// through the site's remote method (tools/common/remote.hpp), at once on
// every host, as SCR's scavenge runs its copy command through pdsh.
//   scan   one run per host: its filemaps, what is in its cache, and the
//          survey facts of each redundancy file; a host that is excluded,
//          reported down by the resource manager, or does not answer in
//          time is noted, and its ranks count as lost;
//   copy   one run per host holding ranks to copy, each copying its own
//          ranks' files straight to the prefix (bytes cross the network once);
//   mark   FLUSHED in the filemaps of the hosts that hold the dataset.
// Everything else (the plan, the survey, the rebuild of lost ranks in the
// prefix, the checks and the index) happens here, as for local caches.
#pragma once

#include <memory>

#include "tools/scr_scavenge/caches.hpp"

namespace scr::tools::scavenge {

// `program`: the scavenge executable to run on each host (this one's path,
// which a cluster's shared installation gives every host).
std::unique_ptr<Caches> remote_caches(io::Env& env, const Options& o, std::string program);

// This process's own executable, as a path other hosts can run.
std::string own_program();

}  // namespace scr::tools::scavenge
