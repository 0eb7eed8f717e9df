// scr_inspect on a redundancy file written by apply, on metadata files, and
// on damaged ones (run as a separate program: exit status and output).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "harness.hpp"
#include "io/env.hpp"
#include "io/files.hpp"
#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;
namespace fs = std::filesystem;

struct Outcome {
  int status = -1;
  std::string out;  // stdout and stderr
};

Outcome inspect(const std::string& args) {
  Outcome r;
  std::string cmd = std::string(SCR_INSPECT) + " " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int raw = ::pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

class InspectTest : public ::testing::Test {
 protected:
  mpi::Comm world_ = mpi::borrow(MPI_COMM_WORLD);
};

TEST_F(InspectTest, PrintsARedundancyHeaderInTheSeedLayout) {
  redset::test::Scratch scratch(world_);
  std::string node = "node" + std::to_string(world_.rank());
  auto set =
      redset::Set::create(world_, node, redset::Params{redset::Scheme::xor_code, 4, 1, 1, 4096});
  ASSERT_TRUE(set.ok());
  std::string dir = scratch.node_dir(node) + "/ds";
  auto files = redset::test::make_sized_files(dir, "", {3000, 17}, 3);
  ASSERT_TRUE(redset::apply(io::Env::posix(), *set, dir, files).ok());
  if (world_.rank() == 1) {
    std::string red = redset::redundancy_file(*set, dir);
    Outcome r = inspect(red);
    EXPECT_EQ(0, r.status) << r.out;
    for (const char* key :
         {"CHUNK = ", "DESC\n", "  0\n", "  1\n", "GROUP\n", "  RANKS = 4\n", "RANK = 1\n",
          "TYPE = XOR", "f0.dat\n", "SIZE = 3000", "FILES = 2", "# followed by "})
      EXPECT_NE(std::string::npos, r.out.find(key)) << key << " missing from\n" << r.out;

    std::string damaged = dir + "/damaged.redset";
    fs::copy_file(red, damaged);
    {
      std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(40);
      f.put('\x7f');
    }
    r = inspect(damaged);
    EXPECT_EQ(1, r.status) << r.out;
    EXPECT_NE(std::string::npos, r.out.find("damaged.redset")) << r.out;
    EXPECT_NE(std::string::npos, r.out.find("checksum")) << r.out;

    std::string cut = dir + "/cut.redset";
    fs::copy_file(red, cut);
    fs::resize_file(cut, 30);
    r = inspect(red + " " + cut);
    EXPECT_EQ(1, r.status) << r.out;
    EXPECT_NE(std::string::npos, r.out.find("==> " + red + " <==")) << r.out;
    EXPECT_NE(std::string::npos, r.out.find("truncated")) << r.out;
  }
  world_.barrier();
}

TEST_F(InspectTest, PrintsAMetadataFileAndExplainsUsage) {
  if (world_.rank() != 0) return;
  std::string path = fs::temp_directory_path() / ("scr_inspect_test." + std::to_string(::getpid()));
  kv::Tree t;
  t.child("DSET").set_int("ID", 6);
  t.set("NAME", "ckpt.6");
  ASSERT_TRUE(io::write_tree(io::Env::posix(), path, t).ok());
  Outcome r = inspect(path);
  EXPECT_EQ(0, r.status);
  EXPECT_EQ("DSET\n  ID = 6\nNAME = ckpt.6\n", r.out);
  fs::remove(path);

  EXPECT_EQ(0, inspect("--help").status);
  EXPECT_EQ(2, inspect("").status);
  EXPECT_EQ(2, inspect("--bogus").status);
  r = inspect("/nonexistent/file");
  EXPECT_EQ(1, r.status);
  EXPECT_NE(std::string::npos, r.out.find("/nonexistent/file")) << r.out;
}

}  // namespace
