// The benchmark's checkpoint: what an application would write to the cache.
// Content comes from one 4 MiB random block, each piece stamped with its
// offset, so the process never holds more than a block whatever the size
// (peak RSS then shows the redundancy engine's memory, not the data's).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"

namespace scr::bench {

class Checkpoint {
 public:
  Checkpoint(int rank, uint64_t bytes);
  uint64_t bytes() const { return bytes_; }
  // Write the whole checkpoint to path and fsync it.
  Status write(io::Env& env, const std::string& path);
  // CRC32C of the content, computed without writing.
  uint32_t crc() const;

 private:
  static constexpr size_t kBlock = size_t{4} << 20;
  uint64_t bytes_;
  std::vector<uint8_t> block_;
  // The piece at `offset` (at most kBlock bytes) in block_.
  const uint8_t* piece(uint64_t offset);
};

}  // namespace scr::bench
