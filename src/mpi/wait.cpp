#include "mpi/wait.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace scr::mpi {
namespace {

using Clock = std::chrono::steady_clock;

// Long enough to catch a pipeline's next piece when every process has a core
// of its own; short enough that oversubscribed waiters soon leave the CPU.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr auto kFirstNap = std::chrono::microseconds(10);
constexpr auto kLongestNap = std::chrono::microseconds(200);

bool test_all(std::span<MPI_Request> requests) {
  int done = 0;
  MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
  return done != 0;
}

}  // namespace

void wait_all(std::span<MPI_Request> requests) {
  if (requests.empty() || test_all(requests)) return;
  auto spin_until = Clock::now() + kSpin;
  while (Clock::now() < spin_until)
    if (test_all(requests)) return;
  for (auto nap = kFirstNap;; nap = std::min(nap * 2, kLongestNap)) {
    std::this_thread::sleep_for(nap);
    if (test_all(requests)) return;
  }
}

}  // namespace scr::mpi
