#include "runtime/prefix/flush_protocol.hpp"

#include "io/files.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/prefix_window.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {

void mark_flush_begun(PrefixIndex& idx, const kv::Tree& desc) {
  idx.upsert(desc);
  idx.mark_begun(static_cast<int>(desc.int_or("ID", 0)));
}

Status write_summary(io::Env& env, const std::string& prefix, const kv::Tree& desc, int writers,
                     std::map<int, kv::Tree> lists) {
  Summary summary(desc, writers);
  for (auto& [r, t] : lists) summary.set_rank(r, std::move(t));
  return summary.write(env, prefix);
}

bool choose_current(PrefixIndex& idx, int id) {
  if (!idx.loadable(id)) return false;
  // CURRENT may name an older dataset an operator chose, or one since
  // dropped; only a newer loadable checkpoint keeps its place.
  auto named = idx.find_name(idx.current());
  if (named && *named > id && idx.loadable(*named)) return false;
  idx.set_current(idx.find(id)->value_or("NAME", ""));
  return true;
}

namespace {

// As in SCR 3.1, a name lists one dataset: a job run again from its start in
// the same prefix takes its names again, and the older entries of those
// names leave the index once the new one is recorded (not before: a flush
// that fails keeps the older one). Only the entry goes, as with SCR_Drop;
// its files stay. A newer entry of the name is kept (a scavenge saving an
// older dataset must not drop it).
void drop_older_of_same_name(PrefixIndex& idx, int id, const std::string& name) {
  for (int other : idx.ids())
    if (other < id && idx.find(other)->value_or("NAME", "") == name) idx.erase(other);
}

}  // namespace

bool mark_flushed(io::Env& env, const std::string& prefix, PrefixIndex& idx, const kv::Tree& desc,
                  int64_t bytes, const MarkPolicy& policy) {
  int id = static_cast<int>(desc.int_or("ID", 0));
  idx.upsert(desc).set_int("SIZE", bytes);
  idx.mark_flushed(id);
  drop_older_of_same_name(idx, id, desc.value_or("NAME", ""));
  bool current = policy.choose_current && choose_current(idx, id);
  if (policy.prefix_size > 0) apply_prefix_window(env, prefix, policy.prefix_size, idx, id);
  return current;
}

Result<bool> record_flushed(io::Env& env, const std::string& prefix, PrefixIndex& idx,
                            const kv::Tree& desc, int writers, std::map<int, kv::Tree> lists,
                            int64_t bytes, const MarkPolicy& policy) {
  // The summary must be durable before the index points at it.
  SCR_TRY(write_summary(env, prefix, desc, writers, std::move(lists)));
  return mark_flushed(env, prefix, idx, desc, bytes, policy);
}

void mark_flush_failed(PrefixIndex& idx, int id) {
  if (idx.has(id)) idx.mark_failed(id);
}

void forget_dataset(io::Env& env, const std::string& prefix, PrefixIndex& idx, int id) {
  // Missing files are fine; a file that cannot go is left, unlisted.
  (void)delete_prefix_files(env, prefix, id, &idx);
  // Names may repeat across jobs: CURRENT goes only if it meant this one.
  if (idx.find_name(idx.current()) == id) idx.clear_current();
  idx.erase(id);
}

Result<std::optional<io::FileLock>> lock_prefix_index(io::Env& env, const std::string& prefix) {
  // Held only while the index changes, and recording nothing: an editor
  // that refuses or changes nothing leaves the prefix exactly as it was.
  auto lock = io::FileLock::try_acquire(env, prefix_lock_path(prefix), "");
  if (lock) return std::optional<io::FileLock>(std::move(lock).value());
  if (lock.status().code() == Errc::unsupported) return std::optional<io::FileLock>();
  return lock.status();
}

}  // namespace scr::rt
