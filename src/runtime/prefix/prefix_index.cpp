#include "runtime/prefix/prefix_index.hpp"

#include <algorithm>
#include <climits>
#include <ctime>

#include "common/clock.hpp"
#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/scr31/dataset_files.hpp"
#include "runtime/prefix/scr31/shared_format.hpp"

namespace scr::rt {

std::string prefix_scr_dir(const std::string& prefix) { return io::path::join(prefix, ".scr"); }

Status make_prefix_scr_dir(io::Env& env, const std::string& prefix) {
  const std::string dir = prefix_scr_dir(prefix);
  return io::make_own_dirs_within(env, prefix, dir, dir, 0700, false);
}

std::string prefix_index_path(const std::string& prefix) {
  return io::path::join(prefix_scr_dir(prefix), "index.scr");
}

std::string prefix_lock_path(const std::string& prefix) {
  return io::path::join(prefix_scr_dir(prefix), "job.lock");
}

std::string prefix_nodes_path(const std::string& prefix) {
  return io::path::join(prefix_scr_dir(prefix), "nodes.scr");
}

std::string prefix_dataset_dir(const std::string& prefix, int id) {
  return io::path::join(prefix_scr_dir(prefix), "scr.dataset." + std::to_string(id));
}

namespace {

// An entry whose id is not a dataset id SCR++ can use (not a number, or
// outside 0..INT32_MAX) is kept in the file but listed, restarted from and
// named by nothing: said once, so that it does not vanish without a word.
void warn_unusable_ids(const DatasetTable& idx, const kv::Tree& tree, const std::string& path) {
  const kv::Tree* dsets = tree.get("DSET");
  if (!dsets) return;
  for (const auto& [key, entry] : dsets->children()) {
    auto id = str::parse_int(key);
    if (!id || *id < 0 || *id > INT32_MAX || !idx.find(static_cast<int>(*id)))
      log::warn_once(path + ": the entry with id '" + key + "' (name '" +
                     str::printable(entry->value_or("NAME", "")) +
                     "') has no usable dataset id; SCR++ ignores it (it stays in the file)");
  }
}

}  // namespace

Result<PrefixIndex> PrefixIndex::load(io::Env& env, const std::string& prefix) {
  PrefixIndex idx;
  idx.path_ = prefix_index_path(prefix);
  if (!env.exists(idx.path_)) return idx;
  io::TreeFormat format;
  auto tree = io::read_any_tree(env, idx.path_, &format);
  if (!tree) return tree.status().with_context("reading the prefix index");
  if (format == io::TreeFormat::scrpp) {
    // Written by an SCR++ before the index was shared with SCR 3.1: read
    // as it is, written in the shared form at the next save.
    idx.tree_ = std::move(tree).value();
    idx.prefix_ = prefix;
    idx.adopt_summaries_ = true;
    warn_unusable_ids(idx, idx.tree_, idx.path_);
    return idx;
  }
  auto view = scr31::index_from_shared(*tree);
  if (!view) return view.status().with_context("reading the prefix index " + idx.path_);
  idx.read_ = std::move(tree).value();
  idx.read_view_ = *view;
  idx.tree_ = std::move(view).value();
  warn_unusable_ids(idx, idx.tree_, idx.path_);
  return idx;
}

PrefixIndex PrefixIndex::replacing_unreadable(const std::string& prefix) {
  PrefixIndex idx;
  idx.path_ = prefix_index_path(prefix);
  idx.replaces_unreadable_ = true;
  return idx;
}

Status PrefixIndex::save(io::Env& env) const {
  SCR_TRY(io::make_dirs(env, io::path::dirname(path_), 0700));
  if (adopt_summaries_) {
    // Before the index names them in SCR 3.1's form (a failure leaves that
    // dataset readable by SCR++ alone).
    for (int id : ids())
      if (Status st = scr31::adopt_earlier_summary(env, prefix_, id); !st.ok())
        log::warn("dataset " + std::to_string(id) + " stays in SCR++'s earlier layout: " + st.message());
    adopt_summaries_ = false;
  }
  return io::write_veloc_tree(env, path_,
                              scr31::index_to_shared(tree_, read_, read_view_, static_cast<int64_t>(std::time(nullptr))));
}

kv::Tree& PrefixIndex::upsert(const kv::Tree& desc) {
  int id = static_cast<int>(desc.int_or("ID", 0));
  kv::Tree& e = entry(id);
  for (const char* key : {"NAME", "FLAGS", "CKPT", "CREATED", "SIZE", "FILES", "USER", "JOBID", "JOBNAME"})
    if (auto v = desc.value(key)) e.set(key, *v);
  return e;
}

std::optional<int> PrefixIndex::find_name(const std::string& name) const {
  // Newest first: a restarted job may take a name again (the recomputed
  // step.30 after the first one failed); the name then means the new one,
  // once it is flushed. Until then (begun, or its flush or dataset failed)
  // the name keeps meaning the older dataset that is whole, as the restart
  // falls back to it: CURRENT, scr_index's listing and SCR_Drop agree.
  std::vector<int> all = ids();
  std::optional<int> newest;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (find(*it)->value_or("NAME", "") != name) continue;
    if (flushed(*it) && !failed(*it)) return *it;
    if (!newest) newest = *it;
  }
  return newest;
}

