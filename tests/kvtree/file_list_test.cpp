// The compact file list: round trips of every field, front-coded names, and
// every malformed input rejected (truncation at each byte, trailing bytes,
// counts larger than the input, bad flags, impossible prefixes); checksums
// set by rewriting the bytes, as a decode, a change and an encode would.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kvtree/codec.hpp"
#include "kvtree/file_list.hpp"

namespace {

using scr::Errc;
namespace kv = scr::kv;

std::vector<kv::FileRecord> sample() {
  kv::FileAttrs a{0100640, 1000, 100, {1700000000, 5}, {-3, 999999999}, {0, 0}};
  return {
      {"ckpt/rank_0.dat", 0, std::nullopt, false, std::nullopt},
      {"ckpt/rank_1.dat", 1234567, 0xdeadbeef, false, a},
      {"ckpt/shared.h5", UINT64_MAX, 0, true, std::nullopt},
      {"other", 7, std::nullopt, true, kv::FileAttrs{}},
  };
}

TEST(FileList, RoundTripsEveryField) {
  auto files = sample();
  auto back = kv::decode_file_list(kv::encode_file_list(files));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, files);
}

TEST(FileList, EmptyListRoundTrips) {
  auto back = kv::decode_file_list(kv::encode_file_list({}));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->empty());
}

TEST(FileList, SharedPrefixesKeepItSmall) {
  std::vector<kv::FileRecord> files;
  for (int i = 0; i < 10000; ++i) files.push_back({"many.1/r12/d" + std::to_string(i / 256) + "/f" + std::to_string(i), 838, 1u, false, std::nullopt});
  std::string bytes = kv::encode_file_list(files);
  EXPECT_LT(bytes.size(), 16u * files.size());
  auto back = kv::decode_file_list(bytes);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, files);
}

TEST(FileList, StoredInATreeSurvivesTheTreeCodec) {
  kv::Tree t;
  kv::put_file_list(t, "FILELIST", sample());
  auto decoded = kv::decode(kv::encode(t));
  ASSERT_TRUE(decoded.ok());
  auto back = kv::get_file_list(*decoded, "FILELIST");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, sample());
  auto absent = kv::get_file_list(*decoded, "NONE");
  ASSERT_TRUE(absent.ok());
  EXPECT_TRUE(absent->empty());
  t.child("FILELIST").set("X", "Y");
  EXPECT_EQ(kv::get_file_list(t, "FILELIST").status().code(), Errc::corrupt);
}

TEST(FileList, EveryTruncationIsRejected) {
  std::string bytes = kv::encode_file_list(sample());
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_EQ(kv::decode_file_list(bytes.substr(0, n)).status().code(), Errc::corrupt) << n;
}

TEST(FileList, TrailingBytesAreRejected) {
  EXPECT_EQ(kv::decode_file_list(kv::encode_file_list(sample()) + "x").status().code(), Errc::corrupt);
}

