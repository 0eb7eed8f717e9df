#include "runtime/transfer/rescale.hpp"

#include <unordered_map>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/file_lock.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/cache/outcome.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {

constexpr const char* kDirPrefix = "scr.rescale.";

Result<std::vector<TableFile>> summary_listing(const std::string& prefix, const Summary& summary) {
  std::vector<TableFile> out;
  std::unordered_map<std::string, size_t> by_name;
  for (int w = 0; w < summary.writers(); ++w) {
    SCR_ASSIGN_OR_RETURN(std::vector<kv::FileRecord> files, summary_files(summary.rank(w)));
    for (auto& f : files) {
      const std::string& rel = f.name;
      if (!io::path::is_within(prefix, io::path::join(prefix, rel)) ||
          rel == ".scr" || str::starts_with(rel, ".scr/"))
        return Error(Errc::corrupt, "summary names a file outside the prefix: " + rel);
      auto [it, added] = by_name.emplace(rel, out.size());
      if (added) {
        out.push_back({std::move(f.name), w, f.size, f.crc, out.size()});
      } else if (f.crc && !out[it->second].crc) {
        out[it->second].rank = w;
        out[it->second].crc = f.crc;
      }
    }
  }
  return out;
}

namespace {

// A dataset that cannot be made whole is not offered: every file must be in
// the prefix with its recorded size. Process p stats the p-th of n equal
// runs of the listing, so it reads one or two pieces of the table.
Status check_whole(const Job& job, Rescaled& r) {
  const uint64_t n = r.table.size(), procs = static_cast<uint64_t>(job.ranks()), p = static_cast<uint64_t>(job.rank());
  for (uint64_t i = n * p / procs; i < n * (p + 1) / procs; ++i) {
    SCR_ASSIGN_OR_RETURN(TableFile f, r.table.at(i));
    std::string path = io::path::join(job.settings.prefix, f.name);
    auto info = job.fs().stat(path);
    if (!info || !info->is_regular()) return Error(Errc::corrupt, "checkpoint file " + path + " is missing");
    if (info->size != f.size)
      return Error(Errc::corrupt, path + " has " + std::to_string(info->size) + " bytes, expected " +
                                      std::to_string(f.size));
  }
  return Status::Ok();
}

// Copy (or, in place, read) one file and compare it with its record. A copy
// reaches its destination only once its CRC matched (io::copy_file checks
// before the rename), so a damaged file is never handed out.
Status fetch_one(const Job& job, const Rescaled& r, const TableFile& f, const std::string& src, const std::string& dst) {
  uint64_t bytes = 0;
  uint32_t crc = 0;
  if (r.in_place) {
    SCR_ASSIGN_OR_RETURN(io::FileInfo info, job.fs().stat(src));
    bytes = info.size;
    if (f.crc) {
      SCR_ASSIGN_OR_RETURN(crc, io::file_crc32c(job.fs(), src, job.settings.piece_size));
    }
  } else {
    SCR_TRY(io::make_dirs_within(job.fs(), r.node_dir, io::path::dirname(dst), 0700));
    io::CopyOptions opt;
    opt.piece_size = job.settings.piece_size;
    opt.keep_meta = job.settings.copy_metadata;
    opt.crc32c = &crc;
    opt.expect_crc32c = f.crc;
    SCR_ASSIGN_OR_RETURN(bytes, io::copy_file(job.fs(), src, dst, opt));
  }
  if (bytes != f.size)
    return Error(Errc::corrupt, src + " has " + std::to_string(bytes) + " bytes, expected " +
                                    std::to_string(f.size));
  if (f.crc && crc != *f.crc)
    return Error(Errc::corrupt, src + " fails its CRC32C check (data changed since the flush)");
  return Status::Ok();
}

std::string node_dir(const Job& job, const std::string& store, int id) {
  return io::path::join(job.cache_dir(store), kDirPrefix + std::to_string(id));
}

// The restart file table of dataset `id` written from `summary` to `path`.
Status write_table(const Job& job, const Summary& summary, const std::string& path) {
  SCR_ASSIGN_OR_RETURN(std::vector<TableFile> files, summary_listing(job.settings.prefix, summary));
  return write_restart_table(job.fs(), path, summary.writers(), files, true);
}

// Collective: where every process of a node reads the table. Rank 0 writes
// it once into the prefix. A prefix that cannot take it (full, or refusing
// the write) must not cost the restart a checkpoint it holds whole: then each node's
// first process reads the summary itself and writes the table into the
// node's directory for the dataset, which goes with it (drop_rescaled,
// sweep_rescaled).
Result<std::string> place_table(const Job& job, int id, const Summary& summary, const std::string& node_dir) {
  std::string shared = restart_table_path(job.settings.prefix, id);
  Status written;
  if (job.rank() == 0) written = write_table(job, summary, shared);
  Status agreed = mpi::agree(job.world, written);
  if (agreed.ok()) return shared;
  bool refused = storage_failed(written) || written.code() == Errc::permission;
  if (!mpi::any_true(job.world, !written.ok() && refused)) return agreed;
  if (job.rank() == 0)
    log::warn("the prefix cannot take the restart file table (" + agreed.message() +
              "): each node writes its own into its cache");
  std::string local = io::path::join(node_dir, ".scr/files");
  Status own;
  if (job.rank() == 0) {
    own = write_table(job, summary, local);  // it leads its node (split in world order) and read the summary
  } else if (job.node.rank() == 0) {
    auto read = Summary::read(job.fs(), job.settings.prefix, id);
    own = read ? write_table(job, *read, local) : read.status();
  }
  SCR_TRY(mpi::agree(job.world, own));
  return local;
}

}  // namespace

