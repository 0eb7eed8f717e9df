#include "api/region_file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/crc32c.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "kvtree/codec.hpp"

namespace scr::api {
namespace {

constexpr const char* kFormat = "scrpp-regions";
constexpr int64_t kVersion = 1;
constexpr const char* kDir = "/.regions/rank_";
constexpr const char* kSuffix = ".regions";

// The CRC32C of a region's bytes as they lie in the file, in pieces.
Result<uint32_t> crc_of_stored(io::File& file, const StoredRegion& r, void* dst) {
  std::vector<char> piece(dst ? 0 : std::min<uint64_t>(r.shape.bytes(), io::kDefaultPieceSize));
  uint32_t crc = 0;
  for (uint64_t done = 0; done < r.shape.bytes();) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(r.shape.bytes() - done, io::kDefaultPieceSize));
    char* into = dst ? static_cast<char*>(dst) + done : piece.data();
    SCR_TRY(file.pread_exact(into, n, r.offset + done));
    crc = crc32c(into, n, crc);
    done += n;
  }
  return crc;
}

Status damaged(const std::string& path, int id, const std::string& why) {
  return Error(Errc::corrupt, path + ": region " + std::to_string(id) + " " + why);
}

}  // namespace

std::string region_file_name(const std::string& dataset, int rank) {
  return dataset + kDir + std::to_string(rank) + kSuffix;
}

int region_file_writer(const std::string& name) {
  size_t at = name.rfind(kDir);
  // The dataset directory is the first component: a name deeper than that
  // is an application's own file that happens to look alike.
  if (at == std::string::npos || at == 0 || name.find('/') != at) return -1;
  std::string tail = name.substr(at + std::strlen(kDir));
  size_t digits = tail.find_first_not_of("0123456789");
  if (digits == 0 || digits == std::string::npos || tail.substr(digits) != kSuffix) return -1;
  // A digit run too long for a rank is no regions file of SCR++'s.
  auto rank = str::parse_int(tail.substr(0, digits));
  return rank && *rank <= INT32_MAX ? static_cast<int>(*rank) : -1;
}

Status write_region_file(io::Env& env, const std::string& path, int writer,
                         const std::map<int, Region>& regions) {
  kv::Tree header;
  header.set("FORMAT", kFormat);
  header.set_int("VERSION", kVersion);
  header.set_int("WRITER", writer);
  uint64_t offset = 0;  // from the end of the header
  for (const auto& [id, r] : regions) {
    kv::Tree& t = header.child("REGION", id);
    t.set_uint("COUNT", r.shape.count);
    t.set_uint("ELEM_SIZE", r.shape.elem_size);
    if (!r.shape.type.empty()) t.set("TYPE", r.shape.type);
    t.set_uint("OFFSET", offset);
    t.set_uint("CRC32C", crc32c(r.ptr, r.shape.bytes()));
    offset += r.shape.bytes();
  }
  std::string head = kv::encode(header);
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::create));
  SCR_TRY(file->pwrite(head.data(), head.size(), 0));
  offset = head.size();
  for (const auto& [id, r] : regions) {
    SCR_TRY(file->pwrite(r.ptr, r.shape.bytes(), offset));
    offset += r.shape.bytes();
  }
  return file->close();
}

Result<RegionFile> RegionFile::open(io::Env& env, const std::string& path, int writer) {
  RegionFile rf;
  SCR_ASSIGN_OR_RETURN(rf.file_, env.open(path, io::OpenMode::read));
  uint64_t data_start = 0;
  SCR_ASSIGN_OR_RETURN(kv::Tree header, io::read_tree_at(*rf.file_, 0, &data_start));
  if (header.value_or("FORMAT", "") != kFormat || header.int_or("VERSION", -1) != kVersion)
    return Error(Errc::corrupt, path + " is not a regions file of version " + std::to_string(kVersion));
  if (header.int_or("WRITER", -1) != writer)
    return Error(Errc::corrupt, path + " holds the regions of rank " + header.value_or("WRITER", "?") +
                                    ", not of rank " + std::to_string(writer));
  SCR_ASSIGN_OR_RETURN(uint64_t size, rf.file_->size());
  if (const kv::Tree* list = header.get("REGION")) {
    for (int64_t id : list->int_keys()) {
      const kv::Tree& t = *list->get(std::to_string(id));
      StoredRegion r;
      r.shape.count = t.uint_or("COUNT", 0);
      r.shape.elem_size = t.uint_or("ELEM_SIZE", 0);
      r.shape.type = t.value_or("TYPE", "");
      r.crc32c = static_cast<uint32_t>(t.uint_or("CRC32C", 0));
      r.offset = data_start + t.uint_or("OFFSET", 0);
      if (r.shape.elem_size == 0 || r.shape.count > UINT64_MAX / r.shape.elem_size)
        return damaged(path, static_cast<int>(id), "has no valid size");
      if (r.offset < data_start || r.offset > size || r.shape.bytes() > size - r.offset)
        return damaged(path, static_cast<int>(id), "lies beyond the end of the file (truncated)");
      rf.regions_[static_cast<int>(id)] = r;
    }
  }
  return rf;
}

Status RegionFile::verify(int id) {
  const StoredRegion& r = regions_.at(id);
  SCR_ASSIGN_OR_RETURN(uint32_t crc, crc_of_stored(*file_, r, nullptr));
  return crc == r.crc32c ? Status::Ok() : damaged(file_->path(), id, "fails its checksum");
}

Status RegionFile::read_into(int id, void* dst) {
  const StoredRegion& r = regions_.at(id);
  SCR_ASSIGN_OR_RETURN(uint32_t crc, crc_of_stored(*file_, r, dst));
  // verify() passed moments ago: a difference now means the file changed
  // under us, which is reported rather than ignored.
  return crc == r.crc32c ? Status::Ok() : damaged(file_->path(), id, "changed while it was read");
}

}  // namespace scr::api
