// Files that apply and recover write appear only when complete: they are
// written under a temporary name and renamed into place by commit(). A failure
// part way leaves the old file or none, never a half-written file that looks
// whole (a header is written first, so a torn redundancy file would otherwise
// pass every check). An uncommitted temporary is removed on destruction.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/lofi.hpp"
#include "kvtree/tree.hpp"
#include "redset/meta.hpp"

namespace scr::redset {

// Where a file is written until it is committed.
std::string pending_path(const std::string& path);

// A redundancy file: the header, then scheme data from data_offset().
class PendingRedundancy {
 public:
  // `spare`, if not empty and present, is renamed to the temporary name and
  // written over instead of a new file (its pages reused), then cut at the
  // end of the furthest write by commit(); every byte below it must be
  // written, as every scheme writes its whole layout.
  static Result<PendingRedundancy> create(io::Env& env, const std::string& path,
                                          const kv::Tree& header, const std::string& spare = {});
  PendingRedundancy(PendingRedundancy&& o) noexcept;
  PendingRedundancy& operator=(PendingRedundancy&&) = delete;
  ~PendingRedundancy();

  io::File& file() { return *file_; }
  uint64_t data_offset() const { return data_offset_; }
  // Writes the header again over the first one; it must encode to the same
  // size (the checksum slots filled after the encode keep their width).
  Status rewrite_header(const kv::Tree& header);
  // fsync, close, rename over the final name.
  Status commit();

 private:
  PendingRedundancy() = default;
  io::Env* env_ = nullptr;
  std::string path_;
  std::unique_ptr<io::File> file_;
  uint64_t data_offset_ = 0;
  const uint64_t* written_end_ = nullptr;  // set when a spare is written over
  bool committed_ = false;
};

// A lost member's data files, rebuilt as one logical file. A file that does
// not exist is written in place; one that exists (a copy left by an
// interrupted rebuild, or an intact file of a member that lost only its
// redundancy file) is replaced only by commit(), through a temporary named
// after the member's redundancy file (in SCR++'s own directory, where no
// application file can be) and a rename. Every file gets its mode, owner and times
// through its descriptor, and must match its recorded CRC32C (taken as the
// bytes are written) before commit() succeeds; otherwise every file this
// object created is removed.
class PendingFiles {
 public:
  // `redfile`: the path of the member's redundancy file.
  static Result<PendingFiles> create(io::Env& env, const std::string& dir,
                                     std::vector<FileEntry> files, const std::string& redfile);
  PendingFiles(PendingFiles&& o) noexcept;
  PendingFiles& operator=(PendingFiles&&) = delete;
  ~PendingFiles();

  io::LogicalFile& logical() { return logical_; }
  const std::vector<FileEntry>& files() const { return files_; }
  // Check the CRC32Cs, close, make the files durable (one syncfs of their
  // file system), rename temporaries into place.
  Status commit();

 private:
  PendingFiles() = default;
  io::Env* env_ = nullptr;
  std::string dir_;
  std::vector<FileEntry> files_;
  io::LogicalFile logical_;
  bool committed_ = false;
};

}  // namespace scr::redset
