// Rank 0's merge of the processes' file lists: each name is first once, in
// the order met, through the table's growth, and however the hashes collide.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/prefix/names_seen.hpp"

namespace scr::rt {
namespace {

struct Named {
  std::string name;
};

template <class Hash = std::hash<std::string_view>>
std::vector<Named> merge(const std::vector<std::string>& met) {
  std::vector<Named> kept;
  NamesSeen<Named, Hash> seen(kept);
  for (const auto& n : met)
    if (seen.first(n)) kept.push_back({n});
  return kept;
}

std::vector<std::string> names_of(const std::vector<Named>& v) {
  std::vector<std::string> out;
  for (const auto& n : v) out.push_back(n.name);
  return out;
}

TEST(NamesSeen, EachNameOnceInTheOrderMet) {
  EXPECT_EQ(names_of(merge({"b", "a", "b", "c", "a", "a"})), (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_TRUE(merge({}).empty());
}

TEST(NamesSeen, ThroughGrowth) {
  // Four processes listing 10,000 files each, every tenth shared by all.
  std::vector<std::string> met, want;
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 10000; ++i) {
      std::string n = i % 10 == 0 ? "shared/f" + std::to_string(i) : "r" + std::to_string(r) + "/f" + std::to_string(i);
      met.push_back(n);
      if (r == 0 || i % 10 != 0) want.push_back(n);
    }
  EXPECT_EQ(names_of(merge(met)), want);
}

struct Collide {
  size_t operator()(std::string_view) const { return 42; }
};

TEST(NamesSeen, EqualHashesAreToldApartByName) {
  std::vector<std::string> met;
  for (int i = 0; i < 300; ++i) met.push_back("f" + std::to_string(i % 100));
  auto kept = merge<Collide>(met);
  ASSERT_EQ(kept.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(kept[static_cast<size_t>(i)].name, "f" + std::to_string(i));
}

}  // namespace
}  // namespace scr::rt
