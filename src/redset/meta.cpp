#include "redset/meta.hpp"

#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"

namespace scr::redset {

kv::Tree meta_to_tree(const io::FileInfo& info) {
  kv::Tree t;
  t.set_uint("SIZE", info.size);
  t.set_uint("MODE", info.mode);
  t.set_uint("UID", info.uid);
  t.set_uint("GID", info.gid);
  t.set_int("ATIME_SECS", info.atime.tv_sec);
  t.set_int("ATIME_NSECS", info.atime.tv_nsec);
  t.set_int("MTIME_SECS", info.mtime.tv_sec);
  t.set_int("MTIME_NSECS", info.mtime.tv_nsec);
  t.set_int("CTIME_SECS", info.ctime.tv_sec);
  t.set_int("CTIME_NSECS", info.ctime.tv_nsec);
  return t;
}

io::FileInfo meta_from_tree(const kv::Tree& t) {
  io::FileInfo info;
  info.size = t.uint_or("SIZE", 0);
  info.mode = static_cast<uint32_t>(t.uint_or("MODE", 0100600));
  info.uid = static_cast<uint32_t>(t.uint_or("UID", 0));
  info.gid = static_cast<uint32_t>(t.uint_or("GID", 0));
  info.atime = {static_cast<time_t>(t.int_or("ATIME_SECS", 0)), t.int_or("ATIME_NSECS", 0)};
  info.mtime = {static_cast<time_t>(t.int_or("MTIME_SECS", 0)), t.int_or("MTIME_NSECS", 0)};
  info.ctime = {static_cast<time_t>(t.int_or("CTIME_SECS", 0)), t.int_or("CTIME_NSECS", 0)};
  return info;
}

namespace {
Status check_name(const std::string& name) {
  if (name.empty() || io::path::is_absolute(name) ||
      io::path::normalize(name).rfind("..", 0) == 0 || io::path::normalize(name) == ".")
    return Error(Errc::invalid_argument,
                 "file name '" + name + "' must be relative and stay inside the dataset directory");
  return Status::Ok();
}
}  // namespace

Result<kv::Tree> describe_files(io::Env& env, const std::string& dir,
                                const std::vector<std::string>& files, size_t crc_piece_size) {
  kv::Tree t;
  t.set_int("FILES", static_cast<int64_t>(files.size()));
  kv::Tree& list = t.child("FILE");
  for (size_t i = 0; i < files.size(); ++i) {
    SCR_TRY(check_name(files[i]));
    SCR_ASSIGN_OR_RETURN(io::FileInfo info, env.stat(io::path::join(dir, files[i])));
    if (!info.is_regular())
      return Error(Errc::invalid_argument, files[i] + " is not a regular file");
    kv::Tree meta = meta_to_tree(info);
    if (crc_piece_size > 0) {
      SCR_ASSIGN_OR_RETURN(uint32_t crc,
                           io::file_crc32c(env, io::path::join(dir, files[i]), crc_piece_size));
      meta.set_uint("CRC", crc);
    }
    list.child(std::to_string(i)).put(files[i], std::move(meta));
  }
  return t;
}

Result<std::vector<FileEntry>> files_from_tree(const kv::Tree& t) {
  SCR_ASSIGN_OR_RETURN(int64_t n, t.get_int("FILES"));
  const kv::Tree* list = t.get("FILE");
  if (n < 0 || (n > 0 && (!list || static_cast<int64_t>(list->size()) != n)))
    return Error(Errc::corrupt, "file list does not match FILES = " + std::to_string(n));
  std::vector<FileEntry> out;
  for (int64_t i = 0; i < n; ++i) {
    const kv::Tree* entry = list->get(std::to_string(i));
    if (!entry || entry->size() != 1)
      return Error(Errc::corrupt, "file entry " + std::to_string(i) + " is missing");
    const auto& [name, meta] = *entry->children().begin();
    SCR_TRY(check_name(name));
    FileEntry f{name, meta_from_tree(*meta), std::nullopt};
    if (meta->has("CRC")) {
      SCR_ASSIGN_OR_RETURN(uint64_t crc, meta->get_uint("CRC"));
      if (crc > UINT32_MAX) return Error(Errc::corrupt, "CRC of " + name + " is out of range");
      f.crc = static_cast<uint32_t>(crc);
    }
    out.push_back(std::move(f));
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

std::vector<std::string> damaged_files(io::Env& env, const std::string& dir,
                                       const std::vector<FileEntry>& files, size_t piece_size) {
  std::vector<std::string> bad;
  for (const auto& f : files) {
    if (!f.crc) continue;
    std::string path = io::path::join(dir, f.name);
    if (!env.exists(path)) continue;  // missing, not damaged: the rebuild handles it
    auto crc = io::file_crc32c(env, path, piece_size);
    if (!crc || *crc != *f.crc) bad.push_back(f.name);
  }
  return bad;
}

bool files_present(io::Env& env, const std::string& dir, const std::vector<FileEntry>& files) {
  for (const auto& f : files) {
    auto info = env.stat(io::path::join(dir, f.name));
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
  return io::LogicalFile::open_read(env, parts_of(dir, files));
}

Result<io::LogicalFile> open_files_write(io::Env& env, const std::string& dir,
                                         const std::vector<FileEntry>& files) {
  for (const auto& f : files)
    SCR_TRY(io::make_dirs(env, io::path::dirname(io::path::join(dir, f.name))));
  return io::LogicalFile::open_write(env, parts_of(dir, files));
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

Result<uint64_t> write_header(io::File& file, const kv::Tree& header) {
  std::string bytes = kv::encode(header);
  bytes.resize(aligned_data_offset(bytes.size()), '\0');
  SCR_TRY(file.pwrite(bytes.data(), bytes.size(), 0));
  return static_cast<uint64_t>(bytes.size());
}

}  // namespace scr::redset
