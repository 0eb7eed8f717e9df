#include <gtest/gtest.h>

#include "kvtree/codec.hpp"

using scr::kv::Tree;

TEST(Codec, RoundTrip) {
  Tree t;
  t.set_int("CHUNK", 2446678);
  t.child("DESC", 0).child("DESC").set("TYPE", "XOR");
  auto bytes = scr::kv::encode(t);
  auto back = scr::kv::decode(bytes);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, t);
}
