// Every file operation in SCR++ goes through an Env, so tests can swap in a
// FaultEnv that fails the N-th write, reports ENOSPC, or "crashes" between two
// steps (see fault_env.hpp). PosixEnv is the real thing.
//
// Security rules enforced here, once: files are opened with O_NOFOLLOW and
// O_CLOEXEC, so a symlink planted in shared tmpfs is never followed at the last
// component; new files default to mode 0600 and new directories to 0700.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace scr::io {

struct FileInfo {
  uint64_t size = 0;
  uint32_t mode = 0;  // st_mode, type bits included
  uint32_t uid = 0;
  uint32_t gid = 0;
  timespec atime{};
  timespec mtime{};
  timespec ctime{};
  uint64_t links = 0;  // st_nlink: names the file has
  bool is_regular() const;
  bool is_dir() const;
  bool is_symlink() const;
};

// Bytes of a file seen in place (File::view), valid until destroyed.
class FileView {
 public:
  virtual ~FileView() = default;
  virtual const uint8_t* data() const = 0;
  virtual size_t size() const = 0;
};

// An open file. Not thread-safe; one owner at a time.
class File {
 public:
  virtual ~File() = default;
  // Reads up to n bytes at offset; returns the count (0 at end of file).
  virtual Result<size_t> pread(void* buf, size_t n, uint64_t offset) = 0;
  // Writes all n bytes at offset or fails (a short write is retried, then EIO).
  virtual Status pwrite(const void* buf, size_t n, uint64_t offset) = 0;
  virtual Status sync() = 0;
  virtual Status close() = 0;
  virtual Result<uint64_t> size() = 0;
  virtual const std::string& path() const = 0;
  // fstat of the open file, and Env::set_meta done on it: no path lookup,
  // which a copy of many small files pays for on every call. Errc::unsupported
  // (the default) where a file cannot: callers then use the path.
  virtual Result<FileInfo> info();
  virtual Status set_meta(const FileInfo& meta);
  // Cut (or extend) the open file to `size` bytes, without a path lookup
  // that could follow a link. Errc::unsupported (the default) where a file
  // cannot.
  virtual Status truncate(uint64_t size);

  // Reads exactly n bytes or fails naming the file as truncated.
  Status pread_exact(void* buf, size_t n, uint64_t offset);

  // n bytes at offset, read-only and in place (memory-mapped) rather than
  // copied, for encoders streaming large files; the range must lie within
  // the file. Errc::unsupported (the default) when this file cannot be
  // mapped: callers then pread.
  virtual Result<std::unique_ptr<FileView>> view(uint64_t offset, size_t n);
};

enum class OpenMode {
  read,            // existing file, read only
  create,          // create or truncate, write only
  create_excl,     // create, fail if it exists
  read_write,      // existing file, read and write
  append,          // create if absent, write only; every write lands at the
                   // end (O_APPEND), whatever offset it names, in one piece
};

// A directory held open while many files below it are opened or stat'ed:
// each name is looked up from the directory, not walked from the root again
// (on tmpfs that walk is a third of what opening a small file costs). Names
// are relative, already checked to stay inside; errors name the full path.
// The same rules as Env's: the last component is never followed.
class Dir {
 public:
  virtual ~Dir() = default;
  virtual const std::string& path() const = 0;
  virtual Result<std::unique_ptr<File>> open(const std::string& name, OpenMode mode,
                                             uint32_t perms = 0600) = 0;
  virtual Result<FileInfo> stat(const std::string& name) = 0;
};

// An exclusive advisory lock an Env holds on a lock file (io::FileLock owns
// one); destroying it releases the lock.
class HeldLock {
 public:
  virtual ~HeldLock() = default;
};

class Env {
 public:
  virtual ~Env() = default;
  // The process-wide real file system.
  static Env& posix();