bool PrefixIndex::flushed(int id) const {
  const kv::Tree* e = find(id);
  return e && e->int_or("COMPLETE", 0) != 0 && e->int_or("FLUSHED", 0) != 0;
}

void PrefixIndex::mark_begun(int id) {
  kv::Tree& e = entry(id);
  e.erase("COMPLETE");
  e.erase("FLUSHED");
  e.erase("FLUSHED_AT");
}

void PrefixIndex::mark_flushed(int id) {
  kv::Tree& e = entry(id);
  e.set_int("COMPLETE", 1);
  e.set_int("FLUSHED", 1);
  e.set_int("FLUSHED_AT", static_cast<int64_t>(std::time(nullptr)));
}

bool PrefixIndex::failed(int id) const {
  const kv::Tree* e = find(id);
  return e && e->int_or("FAILED", 0) != 0;
}

void PrefixIndex::mark_failed(int id) { entry(id).set_int("FAILED", 1); }

bool PrefixIndex::loadable(int id) const {
  const kv::Tree* e = find(id);
  return e && (e->int_or("FLAGS", 0) & kFlagCheckpoint) && flushed(id) && !failed(id);
}

std::string PrefixIndex::current() const { return tree_.value_or("CURRENT", ""); }
void PrefixIndex::set_current(const std::string& name) { tree_.set("CURRENT", name); }
void PrefixIndex::clear_current() { tree_.erase("CURRENT"); }

void PrefixIndex::forget(int id) {
  const kv::Tree* e = find(id);
  bool was_current = e && !current().empty() && e->value_or("NAME", "") == current();
  erase(id);
  if (!was_current) return;
  clear_current();
  std::vector<int> older = ids();
  for (auto it = older.rbegin(); it != older.rend(); ++it)
    if (*it < id && loadable(*it)) {
      set_current(find(*it)->value_or("NAME", ""));
      return;
    }
}

std::vector<int> PrefixIndex::fetch_order(const std::string& preferred) const {
  std::string want = preferred.empty() ? current() : preferred;
  std::optional<int> first = want.empty() ? std::nullopt : find_name(want);
  if (first && !loadable(*first)) first.reset();
  std::vector<int> order;
  if (first) order.push_back(*first);
  std::vector<int> all = ids();
  std::reverse(all.begin(), all.end());
  // After the current one, fall back to those older than it, newest first:
  // a dataset newer than the chosen one is never loaded (docs/runtime.md#restart).
  for (int id : all)
    if (loadable(id) && (!first || id < *first)) order.push_back(id);
  return order;
}

Result<std::string> set_aside_unreadable_index(io::Env& env, const std::string& prefix, std::string* why) {
  auto idx = PrefixIndex::load(env, prefix);
  Errc code = idx.status().code();
  if (idx || (code != Errc::corrupt && code != Errc::unsupported)) return std::string();
  if (why) *why = idx.status().message();
  std::string path = prefix_index_path(prefix);
  std::string aside = path + ".unreadable." + std::to_string(static_cast<int64_t>(wall_seconds()));
  if (Status moved = env.rename(path, aside); !moved.ok())
    return Error(moved.code(), idx.status().message() + "; it could not be set aside either (" + moved.message() + ")");
  return aside;
}

}  // namespace scr::rt
