// SCR's restart routing by file name alone: exact names first, then the one
// file of the checkpoint with that name, whatever its directory, and last
// (read in place) any other file of the prefix.
#include <gtest/gtest.h>

#include <optional>
#include <set>

#include "runtime/transfer/restart_names.hpp"

namespace scr::rt {
namespace {

struct Checkpoint {
  std::set<std::string> names;
  std::set<std::string> other_prefix_files;  // read in place: routable too
  int listed = 0;  // how often the index asked for every name
  BasenameIndex index;
  // `bare`: the application gave a name without a directory (by default,
  // when the working directory is the prefix, that is `rel` itself).
  Result<RestartName> route(const std::string& rel, std::optional<bool> bare = std::nullopt) {
    NameTest elsewhere;
    if (!other_prefix_files.empty()) elsewhere = [&](const std::string& n) { return other_prefix_files.count(n) > 0; };
    auto by_base = [&](const std::string& base) -> Result<std::vector<std::string>> {
      return index.lookup(base, [&] {
        ++listed;
        return std::vector<std::string>(names.begin(), names.end());
      });
    };
    return restart_name(rel, bare.value_or(rel.find('/') == std::string::npos),
                        [&](const std::string& n) { return names.count(n) > 0; }, by_base, elsewhere,
                        "checkpoint ckpt.1");
  }
};

TEST(RestartNames, ExactNamesAndFileNamesAlone) {
  Checkpoint c{{"ckpt.1/rank_0.dat", "ckpt.1/sub/mesh.h5", "top.dat"}};
  EXPECT_EQ(c.route("ckpt.1/rank_0.dat")->name, "ckpt.1/rank_0.dat");
  EXPECT_EQ(c.route("top.dat")->name, "top.dat");
  EXPECT_EQ(c.listed, 0) << "exact names need no index";
  EXPECT_EQ(c.route("rank_0.dat")->name, "ckpt.1/rank_0.dat");
  EXPECT_TRUE(c.route("rank_0.dat")->in_checkpoint);
  EXPECT_EQ(c.route("mesh.h5")->name, "ckpt.1/sub/mesh.h5");
  EXPECT_EQ(c.listed, 1) << "the index is built once";
}

// Run from a directory below the prefix, a bare name reaches the routing with
// that directory in front of it: the exact name wins, then the file name alone.
TEST(RestartNames, ABareNameFromAWorkingDirectoryBelowThePrefix) {
  Checkpoint c{{"ckpt.1/rank_0.dat", "run3/ckpt.2/rank_1.dat", "run3/top.dat"}};
  EXPECT_EQ(c.route("run3/top.dat", true)->name, "run3/top.dat");
  EXPECT_EQ(c.route("run3/rank_0.dat", true)->name, "ckpt.1/rank_0.dat");
  EXPECT_EQ(c.route("run3/rank_1.dat", true)->name, "run3/ckpt.2/rank_1.dat");
  EXPECT_EQ(c.route("run3/rank_0.dat", false).status().code(), Errc::not_found)
      << "a name given with a directory is not looked up by its last component";
}

TEST(RestartNames, MissingWrongDirectoryAndAmbiguousNamesAreErrors) {
  Checkpoint c{{"a/x.dat", "b/x.dat", "a/y.dat"}};
  Result<RestartName> r = c.route("z.dat");
  EXPECT_EQ(r.status().code(), Errc::not_found);
  EXPECT_NE(r.status().message().find("checkpoint ckpt.1"), std::string::npos) << r.status().message();
  // A directory given is a directory meant: no search by file name.
  EXPECT_EQ(c.route("c/y.dat").status().code(), Errc::not_found);
  r = c.route("x.dat");
  EXPECT_EQ(r.status().code(), Errc::invalid_argument);
  EXPECT_NE(r.status().message().find("a/x.dat"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("b/x.dat"), std::string::npos) << r.status().message();
  EXPECT_EQ(c.route("y.dat")->name, "a/y.dat");
}

// Read in place: another prefix file routes to itself, but an old file of the
// same name never stands in for the checkpoint's own.
TEST(RestartNames, OtherPrefixFilesComeLast) {
  Checkpoint c{{"step.10/rank_0.dat"}, {"rank_0.dat", "input.dat"}};
  Result<RestartName> own = c.route("rank_0.dat");
  ASSERT_TRUE(own.ok());
  EXPECT_EQ(own->name, "step.10/rank_0.dat");
  EXPECT_TRUE(own->in_checkpoint);
  Result<RestartName> input = c.route("input.dat");
  ASSERT_TRUE(input.ok());
  EXPECT_EQ(input->name, "input.dat");
  EXPECT_FALSE(input->in_checkpoint);
  EXPECT_EQ(c.route("missing.dat").status().code(), Errc::not_found);
}

}  // namespace
}  // namespace scr::rt
