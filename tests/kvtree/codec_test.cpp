// Binary and text forms of the metadata tree. The corruption tests build
// envelopes by hand (with correct CRCs where the point is to get past them) so
// that each parser check is reached on purpose; see docs/formats/kvtree.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/crc32c.hpp"
#include "kvtree/codec.hpp"

namespace {

using scr::Errc;
using scr::kv::Tree;
namespace kv = scr::kv;

void put_le(std::string& out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

struct Envelope {
  uint32_t magic = kv::kMagic;
  uint16_t version = kv::kVersion;
  uint16_t reserved = 0;
  std::optional<uint64_t> length;  // default: the real payload length
  bool good_payload_crc = true;
  bool good_header_crc = true;
};

// Envelope + payload with CRCs computed like the encoder does.
std::string wrap(const std::string& payload, const Envelope& e = {}) {
  std::string out;
  put_le(out, e.magic, 4);
  put_le(out, e.version, 2);
  put_le(out, e.reserved, 2);
  put_le(out, e.length.value_or(payload.size()), 8);
  uint32_t pcrc = scr::crc32c(payload.data(), payload.size());
  put_le(out, e.good_payload_crc ? pcrc : pcrc ^ 1u, 4);
  uint32_t hcrc = scr::crc32c(out.data(), out.size());
  put_le(out, e.good_header_crc ? hcrc : hcrc ^ 1u, 4);
  return out + payload;
}

// Payload node writer for hand-built encodings.
struct Node {
  std::string bytes;
  Node& count(uint32_t n) {
    put_le(bytes, n, 4);
    return *this;
  }
  Node& key(const std::string& k) {
    put_le(bytes, k.size(), 4);
    bytes += k;
    return *this;
  }
};

Tree sample() {
  Tree t;
  t.set_int("CHUNK", 2446678);
  t.child("DESC", 0).child("DESC").set("TYPE", "XOR");
  t.set("RANK", "0");
  return t;
}

void expect_corrupt(const std::string& bytes, const std::string& what, bool trailing = false) {
  auto r = kv::decode(bytes, trailing);
  ASSERT_FALSE(r.ok()) << what << ": decoded although damaged";
  EXPECT_EQ(r.status().code(), Errc::corrupt) << what << ": " << r.status().to_string();
  EXPECT_FALSE(r.status().message().empty());
}

std::string random_key(std::mt19937& rng) {
  static const std::string alpha = "ABCXYZ_019 ./=";
  size_t len = rng() % 6;
  std::string k;
  for (size_t i = 0; i < len; ++i) {
    // mostly readable, sometimes any byte including NUL and 0xFF
    if (rng() % 8 == 0) k.push_back(static_cast<char>(rng() % 256));
    else k.push_back(alpha[rng() % alpha.size()]);
  }
  return k;
}

Tree random_tree(std::mt19937& rng, int depth) {
  Tree t;
  if (depth <= 0) return t;
  size_t n = rng() % 5;
  for (size_t i = 0; i < n; ++i) t.put(random_key(rng), random_tree(rng, depth - 1 - int(rng() % 2)));
  return t;
}

TEST(Codec, RoundTrip) {
  Tree t = sample();
  auto bytes = kv::encode(t);
  auto back = kv::decode(bytes);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, t);
}

TEST(Codec, EmptyTreeIsEnvelopePlusCount) {
  std::string bytes = kv::encode(Tree());
  ASSERT_EQ(bytes.size(), kv::kEnvelopeSize + 4);
  EXPECT_EQ(bytes, wrap(Node().count(0).bytes));
  auto back = kv::decode(bytes);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->empty());
}

// The encoder's bytes are exactly the documented layout.
TEST(Codec, LayoutMatchesFormatDocument) {
  Tree t;
  t.set("B", "2");
  t.child("A");
  std::string payload = Node()
                            .count(2)
                            .key("A").count(0)
                            .key("B").count(1)
                            .key("2").count(0)
                            .bytes;
  std::string bytes = kv::encode(t);
  EXPECT_EQ(bytes, wrap(payload));
  EXPECT_EQ(bytes.substr(0, 4), "SCRT");
  EXPECT_EQ(static_cast<unsigned char>(bytes[4]), 1);  // version 1, little-endian
  EXPECT_EQ(static_cast<unsigned char>(bytes[5]), 0);
}