Result<std::unique_ptr<Rescaled>> load_rescaled(const Job& job, int id, const Summary& summary) {
  auto r = std::make_unique<Rescaled>();
  r->id = id;
  if (job.rank() == 0) r->desc = summary.desc();
  mpi::bcast_tree(job.world, r->desc, 0);
  DatasetInfo info = DatasetInfo::from_tree(r->desc);
  r->in_place = job.settings.fetch_bypass || info.bypass;
  r->node_dir = node_dir(job, select(job.settings.reds, info.ckpt).store, id);
  // One process per node makes the directory, fresh: marks left by an
  // earlier attempt must not vouch for files this one has not checked.
  Status made;
  if (job.node.rank() == 0) {
    made = io::remove_tree(job.fs(), r->node_dir);
    if (made.ok()) made = io::make_dirs(job.fs(), io::path::join(r->node_dir, ".scr"), 0700);
  }
  SCR_TRY(mpi::agree(job.world, made));
  SCR_ASSIGN_OR_RETURN(r->table_path, place_table(job, id, summary, r->node_dir));
  auto opened = RestartTable::open(job.fs(), r->table_path);
  SCR_TRY(mpi::agree(job.world, opened.status()));
  r->table = std::move(opened).value();
  r->writers = r->table.writers();
  SCR_TRY(mpi::agree(job.world, check_whole(job, *r)));
  if (job.rank() == 0)
    log::info("checkpoint " + info.name + " was written by " + std::to_string(r->writers) +
              " processes and this job has " + std::to_string(job.ranks()) +
              ": restarting at a different size, each file fetched and checked when first routed on a node");
  return r;
}

Result<std::string> route_rescaled(const Job& job, Rescaled& r, const std::string& asked, bool bare) {
  // A lookup that fails to read the table fails the route (not a "no such
  // file"): the first error is kept and returned.
  Status unreadable;
  std::optional<TableFile> found;  // the last name the table held
  auto holds = [&](const std::string& n) {
    auto f = r.table.find(n);
    if (!f && unreadable.ok()) unreadable = f.status();
    if (f && *f) found = **f;
    return found && found->name == n;
  };
  auto by_base = [&](const std::string& base) { return r.table.with_basename(base); };
  auto routed = restart_name(asked, bare, holds, by_base, r.in_place ? prefix_file(job.fs(), job.settings.prefix) : NameTest(),
                             "checkpoint " + DatasetInfo::from_tree(r.desc).name + " (written by " +
                                 std::to_string(r.writers) + " processes)");
  SCR_TRY(unreadable);
  if (!routed) return routed.status();
  const std::string& rel = routed->name;
  // Another file of the prefix, read where it is: nothing to fetch or check.
  if (!routed->in_checkpoint) return io::path::join(job.settings.prefix, rel);
  // Matched by its last component: look the full name up (same bucket read
  // only when the names share one).
  if (!found || found->name != rel) {
    SCR_ASSIGN_OR_RETURN(found, r.table.find(rel));
  }
  if (!found) return Error(Errc::corrupt, r.table_path + " lists " + rel + " only by its last component");
  const TableFile& f = *found;
  std::string src = io::path::join(job.settings.prefix, rel);
  std::string dst = r.in_place ? src : io::path::join(r.node_dir, rel);
  std::string scr_dir = io::path::join(r.node_dir, ".scr");
  std::string mark = io::path::join(scr_dir, "checked." + std::to_string(f.index));
  // The processes of a node queue on the file's lock: the first fetches and
  // checks, the others find the mark.
  SCR_ASSIGN_OR_RETURN(io::FileLock lock, io::FileLock::acquire(job.fs(), io::path::join(scr_dir, "lock." + std::to_string(f.index))));
  if (job.fs().stat(mark)) return dst;
  Status st = fetch_one(job, r, f, src, dst);
  if (st.ok()) st = io::write_file_atomic(job.fs(), mark, "");
  if (!st.ok()) {
    r.failed = true;
    return st.with_context("checkpoint file " + rel);
  }
  return dst;
}

Status drop_rescaled(const Job& job, std::unique_ptr<Rescaled>& rescaled) {
  if (!rescaled) return Status::Ok();
  std::string dir = rescaled->node_dir;
  int id = rescaled->id;
  rescaled.reset();
  // Every process of the node is done reading before its copies go, and
  // every process of the job before the table goes.
  job.node.barrier();
  Status st;
  if (job.node.rank() == 0) st = io::remove_tree(job.fs(), dir);
  st = mpi::agree(job.world, st);
  if (job.rank() == 0) (void)io::remove_file(job.fs(), restart_table_path(job.settings.prefix, id));
  return st;
}

void sweep_rescaled(const Job& job) {
  if (job.node.rank() == 0) sweep_cache_entries(job, kDirPrefix);
  // Only one job uses a prefix at a time: every table there is a leftover.
  if (job.rank() == 0)
    if (auto names = job.fs().list_dir(prefix_scr_dir(job.settings.prefix)))
      for (const auto& n : *names)
        if (str::starts_with(n, kTableFilePrefix))
          (void)io::remove_file(job.fs(), io::path::join(prefix_scr_dir(job.settings.prefix), n));
  job.world.barrier();
}

}  // namespace scr::rt
