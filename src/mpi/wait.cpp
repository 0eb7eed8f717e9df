#include "mpi/wait.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace scr::mpi {
namespace {

using Clock = std::chrono::steady_clock;

// A piece in flight is in within a millisecond (1 MiB at 1 GB/s or more), so
// a pipeline's waits spin that long: a sleep costs far more than asked (the
// kernel's timer slack adds 50 us, a loaded node over 100 us), and on a chain
// of members every late wake-up delays all who follow. A longer wait is for a
// member busy with other work (writing rebuilt files, or off its core where
// processes outnumber cores): sleeping then leaves it the CPU. Measured where
// 8 processes share 2 cores (docs/performance.md, "Waiting for a piece"): a
// spin of 50 us made the encodes slower, no sleep at all the rebuilds.
// Patience::sleep_first skips the spin, for waiters off the pipeline's path;
// Patience::busy never sleeps (an encode, where every member is on the path:
// without single-copy transfers a sleeping member stalls the messages it is
// part of: the encodes took 17-36% less time with MPI's own wait where 8
// processes share 2 cores, and as long or less with single copies).
constexpr auto kSpin = std::chrono::milliseconds(1);
constexpr auto kFirstNap = std::chrono::microseconds(10);
constexpr auto kLongestNap = std::chrono::microseconds(100);

bool test_all(std::span<MPI_Request> requests) {
  int done = 0;
  MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
  return done != 0;
}

}  // namespace

void wait_all(std::span<MPI_Request> requests, Patience patience) {
  if (requests.empty() || test_all(requests)) return;
  if (patience == Patience::busy) {
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return;
  }
  auto spin_until = Clock::now() + (patience == Patience::spin_first ? kSpin : Clock::duration{});
  while (Clock::now() < spin_until)
    if (test_all(requests)) return;
  for (auto nap = kFirstNap;; nap = std::min(nap * 2, kLongestNap)) {
    std::this_thread::sleep_for(nap);
    if (test_all(requests)) return;
  }
}

}  // namespace scr::mpi
