// Halting a job: rank 0 reads the halt file (runtime/halt_file.hpp, where its
// keys are described) and broadcasts the verdict; it counts CHECKPOINTS down
// and marks the job FINALIZED.
#pragma once

#include <string>

#include "runtime/context.hpp"
#include "runtime/halt_file.hpp"

namespace scr::rt {

// Collective: rank 0 checks the halt file and the allocation end time.
// Returns the same reason on every process ("" when not halting).
std::string check_halt(Context& ctx);

// Rank 0, after a checkpoint completes: count down CHECKPOINTS.
void count_down_checkpoints(Context& ctx);

// Rank 0 at SCR_Finalize: record that the job finished.
void record_finalized(Context& ctx);
// Rank 0 at SCR_Init: a new run of the job has started; forget an earlier
// FINALIZED mark of the same job id.
void clear_finalized(Context& ctx);

}  // namespace scr::rt
