#include "runtime/cache/catalog.hpp"

#include <algorithm>
#include <climits>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"

namespace scr::rt {
namespace {

// Owner rank of a filemap file name "filemap_<rank>.scr", or -1.
int owner_of(const std::string& name) {
  if (!str::starts_with(name, "filemap_") || !str::ends_with(name, ".scr")) return -1;
  auto r = str::parse_int(name.substr(8, name.size() - 12));
  return r && *r >= 0 && *r <= INT_MAX ? static_cast<int>(*r) : -1;
}

}  // namespace

void CacheCatalog::open(io::Env& env, CacheLayout layout, int rank) {
  env_ = &env;
  layout_ = std::move(layout);
  rank_ = rank;
  own_ = Filemap::empty(filemap_path(rank), rank);
  adopted_.clear();
  dataset_id_ = 0;
  checkpoint_id_ = 0;
}

std::string CacheCatalog::filemap_path(int rank) const {
  return io::path::join(layout_.cntl_dir, "filemap_" + std::to_string(rank) + ".scr");
}

std::string CacheCatalog::cache_dir(const std::string& store) const { return job_dir(store, layout_.id); }

std::string CacheCatalog::dataset_dir(const std::string& store, int id) const {
  return io::path::join(cache_dir(store), "scr.dataset." + std::to_string(id));
}

std::string CacheCatalog::dataset_dir(const Filemap& fm, int id) const {
  return dataset_dir(fm.store(id, layout_.default_store), id);
}

int CacheCatalog::find_name(const std::string& name) const {
  int found = 0;
  for (int id : own_.ids())
    if (auto i = own_.info(id); i && i->name == name) found = id;
  return found;
}

void CacheCatalog::begin(int id, const kv::Tree& desc, const std::string& store) { own_.put_desc(id, desc, store); }

void CacheCatalog::record_routed(int id, const std::vector<std::string>& names) { own_.set_files(id, names); }

void CacheCatalog::record_protected(int id, const std::vector<kv::FileRecord>& files,
                                    const std::vector<std::string>& redundancy_files,
                                    const kv::Tree& member_descs) {
  own_.set_file_records(id, files);
  own_.set_redundancy_files(id, redundancy_files);
  own_.set_member_descs(id, member_descs);
}

void CacheCatalog::record_totals(int id, int64_t bytes, int64_t files) { own_.set_totals(id, bytes, files); }

void CacheCatalog::begin_fetch(int id, const kv::Tree& desc, const std::string& store, bool in_place) {
  own_.put_desc(id, desc, store);
  if (in_place) own_.mark_bypass(id);
}

void CacheCatalog::record_fetched(int id, const std::vector<kv::FileRecord>& files) {
  own_.set_file_records(id, files);
}

void CacheCatalog::record_rebuilt(int id, const std::vector<kv::FileRecord>& files,
                                  const std::vector<std::string>& redundancy_files, const kv::Tree& member_descs) {
  own_.set_file_records(id, files);
  own_.set_redundancy_files(id, redundancy_files);
  own_.set_member_descs(id, member_descs);
}

Status CacheCatalog::adopt(int id, const kv::Tree& encoded) {
  auto entry = Filemap::decode(encoded);
  if (!entry) return entry.status().with_context("the entry of dataset " + std::to_string(id) + " handed over");
  if (entry->state != CacheState::complete && entry->state != CacheState::flushed)
    return Error(Errc::bad_state, "dataset " + std::to_string(id) + " handed over while " +
                                      state_name(entry->state) + ": only a protected copy is taken");
  own_.put(id, *entry);
  return Status::Ok();
}

Status CacheCatalog::transition(int id, CacheState to) { return own_.advance(id, to); }

void CacheCatalog::forget(int id) { own_.erase(id); }

void CacheCatalog::forget_in_place_before(int id) {
  for (int older : own_.ids())
    if (older < id && own_.bypass(older)) own_.erase(older);
}

Status CacheCatalog::commit() {
  return own_.save(*env_).with_context("writing filemap " + own_.path());
}

Status CacheCatalog::commit_agreed(const mpi::Comm& world) { return mpi::agree(world, commit()); }

Status CacheCatalog::mark_flushed_in(io::Env& env, const std::string& path, int rank, int id) {
  SCR_ASSIGN_OR_RETURN(Filemap fm, Filemap::load(env, path, rank));
  if (!fm.has(id)) return Status::Ok();
  SCR_TRY(fm.advance(id, CacheState::flushed));
  return fm.save(env).with_context("writing filemap " + path);
}

std::map<int, kv::Tree> CacheCatalog::read_node_filemaps() const {
  std::map<int, kv::Tree> out;
  auto names = env_->list_dir(layout_.cntl_dir);
  if (!names) return out;
  for (const auto& name : *names) {
    int owner = owner_of(name);
    if (owner < 0) continue;
    auto tree = io::read_tree(*env_, io::path::join(layout_.cntl_dir, name));
    if (!tree) {
      log::warn("ignoring damaged filemap " + name + ": " + tree.status().message());
      continue;
    }
    out[owner] = std::move(tree).value();
  }
  return out;
}

void CacheCatalog::take_filemaps(std::map<int, kv::Tree> filemaps) {
  own_ = Filemap::empty(filemap_path(rank_), rank_);
  adopted_.clear();
  for (auto& [owner, tree] : filemaps) {
    Filemap fm = Filemap::from_tree(filemap_path(owner), owner, std::move(tree));
    if (owner == rank_) own_ = std::move(fm);
    else adopted_.push_back(std::move(fm));
  }
}

const Filemap* CacheCatalog::adopted_of(int owner) const {
  for (const Filemap& fm : adopted_)
    if (fm.owner() == owner) return &fm;
  return nullptr;
}

std::vector<const Filemap*> CacheCatalog::held() const {
  std::vector<const Filemap*> out{&own_};
  for (const auto& fm : adopted_) out.push_back(&fm);
  return out;
}

void CacheCatalog::forget_adopted(int owner, int id) {
  for (Filemap& fm : adopted_)
    if (fm.owner() == owner) fm.erase(id);
}

std::vector<std::string> CacheCatalog::forget_everywhere(int id) {
  std::vector<std::string> dirs;
  for (const Filemap* fm : held())
    if (fm->has(id)) {
      std::string dir = dataset_dir(*fm, id);
      if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
    }
  own_.erase(id);
  for (Filemap& fm : adopted_) fm.erase(id);
  return dirs;
}

void CacheCatalog::release_adopted() {
  for (const Filemap& fm : adopted_)
    (void)(fm.ids().empty() ? io::remove_file(*env_, fm.path()) : fm.save(*env_));
  adopted_.clear();
}

void CacheCatalog::reserve_ids(int id, int ckpt) {
  dataset_id_ = std::max(dataset_id_, id);
  checkpoint_id_ = std::max(checkpoint_id_, ckpt);
}

}  // namespace scr::rt
