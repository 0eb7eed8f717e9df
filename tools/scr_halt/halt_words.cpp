#include "tools/scr_halt/halt_words.hpp"

#include "runtime/prefix/halt_file.hpp"
#include "tools/common/times.hpp"
#include "tools/scr_halt/halt_edit.hpp"

namespace scr::tools::halt {
namespace {

std::string when(int64_t t, int64_t now) {
  std::string at = local_time(t);
  if (t > now) return at + " (in " + duration_words(t - now) + ")";
  if (t < now) return at + " (" + duration_words(now - t) + " ago)";
  return at + " (now)";
}

std::string plural(int64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::vector<std::string> describe(const kv::Tree& halt, int64_t now) {
  std::vector<std::string> out;
  if (auto r = halt.value(kReason)) out.push_back("halt now, reason: " + *r + " [" + kReason + "]");
  if (halt.has(kCheckpoints)) {
    int64_t n = halt.int_or(kCheckpoints, 0);
    out.push_back((n > 0 ? "halt after " + plural(n, "more checkpoint")
                         : std::string("halt now: the requested checkpoints are done")) +
                  " [" + kCheckpoints + "]");
  }
  if (halt.has(kAfter))
    out.push_back("halt after " + when(halt.int_or(kAfter, 0), now) + " [" + kAfter + "]");
  if (halt.has(kBefore)) {
    std::string margin = halt.has(kSeconds)
                             ? plural(halt.int_or(kSeconds, 0), "second") + " (" + kSeconds + ")"
                             : std::string("the job's SCR_HALT_SECONDS");
    out.push_back("halt before " + when(halt.int_or(kBefore, 0), now) + ", leaving " + margin +
                  " for the last checkpoint [" + kBefore + "]");
  } else if (halt.has(kSeconds)) {
    out.push_back("halt when fewer than " + plural(halt.int_or(kSeconds, 0), "second") +
                  " remain in the allocation [" + kSeconds + "]");
  }
  if (auto job = halt.value(kFinalized))
    out.push_back("the job finished: SCR_Finalize ran in job " + *job +
                  "; a launcher does not relaunch it [" + kFinalized + "]");
  for (const auto& key : halt.keys())
    if (key != kReason && key != kCheckpoints && key != kAfter && key != kBefore &&
        key != kSeconds && key != kFinalized)
      out.push_back(key + " = " + halt.value_or(key, "") + ": not a halt condition SCR++ knows [" +
                    key + "]");
  return out;
}

std::string stop_reason(const kv::Tree& halt, int64_t now) {
  return rt::halt_reason(halt, 0, 0, static_cast<double>(now));
}

std::string conditions_text(const std::string& file, bool exists, const kv::Tree& halt,
                            int64_t now) {
  if (!exists) return "No halt conditions: " + file + " does not exist.\n";
  auto lines = describe(halt, now);
  if (lines.empty()) return "No halt conditions in " + file + ".\n";
  std::string out = "Halt conditions in " + file + ":\n";
  for (const auto& l : lines) out += "  " + l + "\n";
  std::string reason = stop_reason(halt, now);
  out += reason.empty() ? "A job reading this file now would keep running.\n"
                        : "A job reading this file now would stop: " + reason + ".\n";
  return out;
}

Json conditions_json(const std::string& file, bool exists, const kv::Tree& halt, int64_t now) {
  Json conditions = Json::object();
  for (const auto& key : halt.keys()) {
    std::string v = halt.value_or(key, "");
    bool numeric = key == kCheckpoints || key == kBefore || key == kAfter || key == kSeconds;
    if (numeric && halt.get_int(key))
      conditions.set(key, *halt.get_int(key));
    else
      conditions.set(key, v);
  }
  std::string reason = stop_reason(halt, now);
  Json out = Json::object();
  out.set("file", file)
      .set("exists", exists)
      .set("conditions", std::move(conditions))
      .set("stop_now", !reason.empty())
      .set("reason", reason.empty() ? Json() : Json(reason));
  return out;
}

}  // namespace scr::tools::halt
