#include "redset/redset.hpp"

#include <set>

#include "io/files.hpp"
#include "io/path.hpp"
#include "redset/headers.hpp"
#include "redset/pending.hpp"
#include "redset/schemes.hpp"
#include "redset/shape.hpp"

namespace scr::redset {

namespace detail {
namespace {
class Unchanged : public Rebuild {
 public:
  explicit Unchanged(std::vector<FileEntry> files) : files_(std::move(files)) {}
  Result<std::vector<FileEntry>> run() override { return files_; }

 private:
  std::vector<FileEntry> files_;
};
}  // namespace

std::unique_ptr<Rebuild> nothing_to_rebuild(std::vector<FileEntry> files) {
  return std::make_unique<Unchanged>(std::move(files));
}
}  // namespace detail

std::string redundancy_file(const Set& set, const std::string& dir) {
  return io::path::join(io::path::join(dir, kRedundancyDir), set.shape().file_name(set.rank()));
}

std::vector<std::string> redundancy_files(const Set& set) {
  return {io::path::join(kRedundancyDir, set.shape().file_name(set.rank()))};
}

Status apply(io::Env& env, const Set& set, const std::string& dir,
             const std::vector<std::string>& files, std::vector<kv::FileRecord>* recorded,
             const std::string& spare) {
  auto described = describe_files(env, dir, files);
  // Every member must get this far, or the collective encoders would hang.
  SCR_TRY(mpi::agree(set.parent(), described.status()));
  return apply(env, set, dir, std::move(*described), recorded, spare);
}

namespace {
// Name, size and CRC32C of each file, the form a caller keeps.
std::vector<kv::FileRecord> records_of(const std::vector<FileEntry>& files) {
  std::vector<kv::FileRecord> out;
  out.reserve(files.size());
  for (const auto& f : files) {
    kv::FileRecord& r = out.emplace_back();
    r.name = f.name;
    r.size = f.meta.size;
    r.crc = f.crc;
  }
  return out;
}
}  // namespace

Status apply(io::Env& env, const Set& set, const std::string& dir, kv::Tree described,
             std::vector<kv::FileRecord>* recorded, const std::string& spare) {
  std::string redfile = redundancy_file(set, dir);
  std::vector<FileEntry> own;
  Status st;
  switch (set.scheme()) {
    case Scheme::single: st = detail::apply_single(env, set, dir, std::move(described), redfile, spare, own); break;
    case Scheme::partner: st = detail::apply_partner(env, set, dir, std::move(described), redfile, spare, own); break;
    case Scheme::xor_code: st = detail::apply_xor(env, set, dir, std::move(described), redfile, spare, own); break;
    case Scheme::rs: st = detail::apply_rs(env, set, dir, std::move(described), redfile, spare, own); break;
  }
  st = mpi::agree(set.parent(), st);
  if (st.ok() && recorded) *recorded = records_of(own);
  return st;
}

namespace {
detail::Survey survey(io::Env& env, const Set& set, const std::string& dir,
                      const std::string& redfile, bool files_checked) {
  switch (set.scheme()) {
    case Scheme::single: return detail::survey_single(env, set, dir, redfile, files_checked);
    case Scheme::partner: return detail::survey_partner(env, set, dir, redfile, files_checked);
    case Scheme::xor_code: return detail::survey_xor(env, set, dir, redfile, files_checked);
    case Scheme::rs: return detail::survey_rs(env, set, dir, redfile, files_checked);
  }
  return Status(Errc::unsupported, "unknown scheme");
}

// Before the survey: this member's files that no longer match the CRC32C its
// own header recorded are removed, so the scheme counts them lost and
// rebuilds them. True when every file the header lists was read and found
// intact. Without a readable header nothing is checked here (the member is
// lost, and its files are rebuilt and checked as they are written).
bool drop_damaged(io::Env& env, const Set& set, const std::string& dir, const std::string& redfile) {
  auto header = read_header(env, redfile);
  if (!header) return false;
  auto files = entry_files(header->tree, set.rank());
  if (!files) return false;
  CrcCheck checked = check_crcs(env, dir, *files, set.params().piece_size);
  for (const auto& name : checked.damaged) (void)io::remove_file(env, io::path::join(dir, name));
  return checked.intact.size() == files->size();
}

// After a rebuild that did not check files first: this member's own files
// must match the CRC32C its header recorded. A source of a decode checks
// the checksums its read took; a member whose files the rebuild wrote had
// them checked as they were written; any other reads them now.
Status check_after(io::Env& env, const Set& set, const std::string& dir, const detail::Rebuild& rebuild,
                   const std::vector<FileEntry>& files) {
  if (rebuild.wrote_own_files()) return Status::Ok();
  // Presence and size, which the survey left to here, of the files no read
  // opens: those without a checksum (headers from before they were
  // recorded) and empty ones (whose checksum no read can contradict).
  std::vector<FileEntry> unread;
  for (const auto& f : files)
    if (!f.crc || f.meta.size == 0) unread.push_back(f);
  if (!files_present(env, dir, unread))
    return Error(Errc::corrupt, dir + ": a file is missing, not a regular file or of another size");
  std::vector<std::string> damaged;
  if (auto read = rebuild.read_crcs(); read && read->size() == files.size()) {
    for (size_t i = 0; i < files.size(); ++i)
      if (files[i].crc && (*read)[i] != *files[i].crc) damaged.push_back(files[i].name);
  } else {
    // Every file with a checksum must be found intact; one gone since the
    // survey is no better than a damaged one (check_crcs skips missing files).
    CrcCheck checked = check_crcs(env, dir, files, set.params().piece_size);
    std::set<std::string> intact(checked.intact.begin(), checked.intact.end());
    for (const auto& f : files)
      if (f.crc && !intact.count(f.name)) damaged.push_back(f.name);
  }
  if (damaged.empty()) return Status::Ok();
  return Error(Errc::corrupt, io::path::join(dir, damaged.front()) +
                                  " does not match the CRC32C recorded when the scheme was applied");
}

// One attempt. With `check_first` every member first reads its files against
// the CRC32C its own header recorded and removes those that no longer match,
// so they count as lost. Without it the files are checked by the rebuild's
// own reads (check_after), which costs one read less per file; damage then
// fails the attempt, and the caller makes the careful one.
Result<std::vector<FileEntry>> recover_once(io::Env& env, const Set& set, const std::string& dir,
                                            bool check_first) {
  std::string redfile = redundancy_file(set, dir);
  // Without check_first, presence is left to the rebuild's reads too: a
  // file missing or of another size fails the attempt like a damaged one.
  bool files_checked = !check_first || drop_damaged(env, set, dir, redfile);
  auto rebuild = survey(env, set, dir, redfile, files_checked);
  SCR_TRY(mpi::agree(set.parent(), rebuild.status()));
  auto got = (*rebuild)->run();
  SCR_TRY(mpi::agree(set.parent(), got.status()));
  if (!check_first) SCR_TRY(mpi::agree(set.parent(), check_after(env, set, dir, **rebuild, *got)));
  return got;
}

}  // namespace

// Two halves (see schemes.hpp): every set surveys its loss, all agree it can
// be rebuilt, and only then does any set write. Files are checked against
// their CRC32C by the rebuild's own reads, and rebuilt files as they are
// written (PendingFiles), before they take their names. Should any file be
// found damaged (Errc::corrupt), the careful attempt follows: damaged files
// are removed first and count as lost. Other failures (I/O, a loss beyond
// repair) are returned as they are.
Result<std::vector<std::string>> recover(io::Env& env, const Set& set, const std::string& dir,
                                         std::vector<kv::FileRecord>* recorded) {
  auto got = recover_once(env, set, dir, false);
  if (!got && got.status().code() == Errc::corrupt) got = recover_once(env, set, dir, true);
  if (!got) return got.status();
  if (recorded) *recorded = records_of(*got);
  return names(*got);
}

// Also whatever an apply that died part way left behind.
Status unapply(io::Env& env, const Set& set, const std::string& dir) {
  std::string redfile = redundancy_file(set, dir);
  SCR_TRY(io::remove_file(env, pending_path(redfile)));
  return io::remove_file(env, redfile);
}

}  // namespace scr::redset
