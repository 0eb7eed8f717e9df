#include "runtime/transfer/fetch.hpp"

#include <algorithm>
#include <set>

#include "common/clock.hpp"
#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "mpi/turns.hpp"
#include "redset/meta.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/cache/outcome.hpp"
#include "runtime/job/index_edit.hpp"
#include "runtime/prefix/flush_protocol.hpp"
#include "runtime/prefix/summary.hpp"
#include "runtime/transfer/fetch_redundancy.hpp"
#include "runtime/transfer/rescale.hpp"

namespace scr::rt {
namespace {

// Rank 0's view of the index, broadcast as the fetch order.
std::vector<int> agreed_fetch_order(const Job& job, const std::string& current) {
  kv::Tree order;
  if (job.rank() == 0) {
    auto idx = PrefixIndex::load(job.fs(), job.settings.prefix);
    if (!idx) log::error(idx.status().message());
    else {
      auto ids = idx->fetch_order(current);
      for (size_t i = 0; i < ids.size(); ++i) order.set_int(std::to_string(i), ids[i]);
    }
  }
  mpi::bcast_tree(job.world, order, 0);
  std::vector<int> out;
  for (int64_t i : order.int_keys()) out.push_back(static_cast<int>(order.int_or(std::to_string(i), 0)));
  return out;
}

// Rank 0 hands each process its part of the summary (read by rank 0).
void distribute_summary(const Job& job, const Summary& summary, kv::Tree* desc, kv::Tree* mine) {
  std::vector<kv::Tree> parts;
  if (job.rank() == 0) {
    *desc = summary.desc();
    parts.reserve(static_cast<size_t>(job.ranks()));
    for (int r = 0; r < job.ranks(); ++r) parts.push_back(summary.rank(r));
  }
  mpi::bcast_tree(job.world, *desc, 0);
  *mine = mpi::scatter_trees(job.world, parts, 0);
}

// Compare what was read with what the summary recorded at flush.
Status verify(const std::string& src, const kv::FileRecord& f, uint64_t bytes, uint32_t crc) {
  if (bytes != f.size)
    return Error(Errc::corrupt, src + " has " + std::to_string(bytes) + " bytes, expected " + std::to_string(f.size));
  if (f.crc && crc != *f.crc)
    return Error(Errc::corrupt, src + " fails its CRC32C check (data changed since the flush)");
  return Status::Ok();
}

// Copy this process's files into the cache (or, `in_place`, only read them
// where they lie in the prefix) and check sizes and CRCs. A shared file is
// checked by its owner; the others compare its size (the summary has no CRC
// for them).
// `described` receives the copies in the form redset::describe_files gives,
// taken from each copy as it was written (no second stat per file), with the
// checksums they were just checked against.
// `red`, when given, is this process's flushed redundancy file, copied
// after the files (in the same turn at the prefix); it is reset if it
// cannot be, and the fetch goes on.
Status load_files(const Job& job, CacheCatalog& cache, int id, const kv::Tree& mine, const std::string& dir, bool in_place,
                  std::optional<kv::Tree>* described, std::optional<FlushedRedundancy>& red) {
  SCR_ASSIGN_OR_RETURN(std::vector<kv::FileRecord> files, summary_files(mine));
  io::CopyOptions opt;
  opt.piece_size = job.settings.piece_size;
  opt.keep_meta = job.settings.copy_metadata;
  // No fsync per copy: one syncfs of the cache's file system after the last
  // copy (below), before the filemap records any of them, makes every copy
  // and every directory made durable at once. The same guarantee for one
  // call instead of one per file (on a node-local disk, a device flush each).
  opt.fsync = false;
  // Both ends held open: each file is looked up from there, not from the root.
  std::unique_ptr<io::Dir> from = io::held_dir(job.fs(), job.settings.prefix);
  std::unique_ptr<io::Dir> to = in_place ? nullptr : io::held_dir(job.fs(), dir);
  opt.src_dir = from.get();
  opt.dst_dir = to.get();
  std::set<std::string> made;  // each cache directory is made once
  std::vector<kv::FileRecord> copies;  // each copy's own metadata, as redset describes files
  if (!in_place) copies.reserve(files.size());
  for (auto& f : files) {
    std::string src = io::path::join(job.settings.prefix, f.name);
    std::string dst = io::path::join(dir, f.name);
    // A plain relative name (no "." or ".." in it) cannot leave the directory
    // it is joined to; any other name is checked in full.
    bool plain = !io::path::is_absolute(f.name) && io::path::is_normal(f.name);
    if (!plain && (!io::path::is_within(job.settings.prefix, src) || !io::path::is_within(dir, dst)))
      return Error(Errc::corrupt, "summary names a file outside the prefix: " + f.name);
    uint32_t crc = 0;
    uint64_t bytes = 0;
    if (in_place) {
      SCR_ASSIGN_OR_RETURN(io::FileInfo info, io::stat_in(job.fs(), from.get(), src));
      if (!info.is_regular()) return Error(Errc::corrupt, src + " is not a regular file");
      bytes = info.size;
      if (f.crc) {
        SCR_ASSIGN_OR_RETURN(crc, io::file_crc32c(job.fs(), src, job.settings.piece_size));
      }
    } else {
      if (made.insert(io::path::dirname(dst)).second)
        SCR_TRY(io::make_dirs_within(job.fs(), dir, io::path::dirname(dst), 0700));
      io::FileInfo written;
      opt.crc32c = &crc;
      opt.written_info = &written;
      SCR_ASSIGN_OR_RETURN(bytes, io::copy_file(job.fs(), src, dst, opt));
      copies.push_back({f.name, written.size, f.crc, false, redset::attrs_of(written)});
    }
    SCR_TRY(verify(src, f, bytes, crc));
    // The filemap keeps the name, size and CRC32C only.
    f.shared = false;
    f.attrs.reset();
  }
  if (red && !copy_flushed_redundancy(job.fs(), *red).ok()) red.reset();
  if (!in_place) SCR_TRY(job.fs().sync_fs(dir));
  cache.record_fetched(id, files);
  if (!in_place) *described = redset::files_tree(copies);
  return cache.commit();
}

Status try_fetch(const Job& job, FetchInto& into, int id) {
  CacheCatalog& cache = into.cache;
  Result<Summary> summary = Summary();
  if (job.rank() == 0) summary = Summary::read(job.fs(), job.settings.prefix, id);
  SCR_TRY(mpi::agree(job.world, summary.status()));
  // Written by a job of another size: any process may read any file, found
  // in the table rank 0 writes from the summary.
  int64_t writers = mpi::min(job.world, job.rank() == 0 ? summary->writers() : INT64_MAX);
  if (writers != job.ranks()) {
    SCR_ASSIGN_OR_RETURN(into.rescaled, load_rescaled(job, id, *summary));
    return Status::Ok();
  }
  kv::Tree desc, mine;
  distribute_summary(job, *summary, &desc, &mine);
  DatasetInfo info = DatasetInfo::from_tree(desc);
  const RedDesc& p = select(job.settings.reds, info.ckpt);
  std::string dir = cache.dataset_dir(p.store, id);
  // A dataset written with cache bypass, or SCR_FETCH_BYPASS: read in place.
  bool in_place = job.settings.fetch_bypass || info.bypass;
  // Fetched into cache, it is protected there with the sets of this job: by
  // the redundancy files flushed with it where they fit, else encoded again.
  const ProtectionSet* ps = nullptr;
  std::optional<FlushedRedundancy> red;
  if (!in_place) {
    SCR_ASSIGN_OR_RETURN(ps, protection_set(job, into.sets, p));
    red = flushed_redundancy(job, ps->set, id, mine, dir);
  }
  cache.begin_fetch(id, desc, p.store, in_place);
  Status st = in_place ? Status::Ok() : io::make_dirs(job.fs(), dir, 0700);
  std::optional<kv::Tree> described;
  // SCR_FETCH_WIDTH processes read the prefix at a time (every process takes
  // its turn, whatever its own state, so the turns never stall).
  st = mpi::in_turns(job.world, job.settings.fetch_width,
                     [&] { return st.ok() ? load_files(job, cache, id, mine, dir, in_place, &described, red) : st; });
  st = mpi::agree(job.world, st);
  if (!st.ok()) {
    if (red) (void)io::remove_file(job.fs(), red->dst);
    (void)delete_cached(job, cache, id);
    return st;
  }
  if (!in_place && !adopt_flushed_redundancy(job, cache, *ps, id, red, *described))
    SCR_TRY(protect_dataset(job, cache, into.sets, id, p, std::move(described)));
  SCR_TRY(cache.transition(id, CacheState::flushed));  // it came from the prefix
  return cache.commit_agreed(job.world);
}

}  // namespace

void set_aside_unreadable_index(const Job& job) {
  if (job.rank() != 0) return;
  std::string why;
  auto aside = set_aside_unreadable_index(job.fs(), job.settings.prefix, &why);
  if (!aside) {
    log::error(aside.status().message() + ": flushes to this prefix will fail until it is repaired or moved");
    return;
  }
  if (aside->empty()) return;
  log::warn(why + "; set aside as " + *aside +
            " and a new index started, so this job's checkpoints are saved. Datasets listed only in the old "
            "index can be added back with scr_index --build ID --prefix " + job.settings.prefix);
}

namespace {

// Why `name` cannot be restarted from the index, or "" when it can.
std::string why_not_loadable(const PrefixIndex& idx, const std::string& name) {
  auto id = idx.find_name(name);
  if (!id) return "no dataset of that name is in the prefix index (dropped, deleted or misspelt?)";
  if (idx.loadable(*id)) return "";
  if (!DatasetInfo::from_tree(*idx.find(*id)).is_checkpoint()) return "it is an output dataset, not a checkpoint";
  return idx.failed(*id) ? "it is marked failed" : "it was never completely flushed";
}

// Rank 0: SCR_CURRENT names no checkpoint this job could restart from.
void warn_unknown_current(const Job& job, const CacheCatalog& cache, const Result<PrefixIndex>& idx,
                          const std::vector<int>& cached) {
  const std::string& want = job.settings.current;
  if (want.empty()) return;
  std::vector<std::string> names;  // newest first, cached ones before the prefix's
  auto add = [&](const std::string& n) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  for (int id : cached)
    if (auto info = cache.info(id)) add(info->name);
  std::string why = "no checkpoint of that name is cached and the prefix index cannot be read";
  if (idx) {
    why = why_not_loadable(*idx, want);
    std::vector<int> ids = idx->ids();
    for (auto it = ids.rbegin(); it != ids.rend(); ++it)
      if (idx->loadable(*it)) add(idx->find(*it)->value_or("NAME", ""));
  }
  if (std::find(names.begin(), names.end(), want) != names.end()) return;
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  log::warn("SCR_CURRENT=" + want + " names no checkpoint to restart from: " + why + ". Checkpoints available: " +
            (list.empty() ? "none" : list + " (newest first)") +
            "; the restart goes on from the newest one that loads");
}

}  // namespace

void learn_prefix(const Job& job, CacheCatalog& cache, const std::vector<int>& cached) {
  int64_t max_id = 0, max_ckpt = 0;
  if (job.rank() == 0) {
    // One read of the index serves both.
    auto idx = PrefixIndex::load(job.fs(), job.settings.prefix);
    if (idx) {
      for (int id : idx->ids()) {
        max_id = std::max<int64_t>(max_id, id);
        max_ckpt = std::max<int64_t>(max_ckpt, idx->find(id)->int_or("CKPT", 0));
      }
    }
    // A dataset directory the index does not list (its index set aside, or
    // written by a job that died) must not be written over by a new dataset.
    if (auto names = job.fs().list_dir(prefix_scr_dir(job.settings.prefix)))
      for (const auto& n : *names)
        if (str::starts_with(n, "scr.dataset."))
          if (auto id = str::parse_int(n.substr(12)); id && *id > 0 && *id < INT32_MAX)
            max_id = std::max<int64_t>(max_id, *id);
    warn_unknown_current(job, cache, idx, cached);
  }
  int agreed_id = static_cast<int>(mpi::max(job.world, max_id));
  cache.reserve_ids(agreed_id, static_cast<int>(mpi::max(job.world, max_ckpt)));
}

namespace {
// A fetch that failed for want of room or through an I/O error in cache, or
// for a reason of this job (invalid_argument: it cannot read that checkpoint
// here), says nothing about the checkpoint: it stays loadable for a later
// job. Anything else found its data damaged, and it is marked FAILED.
bool fetch_spares_data(const Status& st) { return storage_failed(st) || st.code() == Errc::invalid_argument; }
}  // namespace

bool fetch_dataset(const Job& job, FetchInto& into, int id, bool rolls_back) {
  double t0 = wall_seconds();
  Outcome outcome = agree_outcome(job.world, try_fetch(job, into, id), fetch_spares_data);
  const Status& st = outcome.why;
  std::string name;
  // Record the outcome: CURRENT and FETCHED, or FAILED for damaged data.
  Status recorded = edit_index(job, [&](PrefixIndex& idx) {
    kv::Tree* e = idx.find(id);
    if (!e) return Status::Ok();
    name = e->value_or("NAME", "");
    if (outcome.verdict == Verdict::usable) {
      if (rolls_back) idx.set_current(name);
      else (void)choose_current(idx, id);
      e->set_int("FETCHED", static_cast<int64_t>(wall_seconds()));
    } else if (outcome.verdict == Verdict::unusable) {
      idx.mark_failed(id);
      if (idx.current() == name) idx.clear_current();
    }
    return Status::Ok();
  });
  if (!recorded.ok() && job.rank() == 0) log::error(recorded.message());
  if (job.rank() == 0) {
    if (st.ok())
      into.events.record({"FETCH", name, id, wall_seconds() - t0, -1, "ok"});
    else
      into.events.record({"FETCH_FAILED", name, id, wall_seconds() - t0, -1, st.message()});
    if (st.ok())
      log::info("fetched checkpoint " + name + " from the prefix in " +
                std::to_string(wall_seconds() - t0) + " s");
    else
      log::warn("cannot fetch checkpoint " + name + " (id " + std::to_string(id) + "): " +
                st.message() + "; trying an older one");
  }
  return st.ok();
}

Result<int> fetch_checkpoint(const Job& job, FetchInto& into, const std::string& current) {
  for (int id : agreed_fetch_order(job, current))
    if (fetch_dataset(job, into, id, true)) return id;
  return 0;
}

}  // namespace scr::rt
