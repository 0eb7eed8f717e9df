#include "redset/wait.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace scr::redset {
namespace {

constexpr int kSpins = 64;
constexpr auto kFirstNap = std::chrono::microseconds(5);
constexpr auto kLongestNap = std::chrono::microseconds(200);

}  // namespace

void wait_all(std::span<MPI_Request> requests) {
  if (requests.empty()) return;
  int done = 0;
  for (int i = 0; i < kSpins; ++i) {
    MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
    if (done) return;
  }
  auto nap = kFirstNap;
  for (;;) {
    std::this_thread::sleep_for(nap);
    MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
    if (done) return;
    nap = std::min(nap * 2, kLongestNap);
  }
}

}  // namespace scr::redset
