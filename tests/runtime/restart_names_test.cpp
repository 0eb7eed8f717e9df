// SCR's restart routing by file name alone: exact names first, then the one
// file of the checkpoint with that name, whatever its directory.
#include <gtest/gtest.h>

#include <set>

#include "runtime/restart_names.hpp"

namespace scr::rt {
namespace {

struct Checkpoint {
  std::set<std::string> names;
  int listed = 0;  // how often the index asked for every name
  BasenameIndex index;
  Result<std::string> route(const std::string& rel) {
    return restart_name(
        rel, [&](const std::string& n) { return names.count(n) > 0; }, index,
        [&] {
          ++listed;
          return std::vector<std::string>(names.begin(), names.end());
        },
        "checkpoint ckpt.1");
  }
};

TEST(RestartNames, ExactNamesAndFileNamesAlone) {
  Checkpoint c{{"ckpt.1/rank_0.dat", "ckpt.1/sub/mesh.h5", "top.dat"}};
  EXPECT_EQ(*c.route("ckpt.1/rank_0.dat"), "ckpt.1/rank_0.dat");
  EXPECT_EQ(*c.route("top.dat"), "top.dat");
  EXPECT_EQ(c.listed, 0) << "exact names need no index";
  EXPECT_EQ(*c.route("rank_0.dat"), "ckpt.1/rank_0.dat");
  EXPECT_EQ(*c.route("mesh.h5"), "ckpt.1/sub/mesh.h5");
  EXPECT_EQ(c.listed, 1) << "the index is built once";
}

TEST(RestartNames, MissingWrongDirectoryAndAmbiguousNamesAreErrors) {
  Checkpoint c{{"a/x.dat", "b/x.dat", "a/y.dat"}};
  Result<std::string> r = c.route("z.dat");
  EXPECT_EQ(r.status().code(), Errc::not_found);
  EXPECT_NE(r.status().message().find("checkpoint ckpt.1"), std::string::npos) << r.status().message();
  // A directory given is a directory meant: no search by file name.
  EXPECT_EQ(c.route("c/y.dat").status().code(), Errc::not_found);
  r = c.route("x.dat");
  EXPECT_EQ(r.status().code(), Errc::invalid_argument);
  EXPECT_NE(r.status().message().find("a/x.dat"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("b/x.dat"), std::string::npos) << r.status().message();
  EXPECT_EQ(*c.route("y.dat"), "a/y.dat");
}

}  // namespace
}  // namespace scr::rt
