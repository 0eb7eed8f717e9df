#include "tools/common/job_id.hpp"

#include "runtime/prefix/identity.hpp"

namespace scr::tools {
namespace {

// Reads pass through; anything that would change the file system fails.
class ReadOnlyEnv final : public io::EnvWrapper {
 public:
  using EnvWrapper::EnvWrapper;
  Result<std::unique_ptr<io::File>> open(const std::string& path, io::OpenMode mode,
                                         uint32_t perms) override {
    if (mode != io::OpenMode::read) return refuse(path);
    return EnvWrapper::open(path, mode, perms);
  }
  Status rename(const std::string& from, const std::string&) override { return refuse(from); }
  Status unlink(const std::string& path) override { return refuse(path); }
  Status mkdir(const std::string& path, uint32_t) override { return refuse(path); }
  Status rmdir(const std::string& path) override { return refuse(path); }
  Status truncate(const std::string& path, uint64_t) override { return refuse(path); }
  Status set_meta(const std::string& path, const io::FileInfo&) override { return refuse(path); }
  Result<std::unique_ptr<io::HeldLock>> lock(const std::string& path, bool, const std::string&) override {
    return refuse(path);
  }

 private:
  static Status refuse(const std::string& path) {
    return Error(Errc::permission, "read-only: not changing " + path);
  }
};

}  // namespace

Result<std::string> existing_job_id(io::Env& env, const rt::Settings& settings) {
  ReadOnlyEnv read_only(env);
  return rt::resolve_job_id(read_only, settings);
}

}  // namespace scr::tools
