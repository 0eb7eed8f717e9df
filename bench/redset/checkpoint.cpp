#include "checkpoint.hpp"

#include <algorithm>
#include <cstring>
#include <random>

#include "common/crc32c.hpp"

namespace scr::bench {

Checkpoint::Checkpoint(int rank, uint64_t bytes) : bytes_(bytes), block_(kBlock) {
  std::mt19937_64 rng(static_cast<uint64_t>(rank) * 0x9e3779b97f4a7c15ull + 1);
  for (size_t i = 0; i < kBlock; i += 8) {
    uint64_t v = rng();
    std::memcpy(&block_[i], &v, 8);
  }
}

const uint8_t* Checkpoint::piece(uint64_t offset) {
  std::memcpy(block_.data(), &offset, sizeof offset);
  return block_.data();
}

Status Checkpoint::write(io::Env& env, const std::string& path) {
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::create, 0600));
  for (uint64_t off = 0; off < bytes_; off += kBlock) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(kBlock, bytes_ - off));
    SCR_TRY(file->pwrite(piece(off), n, off));
  }
  SCR_TRY(file->sync());
  return file->close();
}

uint32_t Checkpoint::crc() const {
  Checkpoint copy(*this);
  uint32_t crc = 0;
  for (uint64_t off = 0; off < bytes_; off += kBlock) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(kBlock, bytes_ - off));
    crc = crc32c(copy.piece(off), n, crc);
  }
  return crc;
}

}  // namespace scr::bench
