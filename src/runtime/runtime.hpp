// The SCR++ runtime: one object per process between SCR_Init and
// SCR_Finalize, holding the Job and the Context and implementing each API call as a
// step of the program flow (docs/design.md#program-flow). Every method except route_file is
// collective over all the job's processes and returns the same status on every
// process. Calls in the wrong phase return Errc::bad_state.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "runtime/config/config.hpp"
#include "runtime/context.hpp"

namespace scr::rt {

class Runtime {
 public:
  // Collective over the processes of `world` (duplicated, so the runtime's
  // messages never meet the caller's): read configuration (rank 0 reads
  // files, everyone gets the same values), set up directories, rebuild the
  // cache, fetch if needed. In-process tests give each rank thread its own
  // communicator (mpi/in_process.hpp). `fs`, when given, is the file
  // system the runtime works through (a test's fault-injecting one); it
  // must outlive the runtime.
  static Result<std::unique_ptr<Runtime>> init(const Config& config, const mpi::Comm& world,
                                               io::Env* fs = nullptr);
  // The same, saying where `comm` sits in the launch (all of it for
  // SCR_Init, a part for SCRPP_Init_comm; see Launch). Above, `world` is
  // taken for the whole launch.
  static Result<std::unique_ptr<Runtime>> init(const Config& config, const mpi::Comm& comm,
                                               const Launch& launch, io::Env* fs = nullptr);
  ~Runtime();

  Status finalize();

  Result<std::string> route_file(const std::string& name);

  Status have_restart(bool* flag, std::string* name);
  Result<std::string> start_restart();
  Status complete_restart(bool valid);
  // Extension API (include/scr/scr_ext.h), inside a restart phase: how many
  // processes wrote the checkpoint, and its files. Local.
  Result<int> restart_ranks() const;
  Result<RestartTable*> restart_listing();
  // A listed (prefix-relative) name as the application gives it to
  // SCR_Route_file: relative to the working directory when it lies below
  // it (relative names start there), else the absolute path.
  std::string routable_name(const std::string& prefix_relative) const;

  Result<bool> need_checkpoint();
  Status start_output(const std::string& name, int flags);
  Status complete_output(bool valid);

  Status set_current(const std::string& name);
  Status drop(const std::string& name);
  Status remove(const std::string& name);

  Result<bool> should_exit();

  Context& context() { return ctx_; }

 private:
  Runtime() = default;
  Status setup(const Config& config, const mpi::Comm& world, const Launch& launch, io::Env* fs);
  Status prepare_restart();
  Status finish_output(bool valid);
  Status complete_cached(const OutputPhase& out, bool valid);
  Status check_not_shared_across_nodes(const OutputPhase& out);  // of the files it routed
  Status after_checkpoint();
  // With SCR_HALT_EXIT=1 and a halt condition met: the job stops here.
  void exit_if_halted(const char* where);
  Status check_start_output(const std::string& name, int flags) const;
  Result<std::string> route_restart_file(const std::string& rel, bool bare);
  Status reject_restart();
  // Fetch the newest loadable checkpoint from the prefix and offer it.
  Status offer_fetched();
  // At SCR_Init: check checkpoint `id`, written to the prefix with cache
  // bypass, where it lies and list it again, or forget it.
  void settle_in_place(int id);
  Result<std::string> prefix_relative(const std::string& name) const;
  int cached_by_name(const std::string& name);
  Status finish_flushes();  // collective: every background flush ended
  Status set_current_now(const std::string& name);  // set_current, flushes finished

  Job job_;  // filled by setup, read-only through ctx_ afterwards
  Context ctx_{job_};
  bool finalized_ = false;
  // The working directory relative to the prefix ("" when they are the
  // same), nullopt when it lies outside or either path is not a normal
  // absolute one: worked out once in setup, for prefix_relative's common case.
  std::optional<std::string> working_dir_in_prefix_;
};

}  // namespace scr::rt