TEST(Codec, RandomTreesRoundTrip) {
  std::mt19937 rng(42);
  for (int i = 0; i < 500; ++i) {
    Tree t = random_tree(rng, 1 + i % 6);
    std::string bytes = kv::encode(t);
    auto back = kv::decode(bytes);
    ASSERT_TRUE(back.ok()) << "tree " << i << ": " << back.status().to_string();
    ASSERT_EQ(*back, t) << "tree " << i;
    EXPECT_EQ(kv::encode(*back), bytes) << "encoding is not canonical, tree " << i;
    EXPECT_EQ(kv::to_text(*back), kv::to_text(t));
    // The envelope and payload halves work on their own too.
    auto span = std::as_bytes(std::span(bytes.data(), bytes.size()));
    auto len = kv::decode_envelope(span.first(kv::kEnvelopeSize));
    ASSERT_TRUE(len.ok());
    EXPECT_EQ(*len, bytes.size() - kv::kEnvelopeSize);
    auto payload = kv::decode_payload(span.subspan(kv::kEnvelopeSize),
                                      kv::envelope_payload_crc(span));
    ASSERT_TRUE(payload.ok());
    EXPECT_EQ(*payload, t);
  }
}

TEST(Codec, KeysMayHoldAnyBytes) {
  Tree t;
  t.child(std::string("\0a", 2)).child("");
  t.child("\xff\xfe").set("=", " = ");
  t.child(std::string(70000, 'k'));
  auto back = kv::decode(kv::encode(t));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, t);
}

// Every byte of a small encoding, altered in three ways, is caught.
TEST(Codec, EverySingleByteCorruptionIsRejected) {
  const std::string good = kv::encode(sample());
  ASSERT_TRUE(kv::decode(good).ok());
  for (size_t i = 0; i < good.size(); ++i) {
    for (unsigned mask : {0x01u, 0x80u, 0xFFu}) {
      std::string bad = good;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ mask);
      expect_corrupt(bad, "byte " + std::to_string(i) + " ^ " + std::to_string(mask));
    }
  }
}

TEST(Codec, EveryTruncationIsRejected) {
  const std::string good = kv::encode(sample());
  for (size_t len = 0; len < good.size(); ++len)
    expect_corrupt(good.substr(0, len), "truncated to " + std::to_string(len));
}

TEST(Codec, TrailingBytes) {
  const std::string good = kv::encode(sample());
  expect_corrupt(good + '\0', "one trailing byte");
  expect_corrupt(good + good, "two encodings back to back");
  auto ok = kv::decode(good + "junk", /*allow_trailing=*/true);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_EQ(*ok, sample());
  // allow_trailing does not excuse a short payload
  expect_corrupt(good.substr(0, good.size() - 1), "short with trailing allowed", true);
}

TEST(Codec, EnvelopeFieldsAreChecked) {
  const std::string p = Node().count(1).key("K").count(0).bytes;
  ASSERT_TRUE(kv::decode(wrap(p)).ok());
  Envelope e;
  e.magic = 0x54524354;  // "TCRT"
  expect_corrupt(wrap(p, e), "bad magic");
  e = {};
  e.version = 2;
  expect_corrupt(wrap(p, e), "version 2");
  e.version = 0;
  expect_corrupt(wrap(p, e), "version 0");
  e = {};
  e.reserved = 1;
  expect_corrupt(wrap(p, e), "reserved field set");
  e = {};
  e.good_header_crc = false;
  expect_corrupt(wrap(p, e), "header crc");
  e = {};
  e.good_payload_crc = false;
  expect_corrupt(wrap(p, e), "payload crc");
  e = {};
  e.length = p.size() + 1;
  expect_corrupt(wrap(p, e), "length one too long");
  e.length = p.size() - 1;
  expect_corrupt(wrap(p, e), "length one too short");
  e.length = kv::kMaxPayload + 1;
  expect_corrupt(wrap(p, e), "length above the limit");
  e.length = ~uint64_t{0} - 1;
  expect_corrupt(wrap(p, e), "length near 2^64");
  auto msg = kv::decode(wrap(p, Envelope{.magic = 1})).status().message();
  EXPECT_NE(msg.find("magic"), std::string::npos) << msg;
}

