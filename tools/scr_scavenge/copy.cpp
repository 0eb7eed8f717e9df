#include "tools/scr_scavenge/copy.hpp"

#include <atomic>
#include <chrono>
#include <future>

#include "io/path.hpp"
#include "runtime/flush.hpp"
#include "runtime/prefix_index.hpp"

namespace scr::tools::scavenge {
namespace {

// What rt::plan_flush would plan for this rank, from its holding.
rt::FlushJob flush_job(const Holding& h, const kv::Tree& desc, const std::string& prefix) {
  rt::FlushJob job;
  job.id = h.id;
  job.desc = desc;
  std::string meta_dir = rt::prefix_dataset_dir(prefix, h.id);
  job.dirs.push_back(meta_dir);
  for (const auto& rel : h.files()) {
    std::string dst = io::path::join(prefix, rel);
    job.dirs.push_back(io::path::dirname(dst));
    job.items.push_back({io::path::join(h.dir, rel), dst, true});
  }
  for (const auto& name : h.redundancy_files())
    job.items.push_back({io::path::join(h.dir, name), io::path::join(meta_dir, io::path::basename(name)), false});
  return job;
}

}  // namespace

uint64_t holding_bytes(io::Env& env, const Holding& h) {
  uint64_t n = 0;
  auto names = h.files();
  auto red = h.redundancy_files();
  names.insert(names.end(), red.begin(), red.end());
  for (const auto& name : names)
    if (auto info = env.stat(io::path::join(h.dir, name))) n += info->size;
  return n;
}

// run_copies reports bytes through an atomic counter; it runs beside this
// thread, which turns the counter into progress lines.
Result<kv::Tree> copy_rank(io::Env& env, const Holding& h, const kv::Tree& desc,
                           const std::string& prefix, Progress& progress) {
  rt::FlushJob job = flush_job(h, desc, prefix);
  std::atomic<uint64_t> copied{0};
  job.progress = &copied;
  auto work = std::async(std::launch::async, [&] { return rt::run_copies(env, job, prefix); });
  uint64_t shown = 0;
  auto report = [&] {
    uint64_t now = copied.load();
    progress.add(now - shown);
    shown = now;
  };
  while (work.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) report();
  report();
  return work.get();
}

std::vector<std::string> changed_files(const Holding& h, const kv::Tree& copied) {
  std::vector<std::string> changed;
  const kv::Tree* recorded = h.entry().get("CRC");
  const kv::Tree* files = copied.get("FILE");
  if (!recorded || !files) return changed;
  for (const auto& [name, f] : files->children())
    if (recorded->has(name) && recorded->uint_or(name, 0) != f->uint_or("CRC", 0))
      changed.push_back(name);
  return changed;
}

}  // namespace scr::tools::scavenge
