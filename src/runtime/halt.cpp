#include "runtime/halt.hpp"

#include <algorithm>

#include "common/clock.hpp"
#include "common/log.hpp"
#include "io/files.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/scr31/shared_format.hpp"

namespace scr::rt {

std::string check_halt(const Job& job) {
  std::string reason;
  if (job.rank() == 0) {
    auto halt = read_halt(job.fs(), job.settings.prefix);
    if (!halt) log::warn("ignoring unreadable halt file: " + halt.status().message());
    reason = halt_reason_now(halt ? *halt : kv::Tree(), job.settings);
  }
  mpi::bcast_string(job.world, reason, 0);
  return reason;
}

void count_down_checkpoints(const Job& job) {
  if (job.rank() != 0) return;
  Status st = update_halt(job.fs(), job.settings.prefix, [](kv::Tree& halt) {
    // Not below 0: SCR 3.1 halts at exactly 0 (CheckpointsLeft in the shared file).
    if (halt.has("CHECKPOINTS")) halt.set_int("CHECKPOINTS", std::max<int64_t>(0, halt.int_or("CHECKPOINTS", 0) - 1));
    return Status::Ok();
  });
  if (!st.ok()) log::warn(st.message());
}

void record_halt_exit(const Job& job, bool finalized_at_start) {
  // SCR's SCR_FINALIZE_CALLED holds the file's reason once any job of the
  // prefix finished, and its halt file keeps the file's reason over a job's:
  // SCR then records no reason, and the next job starts. The same here.
  if (job.rank() != 0 || finalized_at_start) return;
  Status st = update_halt(job.fs(), job.settings.prefix, [&](kv::Tree& halt) {
    if (halt.has("FINALIZED") || !halt.value_or("EXIT_REASON", "").empty()) return Status::Ok();
    std::string key = halt_exit_reason(halt, job.settings.halt_seconds,
                                       allocation_end_time(job.settings), wall_seconds());
    if (!key.empty()) halt.set("EXIT_REASON", key);
    return Status::Ok();
  });
  if (!st.ok()) log::warn(st.message());
}

void record_finalized(const Job& job) {
  if (job.rank() != 0) return;
  Status st = update_halt(job.fs(), job.settings.prefix, [&](kv::Tree& halt) {
    halt.set("FINALIZED", job.id.job_id);
    return Status::Ok();
  });
  if (!st.ok()) log::warn(st.message());
}

bool clear_finalized(const Job& job) {
  if (job.rank() != 0) return false;
  // This job's own mark, or SCR 3.1's (which names no job: its library
  // ignores it at start, and so does SCR++).
  auto ours = [&](const kv::Tree& t) {
    std::string mark = t.value_or("FINALIZED", "");
    return mark == job.id.job_id || mark == scr31::kFinalizeCalled;
  };
  auto halt = read_halt(job.fs(), job.settings.prefix);
  if (!halt || !ours(*halt)) return false;
  Status st = update_halt(job.fs(), job.settings.prefix, [&](kv::Tree& t) {
    if (ours(t)) t.erase("FINALIZED");
    return Status::Ok();
  });
  if (!st.ok()) log::warn(st.message());
  return true;
}

void record_node_count(const Job& job, int64_t nodes) {
  if (job.rank() != 0) return;
  kv::Tree t;
  t.set_int("NODES", nodes);
  Status st = io::write_veloc_tree(job.fs(), prefix_nodes_path(job.settings.prefix), t);
  if (!st.ok()) log::warn("cannot record the run's node count: " + st.message());
}

}  // namespace scr::rt
