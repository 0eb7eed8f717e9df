// A logical file (docs/formats/redset.md): an ordered list of physical files read
// and written as one stream, zero-padded past the end of the real data. The
// redundancy encoders see every process as holding exactly one file of the
// same padded length.
#pragma once

#include <cstdint>
#include <memory>
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
  };

  // Open existing files for reading (sizes are the ones recorded; a physical
  // file shorter than its recorded size is reported as truncated).
  static Result<LogicalFile> open_read(Env& env, std::vector<Part> parts);
  // Create (truncate) files for writing; each will hold exactly its size.
  static Result<LogicalFile> open_write(Env& env, std::vector<Part> parts, uint32_t perms = 0600);

  uint64_t size() const { return total_; }
  const std::vector<Part>& parts() const { return parts_; }

  // Read n bytes at logical offset; bytes past the data are zeros.
  Status read_pad(uint64_t offset, void* buf, size_t n);
  // n bytes at logical offset in place (File::view), when they lie within
  // the data of one part; Errc::unsupported otherwise (use read_pad).
  Result<std::unique_ptr<FileView>> view(uint64_t offset, size_t n);
  // Write n bytes at logical offset; bytes that fall in the padding are dropped.
  Status write_pad(uint64_t offset, const void* buf, size_t n);
  Status sync();
  Status close();

 private:
  std::vector<Part> parts_;
  std::vector<std::unique_ptr<File>> files_;
  std::vector<uint64_t> starts_;  // logical offset of each part
  uint64_t total_ = 0;
  void index();
};

}  // namespace scr::io
