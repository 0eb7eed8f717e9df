#include "io/lofi.hpp"

#include <algorithm>
#include <cstring>

namespace scr::io {

void LogicalFile::index() {
  starts_.clear();
  total_ = 0;
  for (const auto& p : parts_) {
    starts_.push_back(total_);
    total_ += p.size;
  }
}

Result<LogicalFile> LogicalFile::open_read(Env& env, std::vector<Part> parts) {
  LogicalFile lf;
  lf.parts_ = std::move(parts);
  for (const auto& p : lf.parts_) {
    SCR_ASSIGN_OR_RETURN(auto f, env.open(p.path, OpenMode::read));
    SCR_ASSIGN_OR_RETURN(uint64_t actual, f->size());
    if (actual < p.size)
      return Error(Errc::corrupt, p.path + " is truncated: " + std::to_string(actual) +
                                      " bytes, expected " + std::to_string(p.size));
    lf.files_.push_back(std::move(f));
  }
  lf.index();
  return lf;
}

Result<LogicalFile> LogicalFile::open_write(Env& env, std::vector<Part> parts, uint32_t perms) {
  LogicalFile lf;
  lf.parts_ = std::move(parts);
  for (const auto& p : lf.parts_) {
    SCR_ASSIGN_OR_RETURN(auto f, env.open(p.path, OpenMode::create, perms));
    lf.files_.push_back(std::move(f));
  }
  lf.index();
  return lf;
}

Status LogicalFile::read_pad(uint64_t offset, void* buf, size_t n) {
  auto* out = static_cast<char*>(buf);
  // First part whose range may contain offset.
  size_t i = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                                 starts_.begin());
  i = i == 0 ? 0 : i - 1;
  while (n > 0) {
    if (offset >= total_ || i >= parts_.size()) {
      std::memset(out, 0, n);
      return Status::Ok();
    }
    uint64_t in_part = offset - starts_[i];
    if (in_part >= parts_[i].size) {  // empty part, or past it
      ++i;
      continue;
    }
    size_t take = static_cast<size_t>(std::min<uint64_t>(n, parts_[i].size - in_part));
    SCR_TRY(files_[i]->pread_exact(out, take, in_part));
    out += take;
    offset += take;
    n -= take;
    ++i;
  }
  return Status::Ok();
}

Result<std::unique_ptr<FileView>> LogicalFile::view(uint64_t offset, size_t n) {
  size_t i = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                                 starts_.begin());
  // The last part starting at or before offset is the only one that can hold
  // it (empty parts share its start and hold nothing).
  if (i == 0 || n == 0 || offset + n > total_)
    return Error(Errc::unsupported, "range is not inside one file");
  --i;
  uint64_t in_part = offset - starts_[i];
  if (in_part + n > parts_[i].size) return Error(Errc::unsupported, "range is not inside one file");
  return files_[i]->view(in_part, n);
}

Status LogicalFile::write_pad(uint64_t offset, const void* buf, size_t n) {
  const auto* in = static_cast<const char*>(buf);
  size_t i = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                                 starts_.begin());
  i = i == 0 ? 0 : i - 1;
  while (n > 0 && offset < total_ && i < parts_.size()) {
    uint64_t in_part = offset - starts_[i];
    if (in_part >= parts_[i].size) {
      ++i;
      continue;
    }
    size_t take = static_cast<size_t>(std::min<uint64_t>(n, parts_[i].size - in_part));
    SCR_TRY(files_[i]->pwrite(in, take, in_part));
    in += take;
    offset += take;
    n -= take;
    ++i;
  }
  return Status::Ok();
}

Status LogicalFile::sync() {
  for (auto& f : files_) SCR_TRY(f->sync());
  return Status::Ok();
}

Status LogicalFile::close() {
  Status first;
  for (auto& f : files_) {
    Status st = f->close();
    if (first.ok() && !st.ok()) first = st;
  }
  return first;
}

}  // namespace scr::io
