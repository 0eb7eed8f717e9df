#include <gtest/gtest.h>

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
