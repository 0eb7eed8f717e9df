// Flush: copy a cached dataset to the prefix directory.
//
// Order of steps (crash safety): the index first records the dataset as
// incomplete (begin_flush); then every process copies its files to the
// paths the application named (each via a temporary and rename) and the
// redundancy files into .scr/scr.dataset.<id>/ (run_copies, which touches no
// MPI and may run in a background thread); then rank 0 gathers the file
// lists and records the flush (end_flush). The index marking is the shared,
// MPI-free protocol of runtime/flush_protocol.hpp, which the tools use too;
// this file adds the job's collectives around it.
#pragma once

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/context.hpp"
#include "runtime/flush_protocol.hpp"
#include "runtime/prefix_index.hpp"

namespace scr::rt {

struct CopyItem {
  std::string src, dst;
  bool app_file;  // application file (CRC and FILE entry) or redundancy file
  // CRC32C recorded when the dataset was completed: the copy must match it.
  std::optional<uint32_t> expect_crc = std::nullopt;
};

// Everything a process must copy for one dataset, fixed when the flush starts
// so the copy can run without looking at the (changing) filemap.
struct FlushJob {
  int id = 0;
  kv::Tree desc;
  std::vector<CopyItem> items;
  std::string src_dir;            // the dataset's directory in cache, where the items come from
  std::vector<std::string> dirs;  // prefix directories to create first
  bool crc = true;
  size_t piece_size = 1 << 20;
  bool keep_meta = true;  // SCR_COPY_METADATA: mode and times go with the files
  double started = 0;     // wall seconds when planned (for the event log)
  const char* how = "sync";  // sync, async or bypass (for the event log)
  uint64_t bytes_per_second = 0;  // 0: unthrottled
  std::atomic<uint64_t>* progress = nullptr;  // bytes copied so far, if wanted
};

FlushJob plan_flush(const Settings& s, const CacheCatalog& cache, int id);
// The same for the files one filemap lists (this process's, or one adopted
// from a rank of an earlier job).
FlushJob plan_copies(const Settings& s, const CacheCatalog& cache, const Filemap& fm, int id);
// The copies alone, for a dataset whose files are in `dir` (scr_scavenge
// plans with this, from a node's filemap, as a job's flush does).
FlushJob plan_copies(const Filemap& fm, int id, const std::string& dir, const std::string& prefix);
// Local, MPI-free: copy the files; returns {FILE/<rel>/{SIZE,CRC}, REDFILE/..}.
Result<kv::Tree> run_copies(io::Env& env, const FlushJob& job, const std::string& prefix);
// Collective: mark the dataset incomplete in the index.
Status begin_flush(const Job& job, const FlushJob& flush);
// Collective: agree on the copies, write the summary, mark it flushed.
Status end_flush(Context& ctx, const FlushJob& job, const Result<kv::Tree>& mine);
// How this job marks a flushed dataset: the CURRENT rule, and its
// SCR_PREFIX_SIZE window.
MarkPolicy job_mark_policy(const Settings& s);

// Collective, synchronous: all three steps.
Status flush_dataset(Context& ctx, int id);

// Should dataset id be flushed now (outputs always; checkpoints every
// SCR_FLUSH checkpoints)?
bool flush_due(const Settings& s, const DatasetInfo& info);

}  // namespace scr::rt
