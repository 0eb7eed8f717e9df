// Waiting for messages without taking the CPU for long from the processes that
// produce them. MPI_Wait spins; with more processes than cores (simulated
// nodes, tests, busy nodes) the spinning waiters compete with the workers they
// wait for. These waits spin for as long as a piece in flight takes, then
// sleep in growing steps.
#pragma once

#include <mpi.h>

#include <span>

#include "mpi/patience.hpp"

namespace scr::mpi {

void wait_all(std::span<MPI_Request> requests, Patience patience = Patience::spin_first);
inline void wait_one(MPI_Request& request) { wait_all(std::span(&request, 1)); }

}  // namespace scr::mpi
