// Work that at most `width` processes of a communicator do at once, for
// copies to and from a shared file system that many writers at a time would
// overload (SCR_FLUSH_WIDTH, SCR_FETCH_WIDTH).
//
// Rank r starts once rank r - width has finished (ranks below width start at
// once) and then lets rank r + width start: a chain per residue class, so
// every process waits only for its predecessor and at most `width` work at a
// time. The work must not communicate with other ranks of `comm`.
#pragma once

#include <functional>

#include "common/status.hpp"
#include "mpi/comm.hpp"

namespace scr::mpi {

// Collective over comm. Runs `work` on this process in its turn and returns
// its status; a failed work still passes the turn on, so nobody hangs.
Status in_turns(const Comm& comm, int width, const std::function<Status()>& work);

}  // namespace scr::mpi
