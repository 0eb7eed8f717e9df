// A restart at another job size from a prefix that takes no writes (full,
// read-only): the checkpoint there is whole, so the job restarts from it,
// each node keeping the restart file table in its own cache instead of the
// prefix. 4 in-process ranks write and flush a checkpoint; every node is
// lost; a job of 2 restarts from the prefix and reads every old rank's file.
#include <gtest/gtest.h>

#include <string>

#include "io/files.hpp"
#include "mpi/in_process.hpp"
#include "sim_job.hpp"

namespace {

using namespace scr;

constexpr size_t kStack = 1 << 20;
constexpr int kWriters = 4;

// Every write below the prefix fails with `err`; reads go through.
class RefusingPrefix : public io::EnvWrapper {
 public:
  RefusingPrefix(std::string prefix, Errc err) : EnvWrapper(io::Env::posix()), prefix_(std::move(prefix)), err_(err) {}
  Result<std::unique_ptr<io::File>> open(const std::string& path, io::OpenMode mode, uint32_t perms) override {
    if (mode != io::OpenMode::read && path.starts_with(prefix_ + "/"))
      return Error(err_, "open " + path + ": refused (injected fault)");
    return EnvWrapper::open(path, mode, perms);
  }

 private:
  std::string prefix_;
  Errc err_;
};

void write_flushed(rt::testing::SimDir& dir) {
  dir.settings["SCR_FLUSH"] = "1";
  mpi::InProcess(kWriters, kStack).run([&](mpi::Comm& world) {
    auto rt = rt::Runtime::init(rt::testing::config_from(dir.settings, dir.prefix), world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_TRUE(rt::testing::write_checkpoint(**rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE((*rt)->finalize().ok());
  });
  for (const char* node : {"n0", "n1", "n2", "n3"}) dir.lose(node);
}

// A job of 2 on n0 and n1 whose prefix refuses every write with `err`: it
// restarts from ckpt.1 and every old rank's file reads back as written.
void restart_at_two(rt::testing::SimDir& dir, Errc err) {
  dir.settings["SCR_SIM_NODES"] = "n0,n1";
  RefusingPrefix refusing[2] = {{dir.prefix, err}, {dir.prefix, err}};
  auto read_all = [](rt::Runtime& rt, int) {
    bool same = true;
    for (int old = 0; old < kWriters; ++old) {
      auto path = rt.route_file(rt::testing::file_name("ckpt.1", old));
      auto bytes = path.ok() ? io::read_file(io::Env::posix(), *path, 1 << 20) : Result<std::string>(path.status());
      EXPECT_TRUE(bytes.ok()) << bytes.status().to_string();
      same = same && bytes.ok() && *bytes == rt::testing::file_bytes("ckpt.1", old);
    }
    return same;
  };
  // (What SCR_Finalize returns does not matter: the prefix takes no record
  // of the restart.)
  (void)rt::testing::restart_offered(dir.settings, dir.prefix, 2, "ckpt.1", read_all,
                                     [&](int rank) { return &refusing[rank]; });
}

TEST(RescaleRefusedPrefix, AFullPrefixStillRestartsAtAnotherSize) {
  rt::testing::SimDir dir("scr_rescale_full");
  write_flushed(dir);
  restart_at_two(dir, Errc::no_space);
}

TEST(RescaleRefusedPrefix, APrefixThisUserCannotWriteStillRestartsAtAnotherSize) {
  rt::testing::SimDir dir("scr_rescale_ro");
  write_flushed(dir);
  restart_at_two(dir, Errc::permission);
}

}  // namespace
