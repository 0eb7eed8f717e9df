#include "runtime/flush.hpp"

#include <chrono>
#include <set>
#include <thread>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "mpi/turns.hpp"
#include "runtime/cache.hpp"
#include "runtime/index_edit.hpp"
#include "runtime/summary.hpp"

namespace scr::rt {
namespace {

// Sleep as needed so that `done` bytes take at least done/rate seconds.
void throttle(uint64_t rate, uint64_t done, std::chrono::steady_clock::time_point start) {
  if (rate == 0) return;
  auto due = start + std::chrono::duration<double>(static_cast<double>(done) / static_cast<double>(rate));
  std::this_thread::sleep_until(std::chrono::time_point_cast<std::chrono::steady_clock::duration>(due));
}

}  // namespace

FlushJob plan_flush(const Settings& s, const CacheCatalog& cache, int id) {
  return plan_copies(s, cache, cache.own(), id);
}

FlushJob plan_copies(const Settings& s, const CacheCatalog& cache, const Filemap& fm, int id) {
  FlushJob job = plan_copies(fm, id, cache.dataset_dir(fm, id), s.prefix);
  job.crc = s.crc_on_flush;
  job.piece_size = s.piece_size;
  job.keep_meta = s.copy_metadata;
  return job;
}

FlushJob plan_copies(const Filemap& fm, int id, const std::string& dir, const std::string& prefix) {
  FlushJob job;
  job.id = id;
  const kv::Tree* desc = fm.desc(id);
  job.desc = desc ? *desc : kv::Tree();
  job.started = wall_seconds();
  job.src_dir = dir;
  std::string meta_dir = prefix_dataset_dir(prefix, id);
  job.dirs.push_back(meta_dir);
  for (const auto& f : fm.file_records(id)) {
    std::string dst = io::path::join(prefix, f.name);
    job.dirs.push_back(io::path::dirname(dst));
    job.items.push_back({io::path::join(dir, f.name), dst, true, f.crc});
  }
  for (const auto& name : fm.redundancy_files(id))
    job.items.push_back({io::path::join(dir, name), io::path::join(meta_dir, io::path::basename(name)), false});
  return job;
}

Result<kv::Tree> run_copies(io::Env& env, const FlushJob& job, const std::string& prefix) {
  // Each directory once, however many files go into it.
  for (const auto& d : std::set<std::string>(job.dirs.begin(), job.dirs.end()))
    SCR_TRY(io::make_dirs_within(env, prefix, d, 0755));
  kv::Tree mine;
  std::vector<kv::FileRecord> files;
  uint64_t total = 0;
  auto start = std::chrono::steady_clock::now();
  io::CopyOptions opt;
  opt.piece_size = job.piece_size;
  opt.sync_dir = false;  // every destination directory is synced once, below
  opt.keep_meta = job.keep_meta;
  // Both ends held open: each file is looked up from its dataset's
  // directory instead of from the root.
  std::unique_ptr<io::Dir> from = io::held_dir(env, job.src_dir), to = io::held_dir(env, prefix);
  opt.src_dir = from.get();
  opt.dst_dir = to.get();
  std::set<std::string> synced;
  for (const auto& item : job.items) {
    uint64_t before = total;
    opt.progress = [&](uint64_t copied) {
      throttle(job.bytes_per_second, before + copied, start);
      if (job.progress) job.progress->store(before + copied);
    };
    uint32_t crc = 0;
    bool want_crc = item.app_file && (job.crc || item.expect_crc);
    opt.crc32c = want_crc ? &crc : nullptr;
    // Checked in the copy's one pass, before the destination is replaced: a
    // file damaged in cache never overwrites anything in the prefix.
    opt.expect_crc32c = item.app_file ? item.expect_crc : std::nullopt;
    auto copied = io::copy_file(env, item.src, item.dst, opt);
    if (!copied) return copied.status().with_context("flush of " + item.src);
    uint64_t bytes = *copied;
    total += bytes;
    if (item.app_file) {
      SCR_ASSIGN_OR_RETURN(std::string rel, io::path::relative_to(prefix, item.dst));
      kv::FileRecord& f = files.emplace_back();
      f.name = std::move(rel);
      f.size = bytes;
      if (want_crc) f.crc = crc;
    } else {
      add_summary_redundancy(mine, io::path::basename(item.dst), bytes);
    }
    synced.insert(io::path::dirname(item.dst));
  }
  // The renames must be durable before the caller records the flush.
  for (const auto& d : synced) SCR_TRY(env.sync_dir(d));
  set_summary_files(mine, files);
  return mine;
}

Status begin_flush(const Job& job, const FlushJob& flush) {
  return edit_index(job, [&](PrefixIndex& idx) {
    mark_flush_begun(idx, flush.desc);
    return Status::Ok();
  });
}

Status end_flush(Context& ctx, const FlushJob& job, const Result<kv::Tree>& mine) {
  DatasetInfo info = DatasetInfo::from_tree(job.desc);
  SCR_TRY(mpi::agree(ctx.world, mine.status()).with_context("flush of dataset " + info.name));
  int64_t my_bytes = 0;
  if (auto files = summary_files(*mine))
    for (const auto& f : *files)
      if (!f.shared) my_bytes += static_cast<int64_t>(f.size);  // a shared file counts once
  int64_t bytes = mpi::sum(ctx.world, my_bytes);
  // Gather every process's file list at rank 0 for the summary.
  auto lists = mpi::gather_trees(ctx.world, *mine, 0);
  SCR_TRY(edit_index(ctx.job, [&](PrefixIndex& idx) {
    return record_flushed(ctx.fs(), ctx.settings.prefix, idx, job.desc, ctx.ranks(), std::move(lists),
                          bytes, job_mark_policy(ctx.settings))
        .status();
  }));
  if (ctx.cache.has(job.id)) {
    SCR_TRY(ctx.cache.transition(job.id, CacheState::flushed));
    SCR_TRY(ctx.cache.commit_agreed(ctx.world));
    // An output-only dataset has reached the prefix; it need not stay cached.
    if (!info.is_checkpoint()) SCR_TRY(mpi::agree(ctx.world, delete_cached(ctx, job.id)));
  }
  if (ctx.rank() == 0)
    log::info("flushed dataset " + info.name + " (" + str::format_bytes(static_cast<uint64_t>(bytes)) + ")");
  ctx.events.record({"FLUSH", info.name, job.id, wall_seconds() - job.started, bytes, job.how});
  return Status::Ok();
}

MarkPolicy job_mark_policy(const Settings& s) {
  MarkPolicy policy;
  policy.prefix_size = s.prefix_size;
  return policy;
}

Status flush_dataset(Context& ctx, int id) {
  FlushJob job = plan_flush(ctx.settings, ctx.cache, id);
  SCR_TRY(begin_flush(ctx.job, job));
  // SCR_FLUSH_WIDTH processes copy at a time; a copy's error is agreed on
  // in end_flush like any other.
  Result<kv::Tree> mine = Status(Errc::io_error, "flush of dataset " + std::to_string(id) + " did not run");
  SCR_TRY(mpi::in_turns(ctx.world, ctx.settings.flush_width, [&] {
    mine = run_copies(ctx.fs(), job, ctx.settings.prefix);
    return Status::Ok();
  }));
  return end_flush(ctx, job, mine);
}

bool flush_due(const Settings& s, const DatasetInfo& info) {
  if (info.is_output()) return true;
  return s.flush > 0 && info.ckpt > 0 && info.ckpt % s.flush == 0;
}

}  // namespace scr::rt
