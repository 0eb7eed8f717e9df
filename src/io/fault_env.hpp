// An Env that breaks on purpose, for tests. Counts mutating steps (each write,
// sync, rename, unlink, mkdir, truncate, set_meta, lock) and can:
//  - fail the N-th write with a chosen errno (ENOSPC, EIO),
//  - make the N-th write short (half the bytes reach the file, then EIO),
//  - "crash" at step N (or at the N-th step on a path containing a pattern):
//    that step and every later mutating step are dropped and fail, as if the
//    process had died there. Reads keep working so a test
//    can inspect what a crash left behind.
// The runtime wraps its Env in one when SCR_FAULT_INJECT is set (tests only),
//  - kill the process (SIGKILL, a real crash) when it creates the N-th file
//    whose path contains a pattern, e.g. "kill:.redset:3" dies while writing
//    its third redundancy file, in the middle of SCR_Complete_output.
// with the syntax "write:N:ENOSPC", "write:N:EIO", "write:PATTERN:N:ENOSPC"
// (every write to a path containing PATTERN, e.g. one node's cache, from the
// N-th on),
// "short:N", "crash:N", "crash:PATTERN:N", "kill:PATTERN:N".
#pragma once

#include <atomic>
#include <string>

#include "io/env.hpp"

namespace scr::io {

class FaultEnv : public EnvWrapper {
 public:
  enum class Kind { none, fail_write, short_write, crash, kill };

  explicit FaultEnv(Env& target) : EnvWrapper(target) {}

  // The N-th write; with a pattern, every write to a path containing it from
  // the N-th such write on (a full file system stays full).
  void fail_write(int n, int err, const std::string& pattern = {}) {
    arm(Kind::fail_write, n, err);
    pattern_ = pattern;
  }
  void short_write(int n) { arm(Kind::short_write, n, EIO); }
  // The N-th step; with a pattern, the N-th step on a path containing it
  // (a crash in the middle of one phase, the flush into one directory, say).
  void crash_at_step(int n, const std::string& pattern = {}) {
    arm(Kind::crash, n, EIO);
    pattern_ = pattern;
  }
  void kill_at_create(const std::string& pattern, int n) {
    arm(Kind::kill, n, 0);
    pattern_ = pattern;
  }
  void disarm() { kind_ = Kind::none; }
  // Parse the SCR_FAULT_INJECT syntax above.
  Status configure(const std::string& spec);

  // Count the files opened for reading whose path contains `pattern` (a
  // test's check that something is not read again).
  void count_reads(const std::string& pattern) { read_pattern_ = pattern; }
  int reads() const { return reads_; }

  int steps() const { return steps_; }
  int writes() const { return writes_; }
  bool crashed() const { return crashed_; }

  // Called by FaultFile for each write; returns the bytes to let through
  // (n, fewer, or 0) and the error to report afterwards, if any.
  Status on_write(const std::string& path, size_t n, size_t* allowed);
  Status on_step(const std::string& op, const std::string& path);

  Result<std::unique_ptr<File>> open(const std::string& path, OpenMode mode,
                                     uint32_t perms) override;
  Status rename(const std::string& from, const std::string& to) override;
  Status unlink(const std::string& path) override;
  Status mkdir(const std::string& path, uint32_t perms) override;
  Status rmdir(const std::string& path) override;
  Status sync_dir(const std::string& path) override;
  Status sync_fs(const std::string& path) override;
  Result<std::unique_ptr<HeldLock>> lock(const std::string& path, bool wait,
                                         const std::string& holder) override;
  Status truncate(const std::string& path, uint64_t size) override;
  Status set_meta(const std::string& path, const FileInfo& meta) override;

 private:
  // Steps and writes count from here: a test arms the faults part way
  // through a run, and "the N-th step" means the N-th one after that.
  void arm(Kind kind, int n, int err) {
    kind_ = kind;
    trigger_ = n;
    err_ = err;
    matches_ = 0;
    steps_ = 0;
    writes_ = 0;
  }
  Kind kind_ = Kind::none;
  int trigger_ = 0;
  int err_ = EIO;
  std::string pattern_;
  std::atomic<int> matches_{0};
  std::atomic<int> steps_{0};
  std::atomic<int> writes_{0};
  std::atomic<bool> crashed_{false};
  std::string read_pattern_;
  std::atomic<int> reads_{0};
};

}  // namespace scr::io
