#include "tools/scr_halt/halt_settings.hpp"

#include <cstdio>
#include <optional>

#include "tools/common/times.hpp"

namespace scr::tools::halt {
namespace {

// SCR's name of each key, in the order SCR lists the changes.
struct ScrName {
  const char* key;
  const char* scr;
};
constexpr ScrName kChangeOrder[] = {{kCheckpoints, "CheckpointsLeft"},
                                    {kAfter, "ExitAfter"},
                                    {kBefore, "ExitBefore"},
                                    {kSeconds, "HaltSeconds"},
                                    {kReason, "ExitReason"}};

std::optional<int64_t> number(const kv::Tree& halt, const char* key) {
  auto v = halt.get_int(key);
  if (!v) return std::nullopt;
  return *v;
}

// "  Label: value" with the value in SCR's column (after "CheckpointsLeft: ").
std::string line(const std::string& label, const std::string& value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "  %-17s", (label + ":").c_str());
  return buf + value + "\n";
}

}  // namespace

std::string scr_changes_text(const Changes& changes) {
  std::string out;
  for (const auto& [key, scr] : kChangeOrder) {
    if (changes.set.count(key))
      out += std::string("Setting ") + scr + "\n";
    else if (changes.unset.count(key))
      out += std::string("Unsetting ") + scr + "\n";
  }
  return out + "\n";
}

std::string scr_settings_text(const std::string& file, const kv::Tree& halt) {
  std::string out = "Halt file settings for " + file + ":\n";
  size_t header = out.size();
  if (auto reason = halt.value(kReason))
    out += line("ExitReason", *reason);
  else if (halt.has(kFinalized))
    out += line("ExitReason", "SCR_FINALIZE_CALLED");
  if (auto n = number(halt, kCheckpoints)) out += line("CheckpointsLeft", std::to_string(*n));
  auto after = number(halt, kAfter);
  if (after) out += line("ExitAfter", asctime_text(*after));
  auto before = number(halt, kBefore);
  if (before) out += line("ExitBefore", asctime_text(*before));
  auto seconds = number(halt, kSeconds);
  if (seconds) out += line("HaltSeconds", std::to_string(*seconds));
  // SCR's own label, wider than the others' column.
  if (before && seconds)
    out += "  ExitBefore - HaltSeconds: " + asctime_text(*before - *seconds) + "\n";
  if (out.size() == header) out += "  None\n";
  return out;
}

}  // namespace scr::tools::halt
