#include "io/fault_env.hpp"

#include <cerrno>
#include <csignal>

#include "common/strings.hpp"

namespace scr::io {
namespace {

class FaultFile final : public File {
 public:
  FaultFile(std::unique_ptr<File> inner, FaultEnv& env) : inner_(std::move(inner)), env_(env) {}

  Result<size_t> pread(void* buf, size_t n, uint64_t offset) override {
    return inner_->pread(buf, n, offset);
  }
  Status pwrite(const void* buf, size_t n, uint64_t offset) override {
    size_t allowed = n;
    Status fault = env_.on_write(path(), n, &allowed);
    if (allowed > 0) SCR_TRY(inner_->pwrite(buf, allowed, offset));
    return fault;
  }
  Status sync() override {
    SCR_TRY(env_.on_step("fsync", path()));
    return inner_->sync();
  }
  Status close() override { return inner_->close(); }
  Result<uint64_t> size() override { return inner_->size(); }
  const std::string& path() const override { return inner_->path(); }
  Result<FileInfo> info() override { return inner_->info(); }
  Status set_meta(const FileInfo& meta) override {
    SCR_TRY(env_.on_step("set metadata", path()));
    return inner_->set_meta(meta);
  }
  Status truncate(uint64_t size) override {
    SCR_TRY(env_.on_step("truncate", path()));
    return inner_->truncate(size);
  }
  // Faults are injected into mutations only; reading in place is passed on.
  Result<std::unique_ptr<FileView>> view(uint64_t offset, size_t n) override {
    return inner_->view(offset, n);
  }

 private:
  std::unique_ptr<File> inner_;
  FaultEnv& env_;
};

}  // namespace

Status FaultEnv::configure(const std::string& spec) {
  auto parts = str::split(spec, ':');
  auto bad = [&] {
    return Error(Errc::invalid_argument,
                 "SCR_FAULT_INJECT='" + spec +
                     "': expected write:N:ENOSPC|EIO, write:PATTERN:N:ENOSPC|EIO, short:N, crash:N, "
                     "crash:PATTERN:N or kill:PATTERN:N");
  };
  auto errno_of = [](const std::string& name) { return name == "ENOSPC" ? ENOSPC : name == "EIO" ? EIO : 0; };
  if (parts.size() == 4 && parts[0] == "write") {
    auto n = str::parse_int(parts[2]);
    int err = errno_of(parts[3]);
    if (!n || *n < 1 || parts[1].empty() || !err) return bad();
    fail_write(static_cast<int>(*n), err, parts[1]);
    return Status::Ok();
  }
  if (parts.size() == 3 && parts[0] == "crash") {
    auto n = str::parse_int(parts[2]);
    if (!n || *n < 1 || parts[1].empty()) return bad();
    crash_at_step(static_cast<int>(*n), parts[1]);
    return Status::Ok();
  }
  if (parts.size() == 3 && parts[0] == "kill") {
    auto n = str::parse_int(parts[2]);
    if (!n || *n < 1 || parts[1].empty()) return bad();
    kill_at_create(parts[1], static_cast<int>(*n));
    return Status::Ok();
  }
  if (parts.size() < 2) return bad();
  auto n = str::parse_int(parts[1]);
  if (!n || *n < 1) return bad();
  int at = static_cast<int>(*n);
  if (parts[0] == "write" && parts.size() == 3) {
    int err = errno_of(parts[2]);
    if (!err) return bad();
    fail_write(at, err);
  } else if (parts[0] == "short" && parts.size() == 2) {
    short_write(at);
  } else if (parts[0] == "crash" && parts.size() == 2) {
    crash_at_step(at);
  } else {
    return bad();
  }
  return Status::Ok();
}

Status FaultEnv::on_write(const std::string& path, size_t n, size_t* allowed) {
  int w = ++writes_;
  Status step = on_step("write", path);
  if (!step.ok()) {
    *allowed = 0;
    return step;
  }
  // With a pattern, only writes to matching paths count, and every one from
  // the N-th on fails: a full file system stays full.
  bool hit = pattern_.empty() ? w == trigger_
                              : path.find(pattern_) != std::string::npos && ++matches_ >= trigger_;
  if (kind_ == Kind::fail_write && hit) {
    *allowed = 0;
    return errno_status(err_, "write (injected fault)", path);
  }
  if (kind_ == Kind::short_write && w == trigger_) {
    *allowed = n / 2;
    return errno_status(EIO, "short write (injected fault)", path);
  }
  *allowed = n;
  return Status::Ok();
}

Status FaultEnv::on_step(const std::string& op, const std::string& path) {
  int s = ++steps_;
  if (kind_ == Kind::crash &&
      (pattern_.empty() ? s >= trigger_
                        : path.find(pattern_) != std::string::npos && ++matches_ >= trigger_))
    crashed_ = true;
  if (crashed_) return Error(Errc::io_error, op + " " + path + ": process crashed (injected fault)");
  return Status::Ok();
}

Result<std::unique_ptr<File>> FaultEnv::open(const std::string& path, OpenMode mode,
                                             uint32_t perms) {
  if (mode == OpenMode::read && !read_pattern_.empty() && path.find(read_pattern_) != std::string::npos)
    ++reads_;
  if (mode != OpenMode::read) {
    if (kind_ == Kind::kill && path.find(pattern_) != std::string::npos && ++matches_ == trigger_)
      ::raise(SIGKILL);
    SCR_TRY(on_step("create", path));
  }
  SCR_ASSIGN_OR_RETURN(auto file, EnvWrapper::open(path, mode, perms));
  return std::unique_ptr<File>(std::make_unique<FaultFile>(std::move(file), *this));
}

Status FaultEnv::rename(const std::string& from, const std::string& to) {
  SCR_TRY(on_step("rename", from));
  return EnvWrapper::rename(from, to);
}
Status FaultEnv::unlink(const std::string& path) {
  SCR_TRY(on_step("delete", path));
  return EnvWrapper::unlink(path);
}
Status FaultEnv::mkdir(const std::string& path, uint32_t perms) {
  SCR_TRY(on_step("mkdir", path));
  return EnvWrapper::mkdir(path, perms);
}
Status FaultEnv::rmdir(const std::string& path) {
  SCR_TRY(on_step("rmdir", path));
  return EnvWrapper::rmdir(path);
}
Status FaultEnv::sync_dir(const std::string& path) {
  SCR_TRY(on_step("fsync directory", path));
  return EnvWrapper::sync_dir(path);
}
Status FaultEnv::sync_fs(const std::string& path) {
  SCR_TRY(on_step("sync file system", path));
  return EnvWrapper::sync_fs(path);
}
Status FaultEnv::truncate(const std::string& path, uint64_t size) {
  SCR_TRY(on_step("truncate", path));
  return EnvWrapper::truncate(path, size);
}
Result<std::unique_ptr<HeldLock>> FaultEnv::lock(const std::string& path, bool wait,
                                                  const std::string& holder) {
  SCR_TRY(on_step("lock", path));
  return EnvWrapper::lock(path, wait, holder);
}
Status FaultEnv::set_meta(const std::string& path, const FileInfo& meta) {
  SCR_TRY(on_step("set metadata", path));
  return EnvWrapper::set_meta(path, meta);
}

}  // namespace scr::io
