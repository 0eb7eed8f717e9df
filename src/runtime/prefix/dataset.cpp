#include "runtime/prefix/dataset.hpp"

#include <unordered_set>

#include <chrono>

#include "io/files.hpp"

namespace scr::rt {

DatasetInfo DatasetInfo::from_tree(const kv::Tree& desc) {
  DatasetInfo d;
  d.id = static_cast<int>(desc.int_or("ID", 0));
  d.name = desc.value_or("NAME", "");
  d.flags = static_cast<int>(desc.int_or("FLAGS", 0));
  d.ckpt = static_cast<int>(desc.int_or("CKPT", 0));
  d.bypass = desc.int_or("BYPASS", 0) != 0;
  d.store = desc.value_or("STORE", "");
  return d;
}

kv::Tree make_descriptor(const NewDataset& d) {
  kv::Tree desc;
  desc.set_int("ID", d.id);
  desc.set("NAME", d.name.empty() ? "scr.dataset." + std::to_string(d.id) : d.name);
  desc.set_int("FLAGS", d.flags);
  desc.set_int("CKPT", d.ckpt);
  desc.set_int("CREATED", now_usecs());
  desc.set("USER", d.user);
  desc.set("JOBID", d.job_id);
  if (!d.cluster.empty()) desc.set("CLUSTER", d.cluster);
  if (!d.job_name.empty()) desc.set("JOBNAME", d.job_name);
  if (d.bypass) desc.set_int("BYPASS", 1);
  else desc.set("STORE", d.store);
  return desc;
}

int64_t now_usecs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Filemap Filemap::empty(const std::string& path, int rank) {
  Filemap fm;
  fm.path_ = path;
  fm.tree_.set_int("RANK", rank);
  return fm;
}

Filemap Filemap::from_tree(const std::string& path, int rank, kv::Tree tree) {
  Filemap fm;
  fm.path_ = path;
  fm.tree_ = std::move(tree);
  fm.tree_.set_int("RANK", rank);
  return fm;
}

Result<Filemap> Filemap::load(io::Env& env, const std::string& path, int rank) {
  Filemap fm = empty(path, rank);
  if (env.exists(path)) {
    auto tree = io::read_tree(env, path);
    if (!tree) return tree.status();
    fm.tree_ = std::move(tree).value();
    fm.tree_.set_int("RANK", rank);
    for (int id : fm.ids())
      if (auto files = kv::get_file_list(*fm.find(id), "FILELIST"); !files)
        return files.status().with_context("filemap " + path + ", dataset " + std::to_string(id));
  }
  return fm;
}

Status Filemap::save(io::Env& env) const { return io::write_tree(env, path_, tree_); }

int Filemap::owner() const { return static_cast<int>(tree_.int_or("RANK", -1)); }

const kv::Tree* Filemap::desc(int id) const {
  const kv::Tree* d = find(id);
  return d ? d->get("DESC") : nullptr;
}

std::optional<DatasetInfo> Filemap::info(int id) const {
  const kv::Tree* d = desc(id);
  if (!d) return std::nullopt;
  return DatasetInfo::from_tree(*d);
}

std::string Filemap::store(int id, const std::string& fallback) const {
  const kv::Tree* d = find(id);
  return d ? d->value_or("STORE", fallback) : fallback;
}

const kv::Tree* Filemap::member_descs(int id) const {
  const kv::Tree* d = find(id);
  return d ? d->get("REDDESC") : nullptr;
}

void Filemap::put_desc(int id, const kv::Tree& desc, const std::string& store) {
  kv::Tree& d = entry(id);
  d.put("DESC", desc);
  d.set("STORE", store);
}

void Filemap::set_totals(int id, int64_t bytes, int64_t files) {
  kv::Tree& desc = entry(id).child("DESC");
  desc.set_int("SIZE", bytes);
  desc.set_int("FILES", files);
}

void Filemap::set_member_descs(int id, const kv::Tree& descs) { entry(id).put("REDDESC", descs); }

std::optional<CacheEntry> Filemap::entry_of(int id) const {
  const kv::Tree* d = find(id);
  if (!d) return std::nullopt;
  CacheEntry e;
  if (const kv::Tree* desc = d->get("DESC")) e.desc = *desc;
  e.store = d->value_or("STORE", "");
  e.files = file_records(id);
  e.redundancy_files = redundancy_files(id);
  if (const kv::Tree* descs = d->get("REDDESC")) e.member_descs = *descs;
  e.state = state(id);
  e.bypass = bypass(id);
  return e;
}

kv::Tree Filemap::encode(const CacheEntry& e) {
  Filemap fm;
  fm.put(0, e);
  return *fm.find(0);
}

Result<CacheEntry> Filemap::decode(const kv::Tree& entry) {
  Filemap fm;
  fm.entry(0) = entry;
  SCR_TRY(kv::get_file_list(entry, "FILELIST").status());
  return *fm.entry_of(0);
}

void Filemap::put(int id, const CacheEntry& e) {
  erase(id);
  kv::Tree& d = entry(id);
  if (!e.desc.empty()) d.put("DESC", e.desc);
  if (!e.store.empty()) d.set("STORE", e.store);
  set_file_records(id, e.files);
  set_redundancy_files(id, e.redundancy_files);
  if (!e.member_descs.empty()) d.put("REDDESC", e.member_descs);
  if (e.bypass) mark_bypass(id);
  // Along the lifecycle from routed: an entry's state is one it can reach.
  if (e.state != CacheState::routed) (void)advance(id, CacheState::complete);
  if (e.state != CacheState::complete) (void)advance(id, e.state);
}

std::vector<std::string> Filemap::list(int id, const char* key) const {
  std::vector<std::string> out;
  const kv::Tree* d = find(id);
  if (!d || !d->get(key)) return out;
  const kv::Tree& items = *d->get(key);
  for (int64_t i : items.int_keys()) out.push_back(items.value_or(std::to_string(i), ""));
  return out;
}

std::vector<kv::FileRecord> Filemap::file_records(int id) const {
  const kv::Tree* d = find(id);
  if (!d) return {};
  // Every list was checked when the filemap was loaded or set.
  auto records = kv::get_file_list(*d, "FILELIST");
  return records ? std::move(records).value() : std::vector<kv::FileRecord>{};
}

std::vector<std::string> Filemap::files(int id) const {
  std::vector<std::string> out;
  for (auto& f : file_records(id)) out.push_back(std::move(f.name));
  return out;
}

void Filemap::set_files(int id, const std::vector<std::string>& names) {
  std::vector<kv::FileRecord> records;
  records.reserve(names.size());
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!seen.insert(names[i]).second) continue;
    kv::FileRecord f;
    f.name = names[i];
    records.push_back(std::move(f));
  }
  set_file_records(id, records);
}

