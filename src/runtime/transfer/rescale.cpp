#include "runtime/transfer/rescale.hpp"

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/file_lock.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {

constexpr const char* kDirPrefix = "scr.rescale.";

Status parse_summary(const std::string& prefix, const Summary& summary, Rescaled* r) {
  r->writers = summary.writers();
  r->desc = summary.desc();
  for (int w = 0; w < r->writers; ++w) {
    SCR_ASSIGN_OR_RETURN(std::vector<kv::FileRecord> files, summary_files(summary.rank(w)));
    for (const auto& f : files) {
      const std::string& rel = f.name;
      if (!io::path::is_within(prefix, io::path::join(prefix, rel)) ||
          rel == ".scr" || str::starts_with(rel, ".scr/"))
        return Error(Errc::corrupt, "summary names a file outside the prefix: " + rel);
      std::optional<uint32_t> crc = f.crc;
      auto [it, added] = r->by_name.emplace(rel, r->files.size());
      if (added) {
        r->files.push_back({rel, w, f.size});
        r->crcs.push_back(crc);
      } else if (crc && !r->crcs[it->second]) {
        r->files[it->second].rank = w;
        r->crcs[it->second] = crc;
      }
    }
  }
  return Status::Ok();
}

namespace {

// A dataset that cannot be made whole is not offered: every file must be in
// the prefix with its recorded size. Process p stats files p, p+n, p+2n...
Status check_whole(const Job& job, const Rescaled& r) {
  for (size_t i = static_cast<size_t>(job.rank()); i < r.files.size(); i += static_cast<size_t>(job.ranks())) {
    std::string path = io::path::join(job.settings.prefix, r.files[i].name);
    auto info = job.fs().stat(path);
    if (!info || !info->is_regular()) return Error(Errc::corrupt, "checkpoint file " + path + " is missing");
    if (info->size != r.files[i].size)
      return Error(Errc::corrupt, path + " has " + std::to_string(info->size) + " bytes, expected " +
                                      std::to_string(r.files[i].size));
  }
  return Status::Ok();
}

// Copy (or, in place, read) one file and compare it with its record. A copy
// reaches its destination only once its CRC matched (io::copy_file checks
// before the rename), so a damaged file is never handed out.
Status fetch_one(const Job& job, const Rescaled& r, size_t i, const std::string& src, const std::string& dst) {
  const RestartFile& f = r.files[i];
  uint64_t bytes = 0;
  uint32_t crc = 0;
  if (r.in_place) {
    SCR_ASSIGN_OR_RETURN(io::FileInfo info, job.fs().stat(src));
    bytes = info.size;
    if (r.crcs[i]) {
      SCR_ASSIGN_OR_RETURN(crc, io::file_crc32c(job.fs(), src, job.settings.piece_size));
    }
  } else {
    SCR_TRY(io::make_dirs_within(job.fs(), r.node_dir, io::path::dirname(dst), 0700));
    io::CopyOptions opt;
    opt.piece_size = job.settings.piece_size;
    opt.keep_meta = job.settings.copy_metadata;
    opt.crc32c = &crc;
    opt.expect_crc32c = r.crcs[i];
    SCR_ASSIGN_OR_RETURN(bytes, io::copy_file(job.fs(), src, dst, opt));
  }
  if (bytes != f.size)
    return Error(Errc::corrupt, src + " has " + std::to_string(bytes) + " bytes, expected " +
                                    std::to_string(f.size));
  if (r.crcs[i] && crc != *r.crcs[i])
    return Error(Errc::corrupt, src + " fails its CRC32C check (data changed since the flush)");
  return Status::Ok();
}

std::string node_dir(const Job& job, const std::string& store, int id) {
  return io::path::join(job.cache_dir(store), kDirPrefix + std::to_string(id));
}

}  // namespace

Result<std::unique_ptr<Rescaled>> load_rescaled(const Job& job, int id, const Summary& summary) {
  auto r = std::make_unique<Rescaled>();
  r->id = id;
  // The summary is the same tree everywhere, so is the outcome of parsing.
  SCR_TRY(parse_summary(job.settings.prefix, summary, r.get()));
  SCR_TRY(mpi::agree(job.world, check_whole(job, *r)));
  DatasetInfo info = DatasetInfo::from_tree(r->desc);
  r->in_place = job.settings.fetch_bypass || DatasetInfo::from_tree(r->desc).bypass;
  r->node_dir = node_dir(job, select(job.settings.reds, info.ckpt, false).store, id);
  // One process per node makes the directory, fresh: marks left by an
  // earlier attempt must not vouch for files this one has not checked.
  Status made;
  if (job.node.rank() == 0) {
    made = io::remove_tree(job.fs(), r->node_dir);
    if (made.ok()) made = io::make_dirs(job.fs(), io::path::join(r->node_dir, ".scr"), 0700);
  }
  SCR_TRY(mpi::agree(job.world, made));
  if (job.rank() == 0)
    log::info("checkpoint " + info.name + " was written by " + std::to_string(r->writers) +
              " processes and this job has " + std::to_string(job.ranks()) +
              ": restarting at a different size, each file fetched and checked when first routed on a node");
  return r;
}

Result<std::string> route_rescaled(const Job& job, Rescaled& r, const std::string& asked, bool bare) {
  auto holds = [&](const std::string& n) { return r.by_name.count(n) > 0; };
  auto all = [&] {
    std::vector<std::string> names;
    for (const auto& [name, i] : r.by_name) names.push_back(name);
    return names;
  };
  SCR_ASSIGN_OR_RETURN(RestartName routed,
                       restart_name(asked, bare, holds, r.basenames, all, r.in_place ? prefix_file(job.fs(), job.settings.prefix) : NameTest(),
                                    "checkpoint " + DatasetInfo::from_tree(r.desc).name + " (written by " +
                                        std::to_string(r.writers) + " processes)"));
  const std::string& rel = routed.name;
  // Another file of the prefix, read where it is: nothing to fetch or check.
  if (!routed.in_checkpoint) return io::path::join(job.settings.prefix, rel);
  size_t i = r.by_name.at(rel);
  std::string src = io::path::join(job.settings.prefix, rel);
  std::string dst = r.in_place ? src : io::path::join(r.node_dir, rel);
  std::string scr_dir = io::path::join(r.node_dir, ".scr");
  std::string mark = io::path::join(scr_dir, "checked." + std::to_string(i));
  // The processes of a node queue on the file's lock: the first fetches and
  // checks, the others find the mark.
  SCR_ASSIGN_OR_RETURN(io::FileLock lock, io::FileLock::acquire(job.fs(), io::path::join(scr_dir, "lock." + std::to_string(i))));
  if (job.fs().stat(mark)) return dst;
  Status st = fetch_one(job, r, i, src, dst);
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
  rescaled.reset();
  // Every process of the node is done reading before its copies go.
  job.node.barrier();
  Status st;
  if (job.node.rank() == 0) st = io::remove_tree(job.fs(), dir);
  return mpi::agree(job.world, st);
}

void sweep_rescaled(const Job& job) {
  if (job.node.rank() == 0)
    for (const auto& p : job.settings.reds) {
      std::string base = job.cache_dir(p.store);
      auto names = job.fs().list_dir(base);
      if (!names) continue;
      for (const auto& n : *names)
        if (str::starts_with(n, kDirPrefix)) (void)io::remove_tree(job.fs(), io::path::join(base, n));
    }
  job.world.barrier();
}

}  // namespace scr::rt
