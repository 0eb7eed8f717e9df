// Exhaustive loss tests (loss_run.hpp) in one process: 8 ranks as threads
// on in-process communicators (mpi/in_process.hpp), so the redundancy
// schemes' proof runs in the unit tier, without mpirun, with the same sets,
// losses and checks as loss_test.cpp under MPI.
#include <gtest/gtest.h>

#include "loss_cases.hpp"
#include "loss_run.hpp"
#include "mpi/in_process.hpp"

namespace {

using namespace scr;

// As many ranks as loss_test runs with under mpirun.
constexpr int kRanks = 8;

class LossInProcess : public ::testing::TestWithParam<redset::test::LossCase> {};

TEST_P(LossInProcess, EveryCombinationUpToToleranceIsRebuiltAndMoreIsRefused) {
  mpi::InProcess(kRanks).run(
      [&](mpi::Comm& world) { redset::test::check_every_combination(world, GetParam()); });
}

TEST_P(LossInProcess, LargeFilesAreStreamedInPlace) {
  mpi::InProcess(kRanks).run(
      [&](mpi::Comm& world) { redset::test::check_large_files_streamed(world, GetParam()); });
}

INSTANTIATE_TEST_SUITE_P(Schemes, LossInProcess,
                         ::testing::ValuesIn(redset::test::all_loss_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
