// Exhaustive loss tests, the redundancy layer's main proof of correctness
// (loss_run.hpp), under mpirun: every rank a process, the sets' messages
// over MPI. loss_in_process_test.cpp runs the same on in-process
// communicators.
#include <gtest/gtest.h>

#include "loss_cases.hpp"
#include "loss_run.hpp"
#include "mpi/mpi_comm.hpp"

namespace {

using namespace scr;

class LossTest : public ::testing::TestWithParam<redset::test::LossCase> {
 protected:
  mpi::Comm world_ = mpi::borrow(MPI_COMM_WORLD);
};

TEST_P(LossTest, EveryCombinationUpToToleranceIsRebuiltAndMoreIsRefused) {
  redset::test::check_every_combination(world_, GetParam());
}

TEST_P(LossTest, LargeFilesAreStreamedInPlace) {
  redset::test::check_large_files_streamed(world_, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Schemes, LossTest,
                         ::testing::ValuesIn(redset::test::all_loss_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
