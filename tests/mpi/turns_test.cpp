// mpi::in_turns (mpi/turns.hpp): at most `width` ranks work at once, every
// rank works exactly once, and a failing rank neither hangs the others nor
// hides its error. Runs in-process (ranks as threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "mpi/comm.hpp"
#include "mpi/in_process.hpp"
#include "mpi/turns.hpp"

namespace {

using scr::Errc;
using scr::Status;
namespace mpi = scr::mpi;

// Counts how many ranks work at once. A worker stays until `expect` have
// been seen at once (or 5 s passed), so the overlap that is allowed is seen
// however slowly a loaded machine starts the threads: a fixed sleep alone
// left a turn's second rank arriving after its first had gone, about once
// in 30 runs under load.
struct Concurrency {
  explicit Concurrency(int expect) : expect(expect) {}
  const int expect;
  std::atomic<int> now{0};
  std::atomic<int> peak{0};
  std::atomic<int> runs{0};
  Status work() {
    int n = ++now;
    int seen = peak.load();
    while (n > seen && !peak.compare_exchange_weak(seen, n)) {
    }
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (peak.load() < expect && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // overlap with more, if allowed
    --now;
    ++runs;
    return Status::Ok();
  }
};

TEST(InTurns, AtMostWidthRanksWorkAtOnce) {
  for (int width : {1, 2, 3}) {
    Concurrency c(width);
    mpi::InProcess(6).run([&](mpi::Comm& world) {
      EXPECT_TRUE(mpi::in_turns(world, width, [&] { return c.work(); }).ok());
    });
    EXPECT_EQ(c.runs.load(), 6) << "width " << width;
    EXPECT_LE(c.peak.load(), width) << "width " << width;
    EXPECT_EQ(c.peak.load(), width) << "width " << width << ": turns were more serial than asked";
  }
}

TEST(InTurns, AWidthOfAllRanksRunsEveryoneAtOnce) {
  Concurrency c(4);
  mpi::InProcess(4).run([&](mpi::Comm& world) {
    EXPECT_TRUE(mpi::in_turns(world, 256, [&] { return c.work(); }).ok());
  });
  EXPECT_EQ(c.peak.load(), 4);
}

TEST(InTurns, AFailureIsReturnedAndTheTurnStillPasses) {
  std::atomic<int> runs{0};
  std::vector<Errc> codes(5, Errc::ok);
  mpi::InProcess(5).run([&](mpi::Comm& world) {
    Status st = mpi::in_turns(world, 1, [&] {
      ++runs;
      return world.rank() == 1 ? Status(Errc::no_space, "full") : Status::Ok();
    });
    codes[static_cast<size_t>(world.rank())] = st.code();
  });
  EXPECT_EQ(runs.load(), 5);
  EXPECT_EQ(codes, (std::vector<Errc>{Errc::ok, Errc::no_space, Errc::ok, Errc::ok, Errc::ok}));
}

}  // namespace
