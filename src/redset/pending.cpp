#include "redset/pending.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "io/files.hpp"
#include "io/path.hpp"

namespace scr::redset {
namespace {
constexpr const char* kPendingSuffix = ".redset-tmp";

// A spare written over keeps its old bytes past the new content's end: the
// file remembers where the furthest write ended, so commit() can cut there.
class EndTrackingFile final : public io::File {
 public:
  explicit EndTrackingFile(std::unique_ptr<io::File> file) : file_(std::move(file)) {}
  const uint64_t* end() const { return &end_; }

  Result<size_t> pread(void* buf, size_t n, uint64_t offset) override { return file_->pread(buf, n, offset); }
  Status pwrite(const void* buf, size_t n, uint64_t offset) override {
    SCR_TRY(file_->pwrite(buf, n, offset));
    end_ = std::max(end_, offset + n);
    return Status::Ok();
  }
  Status sync() override { return file_->sync(); }
  Status close() override { return file_->close(); }
  Result<uint64_t> size() override { return file_->size(); }
  const std::string& path() const override { return file_->path(); }
  Result<io::FileInfo> info() override { return file_->info(); }
  Status set_meta(const io::FileInfo& meta) override { return file_->set_meta(meta); }
  Status truncate(uint64_t size) override { return file_->truncate(size); }
  Result<std::unique_ptr<io::FileView>> view(uint64_t offset, size_t n) override {
    return file_->view(offset, n);
  }

