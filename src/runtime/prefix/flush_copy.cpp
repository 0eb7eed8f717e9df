#include "runtime/prefix/flush_copy.hpp"

#include <chrono>
#include <set>
#include <thread>

#include "common/clock.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "io/undo_files.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {
namespace {

// Sleep as needed so that `done` bytes take at least done/rate seconds.
void throttle(uint64_t rate, uint64_t done, std::chrono::steady_clock::time_point start) {
  if (rate == 0) return;
  auto due = start + std::chrono::duration<double>(static_cast<double>(done) / static_cast<double>(rate));
  std::this_thread::sleep_until(std::chrono::time_point_cast<std::chrono::steady_clock::duration>(due));
}

// Whether the directory `path` goes into is certainly not there.
bool dir_gone(io::Env& env, const std::string& path) {
  auto info = env.stat(io::path::dirname(path));
  return !info && info.status().code() == Errc::not_found;
}

// run_copies without the cleanup of what it deferred when it fails.
Result<kv::Tree> copy_all(io::Env& env, const FlushJob& job, const std::string& prefix, Deferred& deferred,
                          std::vector<std::string>* finished) {
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
  // Only a destination that exists already reaches this: the normal case
  // (new names) pays nothing for it.
  std::string held_back;
  std::string list = deferred_list_path(prefix, job.id, job.owner);
  opt.defer = [&](const std::string& temp) {
    held_back = temp;
    return note_deferred(env, deferred, list, temp);
  };
  for (const auto& item : job.items) {
    held_back.clear();
    uint64_t before = total;
    opt.progress = [&](uint64_t copied) {
      throttle(job.bytes_per_second, before + copied, start);
      if (job.progress) job.progress->store(before + copied);
    };
    uint32_t crc = 0;
    // Redundancy files always: a fetch takes one back only when it matches.
    bool want_crc = !item.app_file || job.crc || item.expect_crc;
    opt.crc32c = want_crc ? &crc : nullptr;
    // Checked in the copy's one pass, before the destination is replaced: a
    // file damaged in cache never overwrites anything in the prefix.
    opt.expect_crc32c = item.app_file ? item.expect_crc : std::nullopt;
    auto copied = io::copy_file(env, item.src, item.dst, opt);
    if (!copied && copied.status().code() == Errc::not_found && dir_gone(env, item.dst)) {
      // Made above, then removed: an older dataset's deletion (the
      // SCR_PREFIX_SIZE window or SCR_Delete) takes the directories its
      // files leave empty, and it may run while this flush runs in the
      // background, on another node. Made again, the copy is tried once more.
      SCR_TRY(io::make_dirs_within(env, prefix, io::path::dirname(item.dst), 0755));
      copied = io::copy_file(env, item.src, item.dst, opt);
    }
    if (!copied) return copied.status().with_context("flush of " + item.src);
    if (!held_back.empty()) {
      deferred.files.push_back({held_back, item.dst});
    } else {
      if (finished) finished->push_back(item.dst);
      synced.insert(io::path::dirname(item.dst));
    }
    uint64_t bytes = *copied;
    total += bytes;
    if (item.app_file) {
      SCR_ASSIGN_OR_RETURN(std::string rel, io::path::relative_to(prefix, item.dst));
      kv::FileRecord& f = files.emplace_back();
      f.name = std::move(rel);
      f.size = bytes;
      if (want_crc) f.crc = crc;
    } else {
      add_summary_redundancy(mine, io::path::basename(item.dst), bytes, crc);
    }
  }
  // The renames must be durable before the caller records the flush.
  for (const auto& d : synced) SCR_TRY(env.sync_dir(d));
  set_summary_files(mine, files);
  return mine;
}

}  // namespace

FlushJob plan_copies(const Filemap& fm, int id, const std::string& dir, const std::string& prefix) {
  FlushJob job;
  job.id = id;
  const kv::Tree* desc = fm.desc(id);
  job.desc = desc ? *desc : kv::Tree();
  job.started = wall_seconds();
  job.owner = fm.owner();
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

void note_new_dirs(io::Env& env, const std::string& prefix, FlushJob& job) {
  job.new_dirs = io::missing_dirs(env, prefix, job.dirs);
}

Result<kv::Tree> run_copies(io::Env& env, const FlushJob& job, const std::string& prefix, Deferred& deferred,
                            std::vector<std::string>* finished) {
  deferred.prefix = prefix;
  auto copied = copy_all(env, job, prefix, deferred, finished);
  if (!copied) drop_deferred(env, deferred);
  return copied;
}

}  // namespace scr::rt