TEST(FileList, MalformedHeadersAreRejected) {
  std::string good = kv::encode_file_list(sample());
  std::string magic = good;
  magic[0] = 'X';
  EXPECT_EQ(kv::decode_file_list(magic).status().code(), Errc::corrupt);
  std::string version = good;
  version[4] = 2;
  EXPECT_EQ(kv::decode_file_list(version).status().code(), Errc::corrupt);
  // A count far beyond the bytes present must fail before any allocation.
  std::string huge("SCFL\x01\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 14);
  EXPECT_EQ(kv::decode_file_list(huge).status().code(), Errc::corrupt);
}

TEST(FileList, MalformedRecordsAreRejected) {
  auto one = [](std::string record) { return std::string("SCFL\x01\x01", 6) + record + std::string(8, '\0'); };
  // unknown flag bit
  EXPECT_EQ(kv::decode_file_list(one(std::string("\x08\x00\x01" "a\x00", 5))).status().code(), Errc::corrupt);
  // first name claims a prefix shared with a previous name that does not exist
  EXPECT_EQ(kv::decode_file_list(one(std::string("\x00\x02\x01" "a\x00", 5))).status().code(), Errc::corrupt);
  // empty name
  EXPECT_EQ(kv::decode_file_list(one(std::string("\x00\x00\x00\x00", 4))).status().code(), Errc::corrupt);
  // a size varint longer than 64 bits
  std::string overflow("SCFL\x01\x01\x00\x00\x01" "a", 10);
  overflow += std::string(10, '\xff');
  overflow += '\x01';
  EXPECT_EQ(kv::decode_file_list(overflow).status().code(), Errc::corrupt);
  // a uid beyond 32 bits
  std::string uid("SCFL\x01\x01\x04\x00\x01" "a\x00\x00", 12);
  uid += std::string("\xff\xff\xff\xff\x1f", 5);
  uid += std::string(6, '\0');
  EXPECT_EQ(kv::decode_file_list(uid).status().code(), Errc::corrupt);
}

// What with_file_list_crcs must produce: the records with their checksums
// set, encoded again.
std::string crcs_the_long_way(const std::string& bytes, const std::vector<uint32_t>& crcs) {
  auto records = kv::decode_file_list(bytes);
  EXPECT_TRUE(records.ok());
  for (size_t i = 0; i < records->size(); ++i) (*records)[i].crc = crcs[i];
  return kv::encode_file_list(*records);
}

TEST(FileListCrcs, RewriteEqualsDecodeSetEncode) {
  // Slots added where a record had none, replaced where it had one; names,
  // sizes, shared flags and attributes kept.
  std::string bytes = kv::encode_file_list(sample());
  std::vector<uint32_t> crcs{1, 0xffffffffu, 0, 0x12345678u};
  auto with = kv::with_file_list_crcs(bytes, crcs);
  ASSERT_TRUE(with.ok()) << with.status().message();
  EXPECT_EQ(*with, crcs_the_long_way(bytes, crcs));
  // Rewritten again (every slot present now): the same bytes as the long way.
  std::vector<uint32_t> again{9, 8, 7, 6};
  auto twice = kv::with_file_list_crcs(*with, again);
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(*twice, crcs_the_long_way(*with, again));
  auto empty = kv::with_file_list_crcs(kv::encode_file_list({}), {});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, kv::encode_file_list({}));
}

TEST(FileListCrcs, ManyFrontCodedNames) {
  std::vector<kv::FileRecord> files;
  std::vector<uint32_t> crcs;
  kv::FileAttrs a{0100600, 0, 0, {1, 2}, {3, 4}, {5, 6}};
  for (int i = 0; i < 10000; ++i) {
    files.push_back({"many.1/r3/d" + std::to_string(i / 256) + "/f" + std::to_string(i), 838, std::nullopt, false, a});
    crcs.push_back(static_cast<uint32_t>(i * 2654435761u));
  }
  std::string bytes = kv::encode_file_list(files);
  auto with = kv::with_file_list_crcs(bytes, crcs);
  ASSERT_TRUE(with.ok());
  EXPECT_EQ(*with, crcs_the_long_way(bytes, crcs));
}

TEST(FileListCrcs, AWrongCountIsRefused) {
  std::string bytes = kv::encode_file_list(sample());
  EXPECT_EQ(kv::with_file_list_crcs(bytes, {1, 2, 3}).status().code(), Errc::corrupt);
  EXPECT_EQ(kv::with_file_list_crcs(bytes, {1, 2, 3, 4, 5}).status().code(), Errc::corrupt);
}

TEST(FileListCrcs, RefusesWhatDecodeRefuses) {
  std::string bytes = kv::encode_file_list(sample());
  std::vector<uint32_t> four{1, 2, 3, 4};
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_EQ(kv::with_file_list_crcs(bytes.substr(0, n), four).status().code(), Errc::corrupt) << n;
  EXPECT_EQ(kv::with_file_list_crcs(bytes + "x", four).status().code(), Errc::corrupt);
  // The second record claims more of the first name than it has.
  std::string two("SCFL\x01\x02" "\x00\x00\x01" "a\x00" "\x00\x05\x01" "b\x00", 16);
  ASSERT_EQ(kv::decode_file_list(two).status().code(), Errc::corrupt);
  EXPECT_EQ(kv::with_file_list_crcs(two, {1, 2}).status().code(), Errc::corrupt);
}

TEST(FileListCrcs, SetInATree) {
  kv::Tree t;
  kv::put_file_list(t, "FILELIST", sample());
  auto bytes = kv::file_list_bytes(t, "FILELIST");
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, kv::encode_file_list(sample()));
  auto absent = kv::file_list_bytes(t, "NONE");
  ASSERT_TRUE(absent.ok());
  EXPECT_EQ(*absent, kv::encode_file_list({}));
}

}  // namespace
