#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kvtree/codec.hpp"
#include "kvtree/tree.hpp"

using scr::kv::Tree;

TEST(Tree, KeyValueHelpers) {
  Tree t;
  t.set("NAME", "ckpt.1");
  t.set_int("ID", 7);
  EXPECT_EQ(t.value("NAME"), "ckpt.1");
  EXPECT_EQ(*t.get_int("ID"), 7);
  t.set_int("ID", 8);  // replaces
  EXPECT_EQ(*t.get_int("ID"), 8);
  EXPECT_FALSE(t.get_int("MISSING").ok());
  t.child("DESC", 3).set("TYPE", "XOR");
  EXPECT_EQ(t.at({"DESC", "3"})->value("TYPE"), "XOR");
}

namespace {

TEST(Tree, ChildCreatesAndGetDoesNot) {
  Tree t;
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.get("A"), nullptr);
  EXPECT_FALSE(t.has("A"));
  Tree& a = t.child("A");
  EXPECT_TRUE(t.has("A"));
  EXPECT_EQ(t.get("A"), &a);
  EXPECT_EQ(&t.child("A"), &a);  // existing child returned, not replaced
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.at({"A", "B"}), nullptr);
  a.child("B");
  EXPECT_NE(t.at({"A", "B"}), nullptr);
  const Tree& ct = t;
  EXPECT_NE(ct.at({"A", "B"}), nullptr);
  EXPECT_EQ(ct.at({"A", "X"}), nullptr);
}

TEST(Tree, ValueNeedsExactlyOneChild) {
  Tree t;
  EXPECT_EQ(t.value("K"), std::nullopt);
  t.child("K");
  EXPECT_EQ(t.value("K"), std::nullopt);  // key without a value
  t.child("K").child("a");
  t.child("K").child("b");
  EXPECT_EQ(t.value("K"), std::nullopt);  // two values: not a KEY = VALUE
  EXPECT_EQ(t.value_or("K", "dflt"), "dflt");
  t.set("K", "only");
  EXPECT_EQ(t.value("K"), "only");
  EXPECT_EQ(t.at({"K"})->size(), 1u);
}

TEST(Tree, NumericAccessors) {
  Tree t;
  t.set_int("NEG", -42);
  t.set_uint("BIG", 18446744073709551615ull);
  t.set("TEXT", "12abc");
  t.set_double("PI", 3.141592653589793);
  t.set_double("NEGD", -0.125);
  EXPECT_EQ(*t.get_int("NEG"), -42);
  auto neg = t.get_uint("NEG");
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.status().code(), scr::Errc::corrupt);
  auto txt = t.get_int("TEXT");
  ASSERT_FALSE(txt.ok());
  EXPECT_EQ(txt.status().code(), scr::Errc::corrupt);
  EXPECT_NE(txt.status().message().find("TEXT"), std::string::npos);
  EXPECT_EQ(t.get_int("NONE").status().code(), scr::Errc::not_found);
  EXPECT_EQ(t.int_or("TEXT", 5), 5);
  EXPECT_EQ(t.uint_or("NEG", 9), 9u);
  EXPECT_EQ(t.int_or("NEG", 5), -42);
  // Values above INT64_MAX are stored but do not parse as int64.
  EXPECT_EQ(t.value("BIG"), "18446744073709551615");
  EXPECT_FALSE(t.get_uint("BIG").ok());
  EXPECT_DOUBLE_EQ(t.double_or("PI", 0), 3.141592653589793);
  EXPECT_EQ(t.double_or("NEGD", 1), -0.125);  // negatives survive the round trip
  EXPECT_EQ(t.double_or("TEXT", 7.5), 7.5);
  EXPECT_EQ(t.double_or("NONE", 7.5), 7.5);
}

TEST(Tree, IntKeysSortedNumerically) {
  Tree t;
  for (const char* k : {"10", "2", "-1", "x", "3a", "0"}) t.child(k);
  EXPECT_EQ(t.int_keys(), (std::vector<int64_t>{-1, 0, 2, 10}));
  EXPECT_EQ(t.keys(), (std::vector<std::string>{"-1", "0", "10", "2", "3a", "x"}));
  // Only canonical numbers: every one found again by std::to_string.
  for (const char* k : {"04", "-0", "+5", "007"}) t.child(k);
  EXPECT_EQ(t.int_keys(), (std::vector<int64_t>{-1, 0, 2, 10}));
  for (int64_t k : t.int_keys()) EXPECT_NE(t.get(std::to_string(k)), nullptr) << k;
}

TEST(Tree, ResetPutErase) {
  Tree t;
  t.child("A").set("X", "1");
  Tree& a = t.reset("A");
  EXPECT_TRUE(a.empty());
  Tree sub;
  sub.set("Y", "2");
  t.put("A", sub);
  EXPECT_EQ(t.at({"A", "Y", "2"})->size(), 0u);
  EXPECT_FALSE(t.at({"A", "X"}));
  // put a copy of one of our own subtrees under another key
  t.put("B", *t.get("A"));
  EXPECT_EQ(*t.get("A"), *t.get("B"));
  t.erase("A");
  t.erase("missing");
  EXPECT_FALSE(t.has("A"));
  EXPECT_TRUE(t.has("B"));
  t.clear();
  EXPECT_TRUE(t.empty());
}

TEST(Tree, CopyIsDeepAndEqualityIsStructural) {
  Tree t;
  t.child("DESC", 0).set("TYPE", "XOR");
  Tree c = t;
  EXPECT_EQ(c, t);
  c.child("DESC", 0).set("TYPE", "RS");
  EXPECT_NE(c, t);
  EXPECT_EQ(t.at({"DESC", "0"})->value("TYPE"), "XOR");
  Tree d;
  d = t;
  EXPECT_EQ(d, t);
  d = d;  // self assignment keeps content
  EXPECT_EQ(d, t);
  Tree m = std::move(d);
  EXPECT_EQ(m, t);
  // same keys, different depth
  Tree x, y;
  x.child("A").child("B");
  y.child("A");
  EXPECT_NE(x, y);
  EXPECT_NE(y, x);
}

TEST(Tree, MergeAddsRecursively) {
  Tree a, b;
  a.child("R", 0).set("SIZE", "10");
  b.child("R", 0).set("CRC", "0xab");
  b.child("R", 1).set("SIZE", "20");
  a.merge(b);
  EXPECT_EQ(a.at({"R", "0"})->value("SIZE"), "10");
  EXPECT_EQ(a.at({"R", "0"})->value("CRC"), "0xab");
  EXPECT_EQ(a.at({"R", "1"})->value("SIZE"), "20");
  // merging a different value under the same key keeps both (a list)
  Tree c;
  c.set("K", "1");
  Tree d;
  d.set("K", "2");
  c.merge(d);
  EXPECT_EQ(c.get("K")->size(), 2u);
  EXPECT_EQ(c.value("K"), std::nullopt);
}

}  // namespace
