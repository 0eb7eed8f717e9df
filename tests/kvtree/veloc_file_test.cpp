// KVTree's file format (SCR 3.1's metadata files): bytes laid out by hand
// decode to the tree they hold, encode() writes the same bytes, and every
// kind of damage is refused as corrupt.
#include <gtest/gtest.h>

#include <string>

#include "common/crc32.hpp"
#include "kvtree/codec.hpp"
#include "kvtree/veloc_file.hpp"

namespace scr::kv {
namespace {

std::string be(uint64_t v, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return out;
}

// A whole file around `body`, as KVTree writes it (checksum flag set).
std::string file_of(const std::string& body) {
  std::string f = be(0x951fc3f5, 4) + be(1, 2) + be(1, 2) + be(20 + body.size() + 4, 8) + be(1, 4) + body;
  return f + be(crc32(f.data(), f.size()), 4);
}

// NAME = ckpt.1, FLUSHED = "2026-11-27T04:00:00", written in KVTree's own
// order (not sorted).
std::string sample_body() {
  std::string leaf = be(0, 4);
  return be(2, 4) + std::string("NAME\0", 5) + be(1, 4) + std::string("ckpt.1\0", 7) + leaf +
         std::string("FLUSHED\0", 8) + be(1, 4) + std::string("2026-11-27T04:00:00\0", 20) + leaf;
}

TEST(VelocFile, Crc32IsZlibs) {
  EXPECT_EQ(crc32("123456789", 9), 0xCBF43926u);
  EXPECT_EQ(crc32("56789", 5, crc32("1234", 4)), 0xCBF43926u);
  EXPECT_EQ(crc32("", 0), 0u);
}

TEST(VelocFile, DecodesBytesLaidOutByHand) {
  auto t = veloc::decode(file_of(sample_body()));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->value_or("NAME", ""), "ckpt.1");
  EXPECT_EQ(t->value_or("FLUSHED", ""), "2026-11-27T04:00:00");
  EXPECT_EQ(t->size(), 2u);
}

TEST(VelocFile, EncodesTheSameLayout) {
  Tree t;
  t.set("A", "1");
  std::string body = be(1, 4) + std::string("A\0", 2) + be(1, 4) + std::string("1\0", 2) + be(0, 4);
  EXPECT_EQ(veloc::encode(t), file_of(body));
  Tree deep;
  deep.child("DSET", "3").set("NAME", "x");
  deep.set("CURRENT", "x");
  auto back = veloc::decode(veloc::encode(deep));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, deep);
}

TEST(VelocFile, AnEmptyFileIsAnEmptyTree) {
  EXPECT_TRUE(veloc::looks_like({}));
  auto t = veloc::decode(std::string());
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->empty());
}

TEST(VelocFile, RepeatedKeysMerge) {
  std::string leaf = be(0, 4);
  std::string body = be(2, 4) + std::string("K\0", 2) + be(1, 4) + std::string("a\0", 2) + leaf +
                     std::string("K\0", 2) + be(1, 4) + std::string("b\0", 2) + leaf;
  auto t = veloc::decode(file_of(body));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->get("K")->size(), 2u);
}

void expect_corrupt(const std::string& bytes, const char* what) {
  auto t = veloc::decode(bytes);
  ASSERT_FALSE(t.ok()) << what;
  EXPECT_EQ(t.status().code(), Errc::corrupt) << what;
}

TEST(VelocFile, DamageIsRefused) {
  std::string good = file_of(sample_body());
  expect_corrupt(good.substr(0, 10), "truncated header");
  expect_corrupt(good.substr(0, good.size() - 1), "truncated file");
  std::string flipped = good;
  flipped[30] ^= 1;
  expect_corrupt(flipped, "changed byte");
  std::string magic = good;
  magic[0] = 0;
  expect_corrupt(magic, "bad magic");
  EXPECT_FALSE(veloc::looks_like(std::as_bytes(std::span(magic.data(), magic.size()))));
  expect_corrupt(good + "x", "trailing byte");
  expect_corrupt(file_of(sample_body() + "x"), "bytes after the tree");
  expect_corrupt(file_of(be(0xffffffff, 4)), "a count the file cannot hold");
  expect_corrupt(file_of(be(1, 4) + "KEY-WITHOUT-NUL"), "a key running past the end");
  expect_corrupt(file_of(be(1, 4) + std::string("K\0", 2)), "a subtree missing");
}

TEST(VelocFile, NestingIsBounded) {
  std::string body;
  for (int i = 0; i <= kMaxDepth + 1; ++i) body += be(1, 4) + std::string("k\0", 2);
  body += be(0, 4);
  expect_corrupt(file_of(body), "nesting too deep");
}

}  // namespace
}  // namespace scr::kv