  virtual Result<std::unique_ptr<File>> open(const std::string& path, OpenMode mode,
                                             uint32_t perms = 0600) = 0;
  // lstat: never follows a symlink.
  virtual Result<FileInfo> stat(const std::string& path) = 0;
  virtual Status rename(const std::string& from, const std::string& to) = 0;
  virtual Status unlink(const std::string& path) = 0;
  virtual Status mkdir(const std::string& path, uint32_t perms = 0700) = 0;
  virtual Status rmdir(const std::string& path) = 0;
  // Entry names (not paths), excluding "." and "..", sorted.
  virtual Result<std::vector<std::string>> list_dir(const std::string& path) = 0;
  // fsync a directory so a rename or create inside it is durable.
  virtual Status sync_dir(const std::string& path) = 0;
  // Make durable everything written to the file system holding `path` (a
  // directory), its directories included (syncfs): one call where many
  // files were written into one cache, instead of an fsync each.
  virtual Status sync_fs(const std::string& path) = 0;
  virtual Status truncate(const std::string& path, uint64_t size) = 0;
  // Restore mode, owner (when permitted) and access/modify times.
  virtual Status set_meta(const std::string& path, const FileInfo& meta) = 0;
  // An exclusive advisory lock (flock) on the file at `path`, created 0600
  // when absent, never through a symlink. `wait`: block until it is held;
  // else Errc::bad_state, with the text its holder wrote, when another
  // process holds it. `holder`, unless empty, is then written into the file
  // (who holds it: host, pid, job). Errc::unsupported where the file system
  // has no flock.
  virtual Result<std::unique_ptr<HeldLock>> lock(const std::string& path, bool wait,
                                                 const std::string& holder) = 0;
  // The directory at path, held open. This default looks each name up
  // through this Env by its full path, so that a wrapper (a FaultEnv) still
  // sees every path; PosixEnv holds a real descriptor.
  virtual Result<std::unique_ptr<Dir>> open_dir(const std::string& path);

  bool exists(const std::string& path);
};

// `path` opened (or stat'ed) through `dir` when it lies below it, else
// through env by its full path; dir may be null.
Result<std::unique_ptr<File>> open_in(Env& env, Dir* dir, const std::string& path, OpenMode mode,
                                      uint32_t perms = 0600);
Result<FileInfo> stat_in(Env& env, Dir* dir, const std::string& path);
// env.open_dir(path), or null where it cannot be held open: callers then
// fall back to full paths, which fail as before if the directory is gone.
std::unique_ptr<Dir> held_dir(Env& env, const std::string& path);

// Forwards every call to a target; fault and test Envs override what they break.
class EnvWrapper : public Env {
 public:
  explicit EnvWrapper(Env& target) : target_(target) {}
  Env& target() { return target_; }

  Result<std::unique_ptr<File>> open(const std::string& path, OpenMode mode,
                                     uint32_t perms) override {
    return target_.open(path, mode, perms);
  }
  Result<FileInfo> stat(const std::string& path) override { return target_.stat(path); }
  Status rename(const std::string& from, const std::string& to) override {
    return target_.rename(from, to);
  }
  Status unlink(const std::string& path) override { return target_.unlink(path); }
  Status mkdir(const std::string& path, uint32_t perms) override {
    return target_.mkdir(path, perms);
  }
  Status rmdir(const std::string& path) override { return target_.rmdir(path); }
  Result<std::vector<std::string>> list_dir(const std::string& path) override {
    return target_.list_dir(path);
  }
  Status sync_dir(const std::string& path) override { return target_.sync_dir(path); }
  Status sync_fs(const std::string& path) override { return target_.sync_fs(path); }
  Status truncate(const std::string& path, uint64_t size) override {
    return target_.truncate(path, size);
  }
  Result<std::unique_ptr<HeldLock>> lock(const std::string& path, bool wait,
                                         const std::string& holder) override {
    return target_.lock(path, wait, holder);
  }
  Status set_meta(const std::string& path, const FileInfo& meta) override {
    return target_.set_meta(path, meta);
  }

 private:
  Env& target_;
};

// errno -> Status with the operation and path named.
Status errno_status(int err, const std::string& op, const std::string& path);

}  // namespace scr::io