TEST(Codec, EnvelopeAloneNeedsFullHeader) {
  std::string good = kv::encode(sample());
  auto span = std::as_bytes(std::span(good.data(), good.size()));
  for (size_t n = 0; n < kv::kEnvelopeSize; ++n) {
    auto r = kv::decode_envelope(span.first(n));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Errc::corrupt);
  }
  EXPECT_TRUE(kv::decode_envelope(span.first(kv::kEnvelopeSize)).ok());
}

// A payload claiming 2^31 children (with valid CRCs) must fail fast without
// trying to allocate or loop that many times.
TEST(Codec, HugeChildCountIsRejected) {
  for (uint32_t n : {0x80000000u, 0xFFFFFFFFu, 3u}) {
    std::string p = Node().count(n).key("a").count(0).key("b").count(0).bytes;
    expect_corrupt(wrap(p), "count " + std::to_string(n));
  }
  // Refused up front, and the message says what was claimed.
  auto r = kv::decode(wrap(Node().count(0x80000000u).bytes));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("2147483648 children"), std::string::npos)
      << r.status().message();
  // A key length past the end
  expect_corrupt(wrap(Node().count(1).count(0xFFFFFFF0u).count(0).bytes), "huge key length");
}

std::string nested_payload(int levels) {
  Node n;
  for (int i = 0; i < levels; ++i) n.count(1).key("a");
  n.count(0);
  return n.bytes;
}

TEST(Codec, DepthLimit) {
  // kMaxDepth nested keys decode; one more does not.
  auto ok = kv::decode(wrap(nested_payload(kv::kMaxDepth)));
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  Tree deep;
  Tree* cur = &deep;
  for (int i = 0; i < kv::kMaxDepth; ++i) cur = &cur->child("a");
  EXPECT_EQ(*ok, deep);
  expect_corrupt(wrap(nested_payload(kv::kMaxDepth + 1)), "depth 65");
}

TEST(Codec, DepthBombIsRejected) {
  expect_corrupt(wrap(nested_payload(1000)), "1000 nested levels");
  expect_corrupt(wrap(nested_payload(200000)), "200000 nested levels");
  // A tree built in memory that deep encodes, but is refused on the way back.
  Tree deep;
  Tree* cur = &deep;
  for (int i = 0; i < 1000; ++i) cur = &cur->child("a");
  expect_corrupt(kv::encode(deep), "encoded 1000-level tree");
}

TEST(Codec, KeysOutOfOrderOrDuplicateAreRejected) {
  expect_corrupt(wrap(Node().count(2).key("b").count(0).key("a").count(0).bytes), "b before a");
  expect_corrupt(wrap(Node().count(2).key("a").count(0).key("a").count(0).bytes), "duplicate");
  expect_corrupt(wrap(Node().count(2).key("ab").count(0).key("a").count(0).bytes), "ab before a");
  // Byte order is unsigned: 0x7f sorts before 0x80.
  expect_corrupt(wrap(Node().count(2).key("\x80").count(0).key("\x7f").count(0).bytes),
                 "0x80 before 0x7f");
  auto ok = kv::decode(wrap(Node().count(2).key("\x7f").count(0).key("\x80").count(0).bytes));
  EXPECT_TRUE(ok.ok()) << ok.status().to_string();
  // Order is checked at every level, not only the root.
  expect_corrupt(
      wrap(Node().count(1).key("X").count(2).key("2").count(0).key("1").count(0).bytes),
      "nested out of order");
}

