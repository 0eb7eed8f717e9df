// The exhaustive loss tests' body, over any world communicator: run under
// mpirun, every rank a process (loss_test.cpp), and in one process, every
// rank a thread on in-process communicators (loss_in_process_test.cpp).
// Every rank of `world` calls each function; failures are GoogleTest
// failures of the calling test.
#pragma once

#include "loss_cases.hpp"
#include "mpi/comm.hpp"

namespace scr::redset::test {

// For every set size from 2 to the number of ranks: apply the scheme to
// random files, delete the files of every combination of members up to what
// the scheme tolerates, recover, and compare bytes and metadata with the
// originals; one more loss must be refused with Errc::unrecoverable on every
// rank, with no file changed. PARTNER, whose tolerance depends on where the
// losses fall, is checked against every combination.
void check_every_combination(const mpi::Comm& world, const LossCase& c);

// Pieces of 64 KiB and files of hundreds of KiB: pieces inside one file are
// read in place (memory-mapped) and sent from the mapping, pieces across
// files or into the padding are copied. Each member alone, then the first
// `tolerance` members together.
void check_large_files_streamed(const mpi::Comm& world, const LossCase& c);

}  // namespace scr::redset::test
