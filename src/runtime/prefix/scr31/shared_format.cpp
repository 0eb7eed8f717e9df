#include "runtime/prefix/scr31/shared_format.hpp"

#include <charconv>
#include <ctime>
#include <utility>

#include "runtime/prefix/dataset.hpp"

namespace scr::rt::scr31 {
namespace {

// The fields an index entry of SCR++'s view takes from the descriptor.
// (FLUSHED_AT, when the flush finished in seconds since the epoch, is the
// view's form of SCR's FLUSHED stamp.)
constexpr const char* kViewFields[] = {"NAME", "FLAGS", "CKPT", "CREATED", "SIZE", "FILES", "USER", "JOBID", "JOBNAME"};

bool is_id_key(const std::string& key) {
  int64_t n = 0;
  auto [p, ec] = std::from_chars(key.data(), key.data() + key.size(), n);
  return ec == std::errc() && p == key.data() + key.size() && std::to_string(n) == key;
}

// SCR's times back to seconds (local time, as written); nullopt when it is
// not one.
std::optional<int64_t> parse_timestamp(const std::string& s) {
  std::tm tm{};
  const char* end = strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (!end || *end != '\0') return std::nullopt;
  tm.tm_isdst = -1;
  return static_cast<int64_t>(std::mktime(&tm));
}

kv::Tree entry_from_shared(const kv::Tree& theirs) {
  kv::Tree e;
  if (const kv::Tree* d = theirs.get("DSET")) {
    kv::Tree desc = descriptor_from_shared(*d);
    for (const char* key : kViewFields)
      if (auto v = desc.value(key)) e.set(key, *v);
  }
  if (theirs.int_or("COMPLETE", 0) == 1) {
    // SCR restarts from any complete entry: for SCR++ it is flushed.
    e.set_int("COMPLETE", 1);
    e.set_int("FLUSHED", 1);
    if (auto t = theirs.value("FLUSHED"))
      if (auto secs = parse_timestamp(*t)) e.set_int("FLUSHED_AT", *secs);
  }
  if (theirs.has("FAILED")) e.set_int("FAILED", 1);
  if (auto t = theirs.value("FETCHED"))
    if (auto secs = parse_timestamp(*t)) e.set_int("FETCHED", *secs);
  return e;
}

// Set `key` to a time stamped now unless it already holds one.
void stamp(kv::Tree& entry, const char* key, int64_t now) {
  if (!entry.value(key)) entry.set(key, timestamp(now));
}

kv::Tree entry_to_shared(const kv::Tree& ours, const kv::Tree* theirs, int id, int64_t now) {
  kv::Tree e = theirs ? *theirs : kv::Tree();
  kv::Tree desc = e.get("DSET") ? descriptor_from_shared(*e.get("DSET")) : kv::Tree();
  desc.set_int("ID", id);
  for (const char* key : kViewFields)
    if (auto v = ours.value(key)) desc.set(key, *v);
  bool flushed = ours.int_or("COMPLETE", 0) != 0 && ours.int_or("FLUSHED", 0) != 0;
  if (!desc.has("COMPLETE")) desc.set_int("COMPLETE", 1);
  e.put("DSET", descriptor_to_shared(desc));
  e.set_int("COMPLETE", flushed ? 1 : 0);
  if (flushed && ours.has("FLUSHED_AT")) e.set("FLUSHED", timestamp(ours.int_or("FLUSHED_AT", now)));
  else if (flushed) stamp(e, "FLUSHED", now);
  else e.erase("FLUSHED");
  if (ours.int_or("FAILED", 0) != 0) stamp(e, "FAILED", now);
  else e.erase("FAILED");
  if (ours.has("FETCHED")) e.set("FETCHED", timestamp(ours.int_or("FETCHED", now)));
  return e;
}

}  // namespace

std::string timestamp(int64_t epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

kv::Tree descriptor_to_shared(const kv::Tree& ours) {
  kv::Tree d = ours;
  int64_t flags = d.int_or("FLAGS", 0);
  d.erase("FLAGS");
  d.set_int("FLAG_CKPT", (flags & kFlagCheckpoint) ? 1 : 0);
  d.set_int("FLAG_OUTPUT", (flags & kFlagOutput) ? 1 : 0);
  return d;
}

kv::Tree descriptor_from_shared(const kv::Tree& theirs) {
  kv::Tree d = theirs;
  int64_t flags = (d.int_or("FLAG_CKPT", 0) != 0 ? kFlagCheckpoint : 0) |
                  (d.int_or("FLAG_OUTPUT", 0) != 0 ? kFlagOutput : 0);
  d.erase("FLAG_CKPT");
  d.erase("FLAG_OUTPUT");
  d.set_int("FLAGS", flags);
  return d;
}

Result<kv::Tree> index_from_shared(const kv::Tree& shared) {
  auto version = shared.get_int("VERSION");
  if (!version)
    return Error(Errc::corrupt, "SCR's index has no VERSION");
  if (*version != kIndexVersion)
    return Error(Errc::unsupported, "SCR's index is of version " + std::to_string(*version) + ", SCR 3.x writes " +
                                        std::to_string(kIndexVersion) + " (an index of SCR before 3.0?)");
  kv::Tree view;
  if (auto current = shared.value("CURRENT")) view.set("CURRENT", *current);
  if (const kv::Tree* dsets = shared.get("DSET"))
    for (int64_t id : dsets->int_keys())
      view.child("DSET").put(std::to_string(id), entry_from_shared(*dsets->get(std::to_string(id))));
  return view;
}

kv::Tree index_to_shared(const kv::Tree& view, const kv::Tree& read, const kv::Tree& read_view, int64_t now) {
  kv::Tree out = read;
  out.erase("DSET");
  out.erase("NAME");
  out.erase("CURRENT");
  out.set_int("VERSION", kIndexVersion);
  if (auto current = view.value("CURRENT")) out.set("CURRENT", *current);
  const kv::Tree* ours = view.get("DSET");
  const kv::Tree* theirs = read.get("DSET");
  const kv::Tree* was = read_view.get("DSET");
  // Entries of `read` that are not datasets to SCR++ (keys that are not ids
  // in canonical form, kv::Tree::int_keys) stay as they were.
  if (theirs)
    for (const auto& [key, sub] : theirs->children())
      if (!is_id_key(key)) out.child("DSET").put(key, *sub);
  if (!ours) return out;
  for (int64_t id : ours->int_keys()) {
    const std::string key = std::to_string(id);
    const kv::Tree& e = *ours->get(key);
    const kv::Tree* read_entry = theirs ? theirs->get(key) : nullptr;
    const kv::Tree* read_as = was ? was->get(key) : nullptr;
    kv::Tree shared = (read_entry && read_as && *read_as == e)
                          ? *read_entry
                          : entry_to_shared(e, read_entry, static_cast<int>(id), now);
    std::string name = e.value_or("NAME", "");
    out.child("DSET").put(key, std::move(shared));
    if (!name.empty()) out.child("NAME", name).set_int("DSET", id);
  }
  return out;
}

namespace {
constexpr std::pair<const char*, const char*> kHaltKeys[] = {{"EXIT_REASON", "ExitReason"},
                                                             {"CHECKPOINTS", "CheckpointsLeft"},
                                                             {"EXIT_BEFORE", "ExitBefore"},
                                                             {"EXIT_AFTER", "ExitAfter"},
                                                             {"HALT_SECONDS", "HaltSeconds"}};
}  // namespace

kv::Tree halt_from_shared(const kv::Tree& theirs) {
  kv::Tree ours = theirs;
  for (const auto& [mine, shared] : kHaltKeys) {
    ours.erase(shared);
    if (auto v = theirs.value(shared)) ours.set(mine, *v);
  }
  if (ours.value_or("EXIT_REASON", "") == kFinalizeCalled) {
    ours.erase("EXIT_REASON");
    if (!ours.has("FINALIZED")) ours.set("FINALIZED", kFinalizeCalled);
  }
  return ours;
}

kv::Tree halt_to_shared(const kv::Tree& ours) {
  kv::Tree theirs = ours;
  for (const auto& [mine, shared] : kHaltKeys) {
    theirs.erase(mine);
    if (auto v = ours.value(mine)) theirs.set(shared, *v);
  }
  if (!theirs.has("ExitReason") && ours.has("FINALIZED")) theirs.set("ExitReason", kFinalizeCalled);
  return theirs;
}

}  // namespace scr::rt::scr31
