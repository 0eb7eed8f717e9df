#include "runtime/prefix/flush_protocol.hpp"

#include "io/files.hpp"
#include "io/undo_files.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/deferred.hpp"
#include "runtime/prefix/prefix_window.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {

namespace {

bool same_dataset(const kv::Tree& entry, const kv::Tree& desc) {
  return entry.value("NAME") == desc.value("NAME") && entry.value("CREATED") == desc.value("CREATED");
}

}  // namespace

bool records_flush_of(const PrefixIndex& idx, const kv::Tree& desc) {
  int id = static_cast<int>(desc.int_or("ID", 0));
  return idx.flushed(id) && same_dataset(*idx.find(id), desc);
}

void mark_flush_begun(PrefixIndex& idx, const kv::Tree& desc) {
  if (records_flush_of(idx, desc)) return;
  int id = static_cast<int>(desc.int_or("ID", 0));
  idx.upsert(desc);
  idx.mark_begun(id);
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

bool mark_flushed(PrefixIndex& idx, const kv::Tree& desc, int64_t bytes, const MarkPolicy& policy) {
  int id = static_cast<int>(desc.int_or("ID", 0));
  idx.upsert(desc).set_int("SIZE", bytes);
  idx.mark_flushed(id);
  drop_older_of_same_name(idx, id, desc.value_or("NAME", ""));
  return policy.choose_current && choose_current(idx, id);
}

namespace {

// A record that did not land, as the comment in the header says. The index
// as it is now tells whether its last step landed after all.
void take_back_record(io::Env& env, const std::string& prefix, int id, bool recorded_before,
                      io::StagedFiles& summary) {
  if (recorded_before) {
    summary.take_back();
    return;
  }
  switch (verdict_of_record(env, prefix, id)) {
    case RecordVerdict::recorded: summary.keep(); return;
    case RecordVerdict::unknown: summary.leave(); return;  // both versions stay, for whoever reads the index
    case RecordVerdict::not_recorded: break;
  }
  summary.take_back();
  // When the index cannot be written either, the entry stays as begun:
  // never loadable, as after a crash.
  (void)edit_prefix_index(env, prefix, [&](PrefixIndex& idx) {
    if (!idx.flushed(id)) idx.erase(id);
    return Status::Ok();
  });
  // Made by the flush; what its copies put there is the route's to remove
  // (the directory goes with them once empty).
  (void)env.rmdir(prefix_dataset_dir(prefix, id));
}

}  // namespace

Result<bool> record_flushed(io::Env& env, const std::string& prefix, const kv::Tree& desc, int writers,
                            std::map<int, kv::Tree> lists, int64_t bytes, const MarkPolicy& policy) {
  int id = static_cast<int>(desc.int_or("ID", 0));
  SCR_ASSIGN_OR_RETURN(PrefixIndex idx, PrefixIndex::load(env, prefix));
  bool recorded_before = idx.flushed(id);
  Summary summary(desc, writers);
  for (auto& [r, t] : lists) summary.set_rank(r, std::move(t));
  // The summary must be durable before the index points at it.
  io::StagedFiles files(env);
  Status st = summary.stage(prefix, files);
  if (st.ok()) st = files.put_in_place();
  bool current = false;
  if (st.ok()) {
    current = mark_flushed(idx, desc, bytes, policy);
    st = idx.save(env);
  }
  if (!st.ok()) {
    take_back_record(env, prefix, id, recorded_before, files);
    return st;
  }
  files.keep();
  // Only now: a record that does not land must cost no older checkpoint.
  apply_prefix_window(env, prefix, policy.prefix_size, idx, id);
  return current;
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
