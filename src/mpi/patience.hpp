// How a wait for messages starts: spinning for as long as a piece in flight
// takes (a process on its pipeline's path, whose delay delays the others), or
// sleeping at once (a process whose requests complete only when a busier one
// gets to them: spinning would take that one's CPU where processes outnumber
// cores), or never sleeping (MPI's own wait, for a pipeline whose every
// member is on its path, as in an encode: where MPI moves a large message
// without a single copy, it moves only while both ends call into MPI, and a
// member that sleeps holds it up; Open MPI's wait yields the core when it
// knows that processes outnumber cores, as mpirun tells it when it places
// more processes than a node has slots).
#pragma once

namespace scr::mpi {

enum class Patience { spin_first, sleep_first, busy };

}  // namespace scr::mpi