 private:
  std::unique_ptr<io::File> file_;
  uint64_t end_ = 0;
};

// The spare under the temporary name, open for writing over; nothing when
// there is no spare, it is not a regular file (the open never follows a
// symlink), or it has another name too: then a new file is made instead.
std::unique_ptr<EndTrackingFile> take_spare(io::Env& env, const std::string& spare, const std::string& temp) {
  if (spare.empty() || !env.rename(spare, temp).ok()) return nullptr;
  auto file = env.open(temp, io::OpenMode::read_write, 0600);
  if (file) {
    auto info = (*file)->info();
    // Written over only when this is its one name: a second one (a hard
    // link an operator made to keep the old redundancy data, `cp -al` of
    // the cache) would see its bytes change.
    if (info && info->is_regular() && info->links == 1) return std::make_unique<EndTrackingFile>(std::move(*file));
    (void)(*file)->close();
  }
  (void)io::remove_file(env, temp);
  return nullptr;
}
}  // namespace

std::string pending_path(const std::string& path) { return path + kPendingSuffix; }

Result<PendingRedundancy> PendingRedundancy::create(io::Env& env, const std::string& path,
                                                    const kv::Tree& header, const std::string& spare) {
  PendingRedundancy out;
  out.env_ = &env;
  out.path_ = path;
  // A member without files of its own may have no dataset directory yet.
  SCR_TRY(io::make_dirs(env, io::path::dirname(path)));
  if (auto reused = take_spare(env, spare, pending_path(path))) {
    out.written_end_ = reused->end();
    out.file_ = std::move(reused);
  } else {
    SCR_ASSIGN_OR_RETURN(out.file_, env.open(pending_path(path), io::OpenMode::create, 0600));
  }
  SCR_ASSIGN_OR_RETURN(out.data_offset_, write_header(*out.file_, header));
  return out;
}

Status PendingRedundancy::rewrite_header(const kv::Tree& header) {
  if (encoded_header_size(header) != data_offset_)
    return Error(Errc::corrupt, path_ + ": the header changed size when its checksums were filled in");
  return write_header(*file_, header).status();
}

// The moved-from object must not delete the temporary it handed over.
PendingRedundancy::PendingRedundancy(PendingRedundancy&& o) noexcept
    : env_(std::exchange(o.env_, nullptr)),
      path_(std::move(o.path_)),
      file_(std::move(o.file_)),
      data_offset_(o.data_offset_),
      written_end_(o.written_end_),
      committed_(o.committed_) {}

PendingRedundancy::~PendingRedundancy() {
  if (!env_ || committed_) return;
  if (file_) (void)file_->close();
  (void)io::remove_file(*env_, pending_path(path_));
}

Status PendingRedundancy::commit() {
  if (written_end_) SCR_TRY(file_->truncate(*written_end_));
  SCR_TRY(file_->sync());
  SCR_TRY(file_->close());
  SCR_TRY(env_->rename(pending_path(path_), path_));
  committed_ = true;
  return env_->sync_dir(io::path::dirname(path_));
}

Result<PendingFiles> PendingFiles::create(io::Env& env, const std::string& dir,
                                          std::vector<FileEntry> files, const std::string& redfile) {
  PendingFiles out;
  out.env_ = &env;
  out.dir_ = dir;
  out.files_ = std::move(files);
  std::vector<io::LogicalFile::Part> parts;
  std::set<std::string> made;  // many files share few directories
  for (const auto& f : out.files_) {
    std::string final_path = io::path::join(dir, f.name);
    if (std::string parent = io::path::dirname(final_path); made.insert(parent).second)
      SCR_TRY(io::make_dirs(env, parent));
    parts.push_back({final_path, f.meta.size, f.meta});
  }
  SCR_TRY(io::make_dirs(env, io::path::dirname(redfile)));
  auto temp_path = [base = pending_path(redfile)](size_t i) { return base + "." + std::to_string(i); };
  SCR_ASSIGN_OR_RETURN(out.logical_,
                       io::LogicalFile::open_write_new(env, std::move(parts), temp_path, 0600, io::held_dir(env, dir)));
  out.logical_.track_crcs();
  // A lost member's files are made durable together by commit(), not each
  // by an fsync of its own: one syncfs instead of one per rebuilt file.
  out.logical_.leave_sync_to_owner();
  return out;
}

PendingFiles::PendingFiles(PendingFiles&& o) noexcept
    : env_(std::exchange(o.env_, nullptr)),
      dir_(std::move(o.dir_)),
      files_(std::move(o.files_)),
      logical_(std::move(o.logical_)),
      committed_(o.committed_) {}

PendingFiles::~PendingFiles() {
  if (!env_ || committed_) return;
  (void)logical_.close();
  // The parts, not files_: create() may have failed before it opened them.
  for (size_t i = 0; i < logical_.parts().size(); ++i)
    if (logical_.created(i)) (void)io::remove_file(*env_, logical_.parts()[i].path);
}

Status PendingFiles::commit() {
  SCR_ASSIGN_OR_RETURN(auto crcs, logical_.part_crcs(io::kDefaultPieceSize));
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i].crc && crcs[i] != *files_[i].crc)
      return Error(Errc::corrupt, io::path::join(dir_, files_[i].name) +
                                      " does not match the CRC32C recorded when the scheme was applied "
                                      "(the redundancy data is damaged)");
  SCR_TRY(logical_.sync());  // creates any part never written (empty files)
  SCR_TRY(logical_.close());
  // One syncfs makes every rebuilt file's data and every directory made
  // durable, instead of an fsync per file as it was closed. It comes before
  // the renames: a temporary renamed over an existing file is complete on
  // disk first, so that name never shows a partial copy; a second syncfs
  // then makes the renames durable.
  SCR_TRY(env_->sync_fs(dir_));
  bool changed = false;  // by a rename or metadata set after that syncfs
  for (size_t i = 0; i < files_.size(); ++i) {
    std::string final_path = io::path::join(dir_, files_[i].name);
    const std::string& written = logical_.parts()[i].path;
    if (written != final_path) SCR_TRY(env_->rename(written, final_path));
    if (!logical_.meta_applied(i)) SCR_TRY(env_->set_meta(final_path, files_[i].meta));
    changed = changed || written != final_path || !logical_.meta_applied(i);
  }
  committed_ = true;
  if (changed) SCR_TRY(env_->sync_fs(dir_));  // those changes, durable in turn
  return Status::Ok();
}

}  // namespace scr::redset
