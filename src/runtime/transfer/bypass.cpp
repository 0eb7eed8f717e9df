#include "runtime/transfer/bypass.hpp"

#include "common/log.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/job/index_edit.hpp"
#include "runtime/prefix/summary.hpp"
#include "runtime/transfer/flush.hpp"
#include "runtime/transfer/shared_names.hpp"

namespace scr::rt {
namespace {

// Every routed file must be a regular file in the prefix.
Status check_written(const Job& job, const std::set<std::string>& routed) {
  for (const auto& rel : routed) {
    auto info = job.fs().stat(io::path::join(job.settings.prefix, rel));
    if (!info || !info->is_regular())
      return Error(Errc::not_found, "routed file " + rel + " was not written");
  }
  return Status::Ok();
}

// This process's files as a flush from cache records them in the summary
// (size and CRC32C). A shared file that another rank owns is marked shared.
Result<kv::Tree> checksum_in_place(const Job& job, const std::set<std::string>& routed) {
  std::vector<std::string> names(routed.begin(), routed.end());
  auto shared = survey_shared_names(job.world, job.id.node, names);
  std::vector<kv::FileRecord> files;
  for (const auto& rel : names) {
    std::string path = io::path::join(job.settings.prefix, rel);
    SCR_ASSIGN_OR_RETURN(io::FileInfo info, job.fs().stat(path));
    kv::FileRecord& f = files.emplace_back();
    f.name = rel;
    f.size = info.size;
    auto it = shared.find(rel);
    if (it != shared.end() && it->second.owner != job.rank()) {
      f.shared = true;
      continue;
    }
    // Always: the CRC32C taken here is what every later read is checked against.
    SCR_ASSIGN_OR_RETURN(f.crc, io::file_crc32c(job.fs(), path, job.settings.piece_size));
  }
  kv::Tree mine;
  set_summary_files(mine, files);
  return mine;
}

// Lists checkpoint `id` in the catalog as read in place (not committed; on
// every process, which end_flush's commit needs).
void list_in_place(CacheCatalog& cache, int id, const kv::Tree& desc, std::vector<kv::FileRecord> files) {
  std::string store = DatasetInfo::from_tree(desc).store;
  cache.begin_fetch(id, desc, store.empty() ? cache.default_store() : store, true);
  for (auto& f : files) f.attrs.reset();  // the filemap keeps names, sizes and CRC32Cs
  cache.record_fetched(id, files);
}

}  // namespace

Status begin_bypass(const Job& job, int id, const kv::Tree& desc) {
  // The summary will go to .scr/scr.dataset.<id>/, as for a flush from cache.
  Status made = job.rank() == 0 ? io::make_dirs(job.fs(), prefix_dataset_dir(job.settings.prefix, id), 0755)
                                : Status::Ok();
  SCR_TRY(mpi::agree(job.world, made));
  FlushJob flush;
  flush.id = id;
  flush.desc = desc;
  return begin_flush(job, flush);
}

Status complete_bypass(const Job& job, CacheCatalog& cache, EventLog& events, int id,
                       const kv::Tree& desc, const std::set<std::string>& routed, bool valid,
                       double started) {
  DatasetInfo info = DatasetInfo::from_tree(desc);
  Status written = check_written(job, routed);
  if (!written.ok() && valid) log::error(written.message());
  if (!mpi::all_true(job.world, valid && written.ok())) {
    SCR_TRY(edit_index(job, [&](PrefixIndex& idx) {
      mark_flush_failed(idx, id);
      return Status::Ok();
    }));
    return Error(Errc::invalid_argument,
                 "dataset " + info.name + " is invalid on at least one process; marked failed");
  }
  Result<kv::Tree> mine = checksum_in_place(job, routed);
  FlushJob flush;
  flush.id = id;
  flush.desc = desc;
  flush.how = "bypass";
  flush.started = started;
  // The file list, decoded once for the count and the filemap.
  std::vector<kv::FileRecord> list;
  if (mine.ok())
    if (auto decoded = summary_files(*mine)) list = std::move(decoded).value();
  int64_t files = 0;
  for (const auto& f : list) files += f.shared ? 0 : 1;
  flush.desc.set_int("FILES", mpi::sum(job.world, files));
  // A checkpoint is listed in the filemap as read in place, as a fetch in
  // place lists one: the next job of the allocation restarts from it ahead
  // of older cached checkpoints (rebuild.hpp). end_flush marks it flushed.
  if (info.is_checkpoint() && mine.ok()) list_in_place(cache, id, desc, std::move(list));
  Deferred nothing;  // written in place by the application: nothing held back
  Status st = end_flush(job, cache, events, flush, mine, nothing);
  if (!st.ok() && cache.has(id)) {
    cache.forget(id);  // the previous one stays the restart's choice
    (void)cache.commit();
  }
  // Recorded: older entries go (the prefix keeps their files), so that no
  // name stands in the filemap for a checkpoint SCR_PREFIX_SIZE may delete.
  if (st.ok() && info.is_checkpoint()) {
    size_t held = cache.ids().size();
    cache.forget_in_place_before(id);
    if (mpi::any_true(job.world, cache.ids().size() != held)) st = cache.commit_agreed(job.world);
  }
  return st;
}

}  // namespace scr::rt
