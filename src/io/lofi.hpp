// A logical file (docs/formats/redset.md): an ordered list of physical files read
// and written as one stream, zero-padded past the end of the real data. The
// redundancy encoders see every process as holding exactly one file of the
// same padded length.
//
// Parts are opened when first touched and at most kMaxOpenParts are open at
// once (the least recently opened is closed first, after an fsync when it
// was written): a checkpoint of 10,000 files per process must not need
// 10,000 descriptors, far above the usual limit of 1,024.
//
// Given a directory held open (`dir`, optional), parts below it are opened
// and checked through it: one lookup per part instead of a walk from the root.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"

namespace scr::io {

class LogicalFile {
 public:
  struct Part {
    std::string path;
    uint64_t size = 0;
    // Writing: owner, mode and times given to the file through its open
    // descriptor once its last byte is written (no path lookup per file).
    std::optional<FileInfo> meta;
  };

  static constexpr size_t kMaxOpenParts = 64;

  // Existing files for reading, each checked now (sizes are the ones
  // recorded; a physical file shorter than its recorded size is reported as
  // truncated, a missing one or one that is not a regular file as such).
  static Result<LogicalFile> open_read(Env& env, std::vector<Part> parts, std::unique_ptr<Dir> dir = nullptr);
  // The same for files the caller has measured (a checkpoint being
  // protected, one being rebuilt): each is checked only when first read,
  // saving a stat per file, and must have exactly its recorded size (bytes
  // past it were never protected).
  static Result<LogicalFile> open_read_measured(Env& env, std::vector<Part> parts,
                                                std::unique_ptr<Dir> dir = nullptr);
  // Files for writing, created (truncated) when first written, or by sync()
  // or close() if never written; each will hold exactly its size.
  static Result<LogicalFile> open_write(Env& env, std::vector<Part> parts, uint32_t perms = 0600,
                                        std::unique_ptr<Dir> dir = nullptr);
  // The same, but no existing file is touched: a part is created where it
  // is named when nothing is there, else written to temp_path(i) (parts()
  // then names that temporary; the caller renames it into place).
  static Result<LogicalFile> open_write_new(Env& env, std::vector<Part> parts,
                                            std::function<std::string(size_t)> temp_path,
                                            uint32_t perms = 0600, std::unique_ptr<Dir> dir = nullptr);
  LogicalFile() = default;
  LogicalFile(LogicalFile&&) noexcept = default;
  LogicalFile& operator=(LogicalFile&&) noexcept = default;

  uint64_t size() const { return total_; }
  const std::vector<Part>& parts() const { return parts_; }

  // Read n bytes at logical offset; bytes past the data are zeros.
  Status read_pad(uint64_t offset, void* buf, size_t n);
  // n bytes at logical offset in place (File::view), when they lie within
  // the data of one part; Errc::unsupported otherwise (use read_pad).
  Result<std::unique_ptr<FileView>> view(uint64_t offset, size_t n);
  // Write n bytes at logical offset; bytes that fall in the padding are dropped.
  Status write_pad(uint64_t offset, const void* buf, size_t n);
  // Writing: every part exists and its data is durable (unless
  // leave_sync_to_owner() was called).
  Status sync();
  // Writing: no part is fsync'd, neither when it is closed nor by sync():
  // the owner makes them durable at once (Env::sync_fs) once all are
  // written, one call instead of one per part.
  void leave_sync_to_owner() { sync_parts_ = false; }
  Status close();

  // From now on, take the CRC32C of each part from the bytes as read_pad
  // and view hand them out, or as write_pad takes them, in whatever order
  // (an encode reads chunk by chunk), so a checksum costs no second read.
  void track_crcs() { tracking_ = true; }
  // The CRC32C of every part. A part whose bytes were not each read (or
  // written) exactly once since track_crcs() is read back here, in pieces of
  // piece_size.
  Result<std::vector<uint32_t>> part_crcs(size_t piece_size);

  // Writing: part i was created by this object (and may be removed by it).
  bool created(size_t i) const { return states_[i] != State::unopened; }
  // Writing: part i got its Part::meta through its descriptor.
  bool meta_applied(size_t i) const { return meta_applied_[i]; }

 private:
  // The CRC32C of bytes [start, start + len) of one part.
  struct CrcSegment {
    size_t part;
    uint64_t start, len;
    uint32_t crc;
  };
  void note_crc(size_t part, uint64_t start, const void* data, size_t n);

  enum class State : uint8_t { unopened, open, done };
  // Part i, opened if needed (closing the oldest open part beyond the cap).
  Result<File*> part(size_t i);
  Status retire(size_t i);  // fsync (when writing) and close an open part
  Status check_read_part(size_t i);  // the size of part i, just opened for reading
  Status finish_part(size_t i);  // writing: its meta, once every byte is written
  void index();

  Env* env_ = nullptr;
  std::unique_ptr<Dir> dir_;  // may be null: parts by their full paths
  bool writing_ = false;
  bool exact_sizes_ = false;  // open_read_measured: a part of another size is corrupt
  uint32_t perms_ = 0600;
  std::vector<Part> parts_;
  std::vector<std::unique_ptr<File>> files_;
  std::vector<State> states_;
  std::vector<size_t> open_order_;  // open parts, oldest first
  std::vector<uint64_t> starts_;    // logical offset of each part
  uint64_t total_ = 0;
  std::function<std::string(size_t)> temp_path_;  // open_write_new
  std::vector<uint64_t> written_;     // bytes written to each part
  std::vector<bool> meta_applied_;
  bool tracking_ = false;
  bool sync_parts_ = true;  // writing: fsync each part (else its owner syncs)
  std::vector<CrcSegment> crc_segments_;  // in the order read
};

}  // namespace scr::io
