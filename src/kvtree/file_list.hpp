// A list of file records stored as one compact value of a metadata tree
// (docs/formats/kvtree.md#file-lists). Redundancy headers, filemaps and flush
// summaries each describe every file of a dataset; as subtrees that cost
// about 25 tree nodes (several KiB in memory) per file, a checkpoint of
// 10,000 files per process spent most of its time and memory on them. Here a
// file costs about 20 bytes on disk and one record in memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "kvtree/tree.hpp"

namespace scr::kv {

struct FileTime {
  int64_t sec = 0;
  int64_t nsec = 0;
  bool operator==(const FileTime&) const = default;
};

// Owner, mode and times as stat reported them (restored after a rebuild).
struct FileAttrs {
  uint32_t mode = 0;  // st_mode, type bits included
  uint32_t uid = 0;
  uint32_t gid = 0;
  FileTime atime, mtime, ctime;
  bool operator==(const FileAttrs&) const = default;
};

struct FileRecord {
  std::string name;
  uint64_t size = 0;
  std::optional<uint32_t> crc;     // CRC32C of the content
  bool shared = false;             // one file written by several processes
  std::optional<FileAttrs> attrs;  // absent where only name and size matter
  bool operator==(const FileRecord&) const = default;
};

// Longest name a record may carry (a path, far above PATH_MAX).
inline constexpr size_t kMaxRecordName = 65536;

std::string encode_file_list(const std::vector<FileRecord>& files);
// Rejects truncated, trailing or malformed bytes with Errc::corrupt; never
// allocates more than the input can describe.
Result<std::vector<FileRecord>> decode_file_list(std::string_view bytes);

// The same list with the CRC32C of record i set to crcs[i] (a slot added
// where a record had none), rewritten byte by byte: no record is built, so a
// checkpoint of many files pays for its checksums with one pass over the
// list instead of a decode and an encode. It decodes to what a decode, a
// change of the checksums and an encode give (byte for byte when the input
// was written by encode_file_list; other fields are copied as they are).
// Refuses what decode_file_list refuses, and a count of checksums that is
// not the count of records.
Result<std::string> with_file_list_crcs(std::string_view bytes, const std::vector<uint32_t>& crcs);

// Readable form for scr_inspect: each name, then its fields indented.
std::string file_list_text(const std::vector<FileRecord>& files, int indent);

// The list as the single value under `key` (replacing what was there).
void put_file_list(Tree& tree, std::string_view key, const std::vector<FileRecord>& files);
// The list under `key`; an absent key is an empty list.
Result<std::vector<FileRecord>> get_file_list(const Tree& tree, std::string_view key);
// Its bytes, as stored (valid while the tree is unchanged), undecoded.
Result<std::string_view> file_list_bytes(const Tree& tree, std::string_view key);

}  // namespace scr::kv
