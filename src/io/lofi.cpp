#include "io/lofi.hpp"

#include <algorithm>
#include <cstring>

#include "common/crc32c.hpp"
#include "io/files.hpp"

namespace scr::io {

void LogicalFile::index() {
  starts_.clear();
  total_ = 0;
  for (const auto& p : parts_) {
    starts_.push_back(total_);
    total_ += p.size;
  }
  files_.resize(parts_.size());
  states_.assign(parts_.size(), State::unopened);
  written_.assign(parts_.size(), 0);
  meta_applied_.assign(parts_.size(), false);
}

Result<LogicalFile> LogicalFile::open_read(Env& env, std::vector<Part> parts, std::unique_ptr<Dir> dir) {
  LogicalFile lf;
  lf.env_ = &env;
  lf.dir_ = std::move(dir);
  lf.parts_ = std::move(parts);
  for (const auto& p : lf.parts_) {
    SCR_ASSIGN_OR_RETURN(FileInfo info, stat_in(env, lf.dir_.get(), p.path));
    if (!info.is_regular()) return Error(Errc::invalid_argument, "open " + p.path + ": not a regular file");
    if (info.size < p.size)
      return Error(Errc::corrupt, p.path + " is truncated: " + std::to_string(info.size) +
                                      " bytes, expected " + std::to_string(p.size));
  }
  lf.index();
  return lf;
}

Result<LogicalFile> LogicalFile::open_read_measured(Env& env, std::vector<Part> parts,
                                                    std::unique_ptr<Dir> dir) {
  LogicalFile lf;
  lf.env_ = &env;
  lf.dir_ = std::move(dir);
  lf.parts_ = std::move(parts);
  lf.exact_sizes_ = true;
  lf.index();
  return lf;
}

Result<LogicalFile> LogicalFile::open_write(Env& env, std::vector<Part> parts, uint32_t perms,
                                            std::unique_ptr<Dir> dir) {
  LogicalFile lf;
  lf.env_ = &env;
  lf.dir_ = std::move(dir);
  lf.writing_ = true;
  lf.perms_ = perms;
  lf.parts_ = std::move(parts);
  lf.index();
  return lf;
}

Result<LogicalFile> LogicalFile::open_write_new(Env& env, std::vector<Part> parts,
                                               std::function<std::string(size_t)> temp_path, uint32_t perms,
                                               std::unique_ptr<Dir> dir) {
  SCR_ASSIGN_OR_RETURN(LogicalFile lf, open_write(env, std::move(parts), perms, std::move(dir)));
  lf.temp_path_ = std::move(temp_path);
  return lf;
}

Status LogicalFile::finish_part(size_t i) {
  if (!writing_ || !parts_[i].meta || meta_applied_[i] || written_[i] < parts_[i].size) return Status::Ok();
  Status st = files_[i]->set_meta(*parts_[i].meta);
  if (st.code() == Errc::unsupported) st = env_->set_meta(parts_[i].path, *parts_[i].meta);
  meta_applied_[i] = st.ok();
  return st;
}

Status LogicalFile::retire(size_t i) {
  Status st = writing_ && sync_parts_ ? files_[i]->sync() : Status::Ok();
  if (st.ok()) st = finish_part(i);
  Status closed = files_[i]->close();
  files_[i].reset();
  states_[i] = State::done;
  open_order_.erase(std::find(open_order_.begin(), open_order_.end(), i));
  return st.ok() ? closed : st;
}

Result<File*> LogicalFile::part(size_t i) {
  if (states_[i] == State::open) return files_[i].get();
  if (open_order_.size() >= kMaxOpenParts) SCR_TRY(retire(open_order_.front()));
  // A written part closed before is reopened without truncating it.
  OpenMode mode = !writing_ ? OpenMode::read : states_[i] == State::done ? OpenMode::read_write : OpenMode::create;
  // A part with meta is created with its mode (and owner-writable), so
  // that setting the mode later costs nothing.
  uint32_t perms = parts_[i].meta ? (parts_[i].meta->mode & 0777) | 0600 : perms_;
  if (mode == OpenMode::create && temp_path_) {
    auto fresh = open_in(*env_, dir_.get(), parts_[i].path, OpenMode::create_excl, perms);
    if (fresh) files_[i] = std::move(*fresh);
    else parts_[i].path = temp_path_(i);  // something is there already: never touched
  }
  if (!files_[i]) {
    auto opened = open_in(*env_, dir_.get(), parts_[i].path, mode, perms);
    // A measured part gone, or replaced by a symlink or anything but a
    // regular file, is as damaged as one cut short (a device error is not).
    if (!opened && exact_sizes_ && opened.status().code() != Errc::io_error)
      return Error(Errc::corrupt, opened.status().message());
    if (!opened) return opened.status();
    files_[i] = std::move(*opened);
  }
  if (!writing_) {
    // Checked before the part counts as open: a later call must fail the
    // same way, never read a part that failed its check.
    Status checked = check_read_part(i);
    if (!checked.ok()) {
      (void)files_[i]->close();
      files_[i].reset();
      return checked;
    }
  }
  if (mode == OpenMode::read_write) meta_applied_[i] = false;  // written again
  states_[i] = State::open;
  open_order_.push_back(i);
  return files_[i].get();
}

Status LogicalFile::check_read_part(size_t i) {
  SCR_ASSIGN_OR_RETURN(FileInfo info, info_of(*env_, *files_[i]));
  if (info.size < parts_[i].size)
    return Error(Errc::corrupt, parts_[i].path + " is truncated: " + std::to_string(info.size) +
                                    " bytes, expected " + std::to_string(parts_[i].size));
  if (exact_sizes_ && info.size != parts_[i].size)
    return Error(Errc::corrupt, parts_[i].path + " has grown: " + std::to_string(info.size) +
                                    " bytes, expected " + std::to_string(parts_[i].size));
  return Status::Ok();
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
    SCR_ASSIGN_OR_RETURN(File* f, part(i));
    SCR_TRY(f->pread_exact(out, take, in_part));
    if (tracking_) note_crc(i, in_part, out, take);
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
  SCR_ASSIGN_OR_RETURN(File* f, part(i));
  SCR_ASSIGN_OR_RETURN(auto mapped, f->view(in_part, n));
  if (tracking_) note_crc(i, in_part, mapped->data(), mapped->size());
  return mapped;
}

void LogicalFile::note_crc(size_t part, uint64_t start, const void* data, size_t n) {
  // Sequential reads of one part extend its last segment.
  if (!crc_segments_.empty()) {
    CrcSegment& last = crc_segments_.back();
    if (last.part == part && last.start + last.len == start) {
      last.crc = crc32c(data, n, last.crc);
      last.len += n;
      return;
    }
  }
  crc_segments_.push_back({part, start, n, crc32c(data, n)});
}

Result<std::vector<uint32_t>> LogicalFile::part_crcs(size_t piece_size) {
  std::stable_sort(crc_segments_.begin(), crc_segments_.end(),
                   [](const CrcSegment& a, const CrcSegment& b) {
                     return a.part != b.part ? a.part < b.part : a.start < b.start;
                   });
  std::vector<uint32_t> crcs(parts_.size(), 0);
  auto seg = crc_segments_.begin();
  for (size_t i = 0; i < parts_.size(); ++i) {
    uint64_t covered = 0;
    uint32_t crc = 0;
    bool whole = true;
    for (; seg != crc_segments_.end() && seg->part == i; ++seg) {
      if (seg->start != covered) whole = false;  // a gap, or a range read twice
      if (!whole) continue;
      crc = covered == 0 ? seg->crc : crc32c_combine(crc, seg->crc, seg->len);
      covered += seg->len;
    }
    if (whole && covered == parts_[i].size) {
      crcs[i] = crc;
      continue;
    }
    SCR_ASSIGN_OR_RETURN(File* f, part(i));
    SCR_ASSIGN_OR_RETURN(crcs[i], file_crc32c(*f, parts_[i].size, piece_size));
  }
  crc_segments_.clear();
  crc_segments_.shrink_to_fit();
  return crcs;
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
    SCR_ASSIGN_OR_RETURN(File* f, part(i));
    SCR_TRY(f->pwrite(in, take, in_part));
    if (tracking_) note_crc(i, in_part, in, take);
    written_[i] += take;
    in += take;
    offset += take;
    n -= take;
    ++i;
  }
  return Status::Ok();
}

Status LogicalFile::sync() {
  if (!writing_) return Status::Ok();
  for (size_t i = 0; i < parts_.size(); ++i) {
    if (states_[i] == State::done) continue;  // synced when it was closed
    SCR_ASSIGN_OR_RETURN(File* f, part(i));   // a part never written is created
    if (sync_parts_) SCR_TRY(f->sync());
  }
  return Status::Ok();
}

Status LogicalFile::close() {
  Status first;
  auto note = [&](const Status& st) {
    if (first.ok() && !st.ok()) first = st;
  };
  for (size_t i = 0; i < parts_.size(); ++i) {
    if (writing_ && states_[i] == State::unopened) note(part(i).status());
    if (states_[i] != State::open) continue;
    note(finish_part(i));
    note(files_[i]->close());
    files_[i].reset();
    states_[i] = State::done;
  }
  open_order_.clear();
  return first;
}

}  // namespace scr::io
