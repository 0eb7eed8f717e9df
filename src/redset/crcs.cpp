#include "redset/crcs.hpp"

#include <cstring>
#include <string>

#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/file_list.hpp"
#include "mpi/comm.hpp"
#include "mpi/tags.hpp"
#include "redset/agree.hpp"

namespace scr::redset {

Status set_file_crcs(kv::Tree& files, const std::vector<uint32_t>& crcs) {
  SCR_ASSIGN_OR_RETURN(std::string_view list, kv::file_list_bytes(files, "FILELIST"));
  SCR_ASSIGN_OR_RETURN(std::string with, kv::with_file_list_crcs(list, crcs));
  files.set("FILELIST", std::move(with));
  return Status::Ok();
}

std::vector<FileEntry> with_crcs(std::vector<FileEntry> files, const std::vector<uint32_t>& crcs) {
  for (size_t i = 0; i < files.size() && i < crcs.size(); ++i) files[i].crc = crcs[i];
  return files;
}

Status reserve_file_crcs(kv::Tree& files) {
  return set_file_crcs(files, std::vector<uint32_t>(static_cast<size_t>(files.uint_or("FILES", 0)), 0));
}

Result<std::vector<uint32_t>> read_file_crcs(io::Env& env, const std::string& dir,
                                             const std::vector<FileEntry>& files, size_t piece_size) {
  std::vector<uint32_t> crcs;
  crcs.reserve(files.size());
  for (const auto& f : files) {
    std::string path = io::path::join(dir, f.name);
    SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::read));
    SCR_ASSIGN_OR_RETURN(io::FileInfo info, io::info_of(env, *file));
    if (info.size != f.meta.size)
      return Error(Errc::corrupt, path + " changed size while its dataset was being completed");
    SCR_ASSIGN_OR_RETURN(uint32_t crc, io::file_crc32c(*file, info.size, piece_size));
    crcs.push_back(crc);
  }
  return crcs;
}

namespace {
std::string pack(const std::vector<uint32_t>& crcs) {
  std::string out(crcs.size() * sizeof(uint32_t), '\0');
  if (!crcs.empty()) std::memcpy(out.data(), crcs.data(), out.size());
  return out;
}

Result<std::vector<uint32_t>> unpack(const std::string& bytes) {
  if (bytes.size() % sizeof(uint32_t) != 0) return Error(Errc::corrupt, "checksum list has a partial entry");
  std::vector<uint32_t> crcs(bytes.size() / sizeof(uint32_t));
  if (!crcs.empty()) std::memcpy(crcs.data(), bytes.data(), bytes.size());
  return crcs;
}

Status fill_entry(kv::Tree& header, int member, const std::vector<uint32_t>& crcs) {
  kv::Tree* entry = header.at({"DESC", std::to_string(member)});
  if (!entry) return Error(Errc::corrupt, "header has no entry for set member " + std::to_string(member));
  return set_file_crcs(*entry, crcs);
}
}  // namespace

Status record_encoded_crcs(const Set& set, io::LogicalFile& data, kv::Tree& header, int width,
                           PendingRedundancy& red, std::vector<uint32_t>& own) {
  auto crcs = data.part_crcs(set.params().piece_size);
  SCR_TRY(agree_in_set(set, crcs.status()));
  own = std::move(*crcs);
  Status st = fill_entry(header, set.rank(), own);
  kv::Tree mine;
  mine.set("CRCS", pack(own));
  for (int d = 1; d <= width; ++d) {
    kv::Tree theirs =
        mpi::sendrecv_tree(set.comm(), mine, set.right(d), set.left(d), mpi::tags::kEntryCrcs + d);
    auto left = unpack(theirs.value_or("CRCS", ""));
    if (st.ok()) st = left.ok() ? fill_entry(header, set.left(d), *left) : left.status();
  }
  if (st.ok()) st = red.rewrite_header(header);
  return agree_in_set(set, st);
}

}  // namespace scr::redset
