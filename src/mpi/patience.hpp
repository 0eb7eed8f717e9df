// How a wait for messages starts: spinning for as long as a piece in flight
// takes (a process on its pipeline's path, whose delay delays the others), or
// sleeping at once (a process whose requests complete only when a busier one
// gets to them: spinning would take that one's CPU where processes outnumber
// cores).
#pragma once

namespace scr::mpi {

enum class Patience { spin_first, sleep_first };

}  // namespace scr::mpi
