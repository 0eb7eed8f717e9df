#include "redset/meta.hpp"

#include <set>

#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "kvtree/file_list.hpp"

namespace scr::redset {

kv::FileAttrs attrs_of(const io::FileInfo& info) {
  return {info.mode, info.uid, info.gid, {info.atime.tv_sec, info.atime.tv_nsec},
          {info.mtime.tv_sec, info.mtime.tv_nsec}, {info.ctime.tv_sec, info.ctime.tv_nsec}};
}

io::FileInfo info_of(uint64_t size, const kv::FileAttrs& a) {
  io::FileInfo info;
  info.size = size;
  info.mode = a.mode;
  info.uid = a.uid;
  info.gid = a.gid;
  info.atime = {static_cast<time_t>(a.atime.sec), static_cast<long>(a.atime.nsec)};
  info.mtime = {static_cast<time_t>(a.mtime.sec), static_cast<long>(a.mtime.nsec)};
  info.ctime = {static_cast<time_t>(a.ctime.sec), static_cast<long>(a.ctime.nsec)};
  return info;
}

namespace {
Status check_name(const std::string& name) {
  std::string normal = name.empty() || io::path::is_absolute(name) ? std::string() : io::path::normalize(name);
  if (normal.empty() || normal.rfind("..", 0) == 0 || normal == ".")
    return Error(Errc::invalid_argument,
                 "file name '" + name + "' must be relative and stay inside the dataset directory");
  return Status::Ok();
}
}  // namespace

Result<kv::Tree> describe_files(io::Env& env, const std::string& dir,
                                const std::vector<std::string>& files, size_t crc_piece_size) {
  std::vector<kv::FileRecord> records;
  records.reserve(files.size());
  std::unique_ptr<io::Dir> held = files.empty() ? nullptr : io::held_dir(env, dir);
  for (const auto& name : files) {
    SCR_TRY(check_name(name));
    std::string path = io::path::join(dir, name);
    if (crc_piece_size == 0) {
      // Metadata only: one stat, which sees a link as a link, not its target.
      SCR_ASSIGN_OR_RETURN(io::FileInfo info, io::stat_in(env, held.get(), path));
      if (!info.is_regular()) return Error(Errc::invalid_argument, path + " is not a regular file");
      records.push_back({name, info.size, std::nullopt, false, attrs_of(info)});
      continue;
    }
    // One open per file for its metadata and checksum: it refuses links
    // and anything but a regular file.
    SCR_ASSIGN_OR_RETURN(auto file, io::open_in(env, held.get(), path, io::OpenMode::read));
    SCR_ASSIGN_OR_RETURN(io::FileInfo info, io::info_of(env, *file));
    kv::FileRecord r{name, info.size, std::nullopt, false, attrs_of(info)};
    SCR_ASSIGN_OR_RETURN(r.crc, io::file_crc32c(*file, info.size, crc_piece_size));
    records.push_back(std::move(r));
  }
  return files_tree(records);
}

kv::Tree files_tree(const std::vector<kv::FileRecord>& records) {
  kv::Tree t;
  t.set_int("FILES", static_cast<int64_t>(records.size()));
  kv::put_file_list(t, "FILELIST", records);
  return t;
}

Result<std::vector<FileEntry>> files_from_tree(const kv::Tree& t) {
  SCR_ASSIGN_OR_RETURN(int64_t n, t.get_int("FILES"));
  SCR_ASSIGN_OR_RETURN(std::vector<kv::FileRecord> records, kv::get_file_list(t, "FILELIST"));
  if (n < 0 || static_cast<uint64_t>(n) != records.size())
    return Error(Errc::corrupt, "file list does not match FILES = " + std::to_string(n));
  std::vector<FileEntry> out;
  out.reserve(records.size());
  for (auto& r : records) {
    SCR_TRY(check_name(r.name));
    if (!r.attrs) return Error(Errc::corrupt, "file " + r.name + " has no recorded mode, owner and times");
    io::FileInfo info = info_of(r.size, *r.attrs);
    out.push_back({std::move(r.name), info, r.crc});
  }
  return out;
}

uint64_t total_size(const std::vector<FileEntry>& files) {
  uint64_t sum = 0;
  for (const auto& f : files) sum += f.meta.size;
  return sum;
}

std::vector<std::string> names(const std::vector<FileEntry>& files) {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(f.name);
  return out;
}

CrcCheck check_crcs(io::Env& env, const std::string& dir, const std::vector<FileEntry>& files, size_t piece_size) {
  CrcCheck out;
  for (const auto& f : files) {
    if (!f.crc) continue;
    auto crc = io::file_crc32c(env, io::path::join(dir, f.name), piece_size);
    if (!crc && crc.status().code() == Errc::not_found) continue;  // missing: the rebuild handles it
    (crc && *crc == *f.crc ? out.intact : out.damaged).push_back(f.name);
  }
  return out;
}

bool files_present(io::Env& env, const std::string& dir, const std::vector<FileEntry>& files) {
  std::unique_ptr<io::Dir> held = files.empty() ? nullptr : io::held_dir(env, dir);
  for (const auto& f : files) {
    auto info = io::stat_in(env, held.get(), io::path::join(dir, f.name));
    if (!info || !info->is_regular() || info->size != f.meta.size) return false;
  }
  return true;
}

namespace {
std::vector<io::LogicalFile::Part> parts_of(const std::string& dir,
                                            const std::vector<FileEntry>& files) {
  std::vector<io::LogicalFile::Part> parts;
  for (const auto& f : files) parts.push_back({io::path::join(dir, f.name), f.meta.size});
  return parts;
}
}  // namespace

Result<io::LogicalFile> open_files_read(io::Env& env, const std::string& dir,
                                        const std::vector<FileEntry>& files) {
  return io::LogicalFile::open_read(env, parts_of(dir, files), io::held_dir(env, dir));
}

Result<io::LogicalFile> open_measured_files(io::Env& env, const std::string& dir,
                                             const std::vector<FileEntry>& files) {
  return io::LogicalFile::open_read_measured(env, parts_of(dir, files), io::held_dir(env, dir));
}

Result<io::LogicalFile> open_files_write(io::Env& env, const std::string& dir,
                                         const std::vector<FileEntry>& files) {
  std::set<std::string> made;  // many files share few directories
  for (const auto& f : files)
    if (std::string parent = io::path::dirname(io::path::join(dir, f.name)); made.insert(parent).second)
      SCR_TRY(io::make_dirs(env, parent));
  return io::LogicalFile::open_write(env, parts_of(dir, files), 0600, io::held_dir(env, dir));
}

Status restore_meta(io::Env& env, const std::string& dir, const std::vector<FileEntry>& files) {
  for (const auto& f : files) SCR_TRY(env.set_meta(io::path::join(dir, f.name), f.meta));
  return Status::Ok();
}

namespace {
uint64_t aligned_data_offset(uint64_t header_end) {
  return (header_end + kDataAlign - 1) / kDataAlign * kDataAlign;
}
}  // namespace

Result<Header> read_header(io::Env& env, const std::string& path) {
  SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::read));
  Header h;
  uint64_t end = 0;
  SCR_ASSIGN_OR_RETURN(h.tree, io::read_tree_at(*file, 0, &end));
  if (!h.tree.has("DESC") || !h.tree.has("RANK"))
    return Error(Errc::corrupt, path + ": redundancy header lacks DESC or RANK");
  h.data_offset = aligned_data_offset(end);
  SCR_ASSIGN_OR_RETURN(uint64_t size, file->size());
  if (size < h.data_offset) return Error(Errc::corrupt, path + ": header padding is truncated");
  return h;
}

uint64_t encoded_header_size(const kv::Tree& header) {
  return aligned_data_offset(kv::encode(header).size());
}

Result<uint64_t> write_header(io::File& file, const kv::Tree& header) {
  std::string bytes = kv::encode(header);
  bytes.resize(aligned_data_offset(bytes.size()), '\0');
  SCR_TRY(file.pwrite(bytes.data(), bytes.size(), 0));
  return static_cast<uint64_t>(bytes.size());
}

}  // namespace scr::redset
