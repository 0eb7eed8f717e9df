// Halting a job: rank 0 reads the halt file (runtime/prefix/halt_file.hpp, where its
// keys are described) and broadcasts the verdict; it counts CHECKPOINTS down
// and marks the job FINALIZED.
#pragma once

#include <string>

#include "runtime/job/job.hpp"
#include "runtime/prefix/halt_file.hpp"

namespace scr::rt {

// Collective: rank 0 checks the halt file and the allocation end time.
// Returns the same reason on every process ("" when not halting).
std::string check_halt(const Job& job);

// Rank 0, after a checkpoint completes: count down CHECKPOINTS.
void count_down_checkpoints(const Job& job);

// Rank 0, when SCR_HALT_EXIT ends the job: record why in EXIT_REASON under
// SCR 3.1's name (halt_exit_reason), as SCR's library does, so that
// `scr_halt -l` shows it and the job stays halted until an operator clears it.
// Nothing is recorded when the file already holds a reason or a finished
// job's mark, or held one when this run started (`finalized_at_start`, what
// clear_finalized returned): SCR keeps the file's reason then.
void record_halt_exit(const Job& job, bool finalized_at_start);

// Rank 0 at SCR_Finalize: record that the job finished.
void record_finalized(const Job& job);
// Rank 0 at SCR_Init: a new run of the job has started; forget an earlier
// FINALIZED mark of the same job id (or SCR 3.1's). True when there was one.
bool clear_finalized(const Job& job);

// Rank 0 at SCR_Init: record how many nodes this run has in
// <prefix>/.scr/nodes.scr (NODES, SCR 3.1's file and key), so that the job
// commands relaunch a failed run on as many nodes when SCR_MIN_NODES is not
// set, and leave the allocation's other nodes as spares.
void record_node_count(const Job& job, int64_t nodes);

}  // namespace scr::rt
