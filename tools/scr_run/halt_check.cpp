#include "tools/scr_run/halt_check.hpp"

#include "io/files.hpp"
#include "runtime/halt_file.hpp"
#include "runtime/identity.hpp"

namespace scr::tools::run {
namespace {

// Reads pass through; anything that would write fails, so
// rt::resolve_job_id can only report an id that already exists.
class ReadOnlyEnv : public io::EnvWrapper {
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

 private:
  static Status refuse(const std::string& path) {
    return Error(Errc::permission, "read-only: not changing " + path);
  }
};

}  // namespace

std::string known_job_id(io::Env& env, const rt::Settings& settings) {
  ReadOnlyEnv ro(env);
  auto id = rt::resolve_job_id(ro, settings);
  return id ? *id : "";
}

Result<HaltVerdict> read_verdict(io::Env& env, const rt::Settings& settings) {
  auto halt = rt::read_halt(env, settings.prefix);
  if (!halt) return Error(Errc::corrupt, halt.status().message());
  HaltVerdict v;
  v.stop_reason = rt::halt_reason_now(*halt, settings);
  if (auto fin = halt->value("FINALIZED")) {
    std::string job = known_job_id(env, settings);
    if (job.empty() || job == *fin) v.finalized = *fin;
  }
  return v;
}

Result<std::string> clear_stale_finalized(io::Env& env, const rt::Settings& settings) {
  std::string job = known_job_id(env, settings);
  std::string cleared;
  Status st = rt::update_halt(env, settings.prefix, [&](kv::Tree& halt) {
    auto fin = halt.value("FINALIZED");
    if (fin && !job.empty() && *fin == job) {
      cleared = *fin;
      halt.erase("FINALIZED");
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(Errc::corrupt, st.message());
  return cleared;
}

}  // namespace scr::tools::run
