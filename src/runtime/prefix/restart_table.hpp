// The file list of the checkpoint a restart reads, kept in one file in the
// prefix (<prefix>/.scr/scrpp.files.<id>) instead of in every process.
//
// The listing API (include/scr/scr_ext.h) and a restart at another size let
// any process name any file of the checkpoint, with calls that are local.
// Holding the list in each process costs the job O(processes x files): at
// 100,000 processes of 10 files, 80 MB to 1 GB in every one of them. Here
// one process writes the list once, cut into pieces of about kTablePiece
// files, and the others read only the pieces they need, through a small
// cache: the listing in its order (piece i / kTablePiece), and, for routing,
// the same files bucketed by a hash of their name and of their last
// component. A process holds one piece of each kind at a time.
//
// Layout (docs/formats/prefix.md#the-restart-file-table): the pieces, each a
// metadata tree with its own CRC (FILELIST, RANKS, and in buckets INDEX);
// one little-endian 64-bit offset per piece (listing pieces, name buckets,
// last-component buckets); a metadata tree (FORMAT, WRITERS, FILES, PIECE,
// BUCKETS, OFFSETS); and last the 64-bit offset of that tree.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"

namespace scr::rt {

inline constexpr uint64_t kTablePiece = 1024;

struct TableFile {
  std::string name;  // relative to the prefix
  int rank = 0;      // the process that wrote it
  uint64_t size = 0;
  std::optional<uint32_t> crc;  // CRC32C as recorded, where known
  uint64_t index = 0;           // its position in the listing
};

// <prefix>/.scr/scrpp.files.<id>
inline constexpr const char* kTableFilePrefix = "scrpp.files.";
std::string restart_table_path(const std::string& prefix, int id);

// Writes `files` (in listing order; their `index` is ignored) as a table at
// `path`, replacing what was there. With `lookups`, also the buckets that
// find(), with_basename() read. Not made durable: a table lives for one
// restart, and one left by a crash is swept at the next SCR_Init.
Status write_restart_table(io::Env& env, const std::string& path, int writers,
                           const std::vector<TableFile>& files, bool lookups,
                           uint64_t piece = kTablePiece);

class RestartTable {
 public:
  // Errc::corrupt for a file that is not a table (naming what is wrong).
  // The file is opened for each piece read and closed again: a restart holds
  // no descriptor for it between calls.
  static Result<RestartTable> open(io::Env& env, const std::string& path);

  int writers() const { return writers_; }
  uint64_t size() const { return files_; }
  bool has_lookups() const { return buckets_ > 0; }

  // File `i` of the listing; invalid_argument when i >= size().
  Result<TableFile> at(uint64_t i);
  // The file of that name, or nullopt. Needs lookups.
  Result<std::optional<TableFile>> find(const std::string& name);
  // Names whose last component is `base`. Needs lookups.
  Result<std::vector<std::string>> with_basename(const std::string& base);

 private:
  struct Piece {
    uint64_t number = UINT64_MAX;
    std::vector<TableFile> files;
  };
  Result<const Piece*> load(Piece& slot, uint64_t number);

  io::Env* env_ = nullptr;
  std::string path_;
  int writers_ = 0;
  uint64_t files_ = 0, piece_ = 0, chunks_ = 0, buckets_ = 0, offsets_at_ = 0, end_ = 0;
  Piece listed_, named_, based_;
};

}  // namespace scr::rt
