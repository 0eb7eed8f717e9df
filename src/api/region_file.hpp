// The file that holds one process's memory regions in a dataset
// (docs/bindings.md#memory-regions): a metadata tree naming every region
// (id, element count and size, an optional type tag, its CRC32C and where
// its bytes start), then the regions' bytes one after the other. The tree's
// own envelope carries a checksum, so a damaged table is found before any
// region is read.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"

namespace scr::api {

// The shape of a region, what protect and restore compare.
struct RegionShape {
  uint64_t count = 0;
  uint64_t elem_size = 0;
  std::string type;  // free text set by a binding ("<f8(10, 20)"); may be empty
  uint64_t bytes() const { return count * elem_size; }
};

// A region as the application protected it.
struct Region {
  void* ptr = nullptr;
  RegionShape shape;
};

// A region as a file describes it.
struct StoredRegion {
  RegionShape shape;
  uint32_t crc32c = 0;
  uint64_t offset = 0;  // of its first byte in the file
};

// Where, relative to SCR_PREFIX, writer `rank` keeps its regions of
// dataset `dataset`; and the reverse (the writer of such a name, or -1).
std::string region_file_name(const std::string& dataset, int rank);
int region_file_writer(const std::string& name);

// Write `regions` (by id) as the regions file of `writer` at path.
Status write_region_file(io::Env& env, const std::string& path, int writer,
                         const std::map<int, Region>& regions);

// An open regions file: its table, checked against the writer it must be.
class RegionFile {
 public:
  static Result<RegionFile> open(io::Env& env, const std::string& path, int writer);
  const std::map<int, StoredRegion>& regions() const { return regions_; }
  // Read region `id` fully and check its CRC32C without keeping the bytes,
  // so a damaged region is refused before anything is copied.
  Status verify(int id);
  // Copy region `id` into dst (its stored size), checking the CRC32C again.
  Status read_into(int id, void* dst);

 private:
  std::unique_ptr<io::File> file_;
  std::map<int, StoredRegion> regions_;
};

}  // namespace scr::api
