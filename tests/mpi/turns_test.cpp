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

struct Concurrency {
  std::atomic<int> now{0};
  std::atomic<int> peak{0};
  std::atomic<int> runs{0};
  Status work() {
    int n = ++now;
    int seen = peak.load();
    while (n > seen && !peak.compare_exchange_weak(seen, n)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // overlap if allowed
    --now;
    ++runs;
    return Status::Ok();
  }
};

TEST(InTurns, AtMostWidthRanksWorkAtOnce) {
  for (int width : {1, 2, 3}) {
    Concurrency c;
    mpi::InProcess(6).run([&](mpi::Comm& world) {
      EXPECT_TRUE(mpi::in_turns(world, width, [&] { return c.work(); }).ok());
    });
    EXPECT_EQ(c.runs.load(), 6) << "width " << width;
    EXPECT_LE(c.peak.load(), width) << "width " << width;
    EXPECT_EQ(c.peak.load(), width) << "width " << width << ": turns were more serial than asked";
  }
}

TEST(InTurns, AWidthOfAllRanksRunsEveryoneAtOnce) {
  Concurrency c;
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
