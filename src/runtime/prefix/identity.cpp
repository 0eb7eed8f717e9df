#include "runtime/prefix/identity.hpp"

#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "common/crc32.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::rt {

Result<std::string> node_name(const std::string& sim_nodes, int world_rank, int world_size) {
  if (sim_nodes.empty()) {
    char host[256] = {0};
    if (::gethostname(host, sizeof host - 1) != 0) return std::string("localhost");
    return std::string(host);
  }
  auto names = str::split(sim_nodes, ',');
  for (auto& n : names) n = str::trim(n);
  if (names.empty())
    return Error(Errc::invalid_argument, "SCR_SIM_NODES='" + sim_nodes + "' lists no node names");
  for (const auto& n : names)
    if (!io::path::is_plain_name(n))
      return Error(Errc::invalid_argument, "SCR_SIM_NODES: '" + n + "' is not a valid node name");
  int n = static_cast<int>(names.size());
  if (world_size % n != 0)
    return Error(Errc::invalid_argument,
                 "SCR_SIM_NODES lists " + std::to_string(n) + " nodes but the job has " +
                     std::to_string(world_size) + " ranks, which do not divide evenly among them");
  return names[static_cast<size_t>(world_rank / (world_size / n))];
}

std::string user_name(const Settings& s) {
  if (!s.user_name.empty()) return s.user_name;
  if (passwd* pw = ::getpwuid(::geteuid())) return pw->pw_name;
  if (const char* u = std::getenv("USER")) return u;
  return "uid" + std::to_string(::geteuid());
}

Result<std::string> resolve_job_id(io::Env& env, const Settings& s) {
  for (const char* var : {"SLURM_JOBID", "SLURM_JOB_ID", "LSB_JOBID", "FLUX_JOB_ID", "PBS_JOBID",
                          "COBALT_JOBID"}) {
    if (const char* v = std::getenv(var); v && *v) return std::string(v);
  }
  if (!s.job_id.empty()) return s.job_id;
  // No resource manager: reuse the id recorded for this prefix so a restarted
  // run finds its cache, or make and record one. The .scr directory must be
  // ours only to be written: tools read the id from other users' prefixes.
  std::string file = io::path::join(prefix_scr_dir(s.prefix), "jobid");
  if (auto recorded = io::read_file(env, file, 256); recorded && !str::trim(*recorded).empty())
    return str::trim(*recorded);
  auto now = std::chrono::system_clock::now().time_since_epoch();
  std::mt19937_64 rng(static_cast<uint64_t>(now.count()) ^ static_cast<uint64_t>(::getpid()));
  std::string id = "local" + std::to_string(rng() % 1000000000ull);
  SCR_TRY(make_prefix_scr_dir(env, s.prefix));
  SCR_TRY(io::write_file_atomic(env, file, id + "\n", 0600));
  return id;
}

std::string node_base(const std::string& base, const Identity& id) {
  return id.simulated ? io::path::join(base, id.node) : base;
}

std::string part_tag(const std::string& prefix) {
  char tag[9];
  std::snprintf(tag, sizeof tag, "%08x", crc32(prefix.data(), prefix.size()));
  return tag;
}

std::string job_dir(const std::string& base, const Identity& id) {
  std::string name = "scr." + id.job_id + (id.part.empty() ? "" : "." + id.part);
  return io::path::join(io::path::join(node_base(base, id), id.user), name);
}

}  // namespace scr::rt
