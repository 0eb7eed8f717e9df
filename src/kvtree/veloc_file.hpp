// ECP-VeloC KVTree's file format: the form in which SCR 3.1 writes its prefix
// metadata (index, dataset summaries, rank-to-file maps, halt file). Its
// trees are SCR++'s trees (kvtree/tree.hpp: string keys, each owning a
// subtree), so a file decodes into a Tree and back. The byte layout is in
// docs/formats/scr31.md:
//
//   u32 magic 0x951fc3f5, u16 type 1, u16 version 1,
//   u64 file size (header, tree and checksum), u32 flags (1: CRC32 at end),
//   the tree: u32 count, then per child its key, NUL, and its tree,
//   u32 CRC32 (zlib's) of every byte before it.
//
// Integers are big-endian. An empty file is an empty tree, as KVTree reads it.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "common/status.hpp"
#include "kvtree/tree.hpp"

namespace scr::kv::veloc {

inline constexpr uint32_t kMagic = 0x951fc3f5;
inline constexpr size_t kHeaderSize = 20;

// True when `bytes` start with KVTree's magic number (or are empty): a file
// to read with decode() rather than with SCR++'s own codec.
bool looks_like(std::span<const std::byte> bytes);

// Errc::corrupt naming the problem for a bad header, a size that disagrees
// with the bytes, a failed checksum, a tree running past its bytes, bytes
// left over after it, or nesting deeper than kv::kMaxDepth.
Result<Tree> decode(std::span<const std::byte> bytes);
inline Result<Tree> decode(const std::string& bytes) {
  return decode(std::as_bytes(std::span(bytes.data(), bytes.size())));
}

// The file KVTree would write for `tree` (children in SCR++'s sorted order,
// checksum flag set).
std::string encode(const Tree& tree);

}  // namespace scr::kv::veloc
