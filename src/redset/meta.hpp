// File metadata as stored in redundancy headers (docs/formats/redset.md):
//   FILES = n, FILELIST = the n files (name, size, mode, owner, times, CRC32C)
//   as one compact file list (kvtree/file_list.hpp)
// plus helpers every scheme shares: describing a process's files, checking
// which are present, and restoring metadata after a rebuild.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/lofi.hpp"
#include "kvtree/file_list.hpp"
#include "kvtree/tree.hpp"

namespace scr::redset {

struct FileEntry {
  std::string name;  // relative to the dataset directory
  io::FileInfo meta;
  // CRC32C of the content when the scheme was applied; every rebuilt file
  // is checked against it (absent in headers written without one).
  std::optional<uint32_t> crc;
};

// Mode, owner and times as a file list records them, and back.
kv::FileAttrs attrs_of(const io::FileInfo& info);
io::FileInfo info_of(uint64_t size, const kv::FileAttrs& attrs);

// stat each file in dir and build {FILES, FILELIST}; with a piece size, also
// checksum each file (CRC32C, read in pieces of that size), otherwise no
// file is opened. Names must be
// relative and stay inside dir.
Result<kv::Tree> describe_files(io::Env& env, const std::string& dir,
                                const std::vector<std::string>& files, size_t crc_piece_size = 0);
// {FILES, FILELIST} of records the caller has just taken itself (a copy's
// own metadata, for example); their names must already be checked.
kv::Tree files_tree(const std::vector<kv::FileRecord>& records);
// Parse {FILES, FILELIST} back; rejects entries that would escape dir.
Result<std::vector<FileEntry>> files_from_tree(const kv::Tree& files_tree);
uint64_t total_size(const std::vector<FileEntry>& files);
std::vector<std::string> names(const std::vector<FileEntry>& files);

// Files of `files` with a recorded CRC32C, read once each: those present in
// dir whose content no longer matches it, and those that do match.
struct CrcCheck {
  std::vector<std::string> damaged;
  std::vector<std::string> intact;
};
CrcCheck check_crcs(io::Env& env, const std::string& dir, const std::vector<FileEntry>& files, size_t piece_size);

// True when every file exists in dir as a regular file of the recorded size.
bool files_present(io::Env& env, const std::string& dir, const std::vector<FileEntry>& files);

// Logical-file views of a process's files (parents created for writing).
Result<io::LogicalFile> open_files_read(io::Env& env, const std::string& dir,
                                        const std::vector<FileEntry>& files);
// For files the caller has just checked (describe_files, files_present):
// each is checked again when first read instead of up front.
Result<io::LogicalFile> open_measured_files(io::Env& env, const std::string& dir,
                                             const std::vector<FileEntry>& files);
Result<io::LogicalFile> open_files_write(io::Env& env, const std::string& dir,
                                         const std::vector<FileEntry>& files);
// After a rebuild: set mode, owner and times as recorded.
Status restore_meta(io::Env& env, const std::string& dir, const std::vector<FileEntry>& files);

// The header common to every scheme: DESC/<set rank>/{DESC, FILE, FILES} for
// each process whose metadata this header carries, GROUP/{RANK/<i>, RANKS}
// and RANK (our set rank). Scheme data follows at the first multiple of
// kDataAlign after the header (zero bytes in between), so that data pieces
// are page- and SIMD-aligned whether read or mapped.
inline constexpr uint64_t kDataAlign = 4096;

struct Header {
  kv::Tree tree;
  uint64_t data_offset = 0;  // where the scheme data starts
};
// Read and validate the header at the start of a redundancy file.
Result<Header> read_header(io::Env& env, const std::string& path);
// Write header bytes and the zero padding after them at offset 0 of an open
// file; returns the data offset.
Result<uint64_t> write_header(io::File& file, const kv::Tree& header);
// The data offset write_header would return for this header.
uint64_t encoded_header_size(const kv::Tree& header);

}  // namespace scr::redset