void Filemap::set_file_records(int id, const std::vector<kv::FileRecord>& records) {
  kv::Tree& d = entry(id);
  d.set_int("FILES", static_cast<int64_t>(records.size()));
  kv::put_file_list(d, "FILELIST", records);
}

std::vector<std::string> Filemap::redundancy_files(int id) const { return list(id, "REDFILE"); }

void Filemap::set_redundancy_files(int id, const std::vector<std::string>& names) {
  kv::Tree& list = entry(id).reset("REDFILE");
  for (size_t i = 0; i < names.size(); ++i) list.set(std::to_string(i), names[i]);
}

const char* state_name(CacheState state) {
  switch (state) {
    case CacheState::routed: return "routed";
    case CacheState::complete: return "complete";
    case CacheState::flushing: return "flushing";
    case CacheState::flushed: return "flushed";
  }
  return "unknown";
}

bool transition_allowed(CacheState from, CacheState to) {
  using S = CacheState;
  if (from == to) return true;
  switch (from) {
    case S::routed: return to == S::complete || to == S::flushed;
    case S::complete: return to == S::flushing || to == S::flushed;
    case S::flushing: return to == S::flushed || to == S::complete;
    case S::flushed: return false;
  }
  return false;
}

// On disk the state is the flags COMPLETE, FLUSHING and FLUSHED, as filemaps
// have always recorded it.
CacheState Filemap::state(int id) const {
  const kv::Tree* d = find(id);
  if (!d) return CacheState::routed;
  if (d->int_or("FLUSHED", 0)) return CacheState::flushed;
  if (d->int_or("FLUSHING", 0)) return CacheState::flushing;
  if (d->int_or("COMPLETE", 0)) return CacheState::complete;
  return CacheState::routed;
}

Status Filemap::advance(int id, CacheState to) {
  CacheState from = state(id);
  if (!transition_allowed(from, to))
    return Error(Errc::bad_state, "dataset " + std::to_string(id) + " cannot go from " + state_name(from) +
                                      " to " + state_name(to));
  kv::Tree& d = entry(id);
  d.erase("COMPLETE");
  d.erase("FLUSHING");
  d.erase("FLUSHED");
  if (to != CacheState::routed) d.set_int("COMPLETE", 1);
  if (to == CacheState::flushing) d.set_int("FLUSHING", 1);
  if (to == CacheState::flushed) d.set_int("FLUSHED", 1);
  return Status::Ok();
}

bool Filemap::bypass(int id) const {
  const kv::Tree* d = find(id);
  return d && d->int_or("BYPASS", 0) != 0;
}

void Filemap::mark_bypass(int id) { entry(id).set_int("BYPASS", 1); }

}  // namespace scr::rt
