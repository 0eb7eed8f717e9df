// What trying one dataset concluded (a rebuild at Init, a fetch, a salvage),
// as a value every process agrees on, rather than an error code each caller
// reads its own way.
#pragma once

#include "common/status.hpp"
#include "mpi/comm.hpp"

namespace scr::rt {

enum class Verdict {
  usable,    // ready: restart from it
  kept,      // left as it was: what failed says nothing about its data (a later
             // run, or scr_scavenge, may still use it)
  unusable,  // its data is damaged, or lost beyond what its redundancy rebuilds
};

struct Outcome {
  Verdict verdict = Verdict::usable;
  Status why;  // the failure, when not usable
};

// The storage failed (full, or an I/O error): nothing is known about the data.
bool storage_failed(const Status& st);

// Collective over `world`: usable when `local` is ok everywhere; kept when
// some process failed in a way `spares_data` accepts (by default a storage
// failure); unusable otherwise.
Outcome agree_outcome(const mpi::Comm& world, const Status& local,
                      bool (*spares_data)(const Status&) = storage_failed);

}  // namespace scr::rt
