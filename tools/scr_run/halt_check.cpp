#include "tools/scr_run/halt_check.hpp"

#include "io/files.hpp"
#include "runtime/prefix/halt_file.hpp"
#include "runtime/prefix/identity.hpp"
#include "tools/common/job_id.hpp"

namespace scr::tools::run {

std::string known_job_id(io::Env& env, const rt::Settings& settings) {
  auto id = existing_job_id(env, settings);
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