TEST(Codec, PayloadTrailingAfterRootIsRejected) {
  std::string p = Node().count(0).bytes + "x";
  expect_corrupt(wrap(p), "payload longer than its tree");
}

// --- text form ---------------------------------------------------------------

TEST(Text, LeavesPrintAsKeyEqualsValue) {
  Tree t;
  t.set("A", "1");
  t.child("EMPTY");
  t.child("LIST").child("x");
  t.child("LIST").child("y");
  EXPECT_EQ(kv::to_text(t),
            "A = 1\n"
            "EMPTY\n"
            "LIST\n"
            "  x\n"
            "  y\n");
  EXPECT_EQ(kv::to_text(Tree()), "");
  EXPECT_EQ(kv::to_text(t, 4).substr(0, 9), "    A = 1");
}

// The SINGLE redundancy header shown in docs/formats/kvtree.md (text form),
// printed with the indent used there (2).
TEST(Text, MatchesDocumentedHeaderLayout) {
  Tree h;
  Tree& d0 = h.child("DESC", 0);
  Tree& desc = d0.child("DESC");
  desc.set("ENABLED", "1");
  desc.set("GROUP", "0");
  desc.set("GROUPS", "4");
  desc.set("RANK", "0");
  desc.set("RANKS", "1");
  desc.set("TYPE", "SINGLE");
  desc.set("WRANK", "0");
  desc.set("WRANKS", "4");
  Tree& f = d0.child("FILE", 0).child("./testfile_0.out");
  f.set("ATIME_NSECS", "924124298");
  f.set("ATIME_SECS", "1596606911");
  f.set("CTIME_NSECS", "918124338");
  f.set("CTIME_SECS", "1596606911");
  f.set("GID", "12345");
  f.set("MODE", "33152");
  f.set("MTIME_NSECS", "918124338");
  f.set("MTIME_SECS", "1596606911");
  f.set("SIZE", "4194304");
  f.set("UID", "12345");
  d0.set("FILES", "1");
  h.set("RANK", "0");
  const char* documented =
      "  DESC\n"
      "    0\n"
      "      DESC\n"
      "        ENABLED = 1\n"
      "        GROUP = 0\n"
      "        GROUPS = 4\n"
      "        RANK = 0\n"
      "        RANKS = 1\n"
      "        TYPE = SINGLE\n"
      "        WRANK = 0\n"
      "        WRANKS = 4\n"
      "      FILE\n"
      "        0\n"
      "          ./testfile_0.out\n"
      "            ATIME_NSECS = 924124298\n"
      "            ATIME_SECS = 1596606911\n"
      "            CTIME_NSECS = 918124338\n"
      "            CTIME_SECS = 1596606911\n"
      "            GID = 12345\n"
      "            MODE = 33152\n"
      "            MTIME_NSECS = 918124338\n"
      "            MTIME_SECS = 1596606911\n"
      "            SIZE = 4194304\n"
      "            UID = 12345\n"
      "      FILES = 1\n"
      "  RANK = 0\n";
  EXPECT_EQ(kv::to_text(h, 2), documented);
  auto back = kv::decode(kv::encode(h));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(kv::to_text(*back, 2), documented);
}

// Text lines: one per key, indented two spaces per level, except that a
// key holding one leaf shares its line with it.
TEST(Text, RandomTreesLineCount) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    Tree t = random_tree(rng, 5);
    size_t expected = 0;
    std::function<void(const Tree&)> count = [&](const Tree& n) {
      for (const auto& [k, c] : n.children()) {
        ++expected;
        if (c->size() == 1 && c->children().begin()->second->empty()) continue;
        count(*c);
      }
    };
    count(t);
    std::string text = kv::to_text(t);
    size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    size_t newlines_in_keys = 0;
    std::function<void(const Tree&)> nl = [&](const Tree& n) {
      for (const auto& [k, c] : n.children()) {
        newlines_in_keys += static_cast<size_t>(std::count(k.begin(), k.end(), '\n'));
        nl(*c);
      }
    };
    nl(t);
    EXPECT_EQ(lines, expected + newlines_in_keys) << text;
  }
}

}  // namespace
