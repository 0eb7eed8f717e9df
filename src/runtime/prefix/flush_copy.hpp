// The copy half of every flush: the plan of what one process copies from
// cache to the prefix (fixed when the flush starts, so the copy never looks
// at a changing filemap) and the copy itself, each file through a temporary
// and a rename, its CRC32C checked against the one recorded at Complete.
// No MPI: a job's flush (sync or in a background thread) and scr_scavenge's
// agents run the same copies; the job adds its collectives around them
// (runtime/transfer/flush.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/deferred.hpp"

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
  int owner = 0;                  // the rank whose files these are (names the deferred list)
  std::string src_dir;            // the dataset's directory in cache, where the items come from
  std::vector<std::string> dirs;  // prefix directories to create first
  // Those of `dirs`, and the directories above them, that did not exist
  // when the flush began (note_new_dirs): all that taking it back removes.
  std::vector<std::string> new_dirs;
  bool crc = true;
  size_t piece_size = 1 << 20;
  bool keep_meta = true;  // SCR_COPY_METADATA: mode and times go with the files
  double started = 0;     // wall seconds when planned (for the event log)
  const char* how = "sync";  // sync, async or bypass (for the event log)
  uint64_t bytes_per_second = 0;  // 0: unthrottled
  std::atomic<uint64_t>* progress = nullptr;  // bytes copied so far, if wanted
};

// The copies alone, for a dataset whose files are in `dir` (scr_scavenge
// plans with this, from a node's filemap, as a job's flush does).
FlushJob plan_copies(const Filemap& fm, int id, const std::string& dir, const std::string& prefix);
// Notes in job.new_dirs which of job.dirs, and of the directories above
// them, do not exist yet. Called before anything is copied, so that a failed
// copy takes back the directories it made and never one that was there
// before (an application's empty directory on a planned path).
void note_new_dirs(io::Env& env, const std::string& prefix, FlushJob& job);
// Local, MPI-free: copy the files; returns {FILE/<rel>/{SIZE,CRC}, REDFILE/..}.
// A destination that exists already (an older dataset's file of the same
// name) is not replaced yet: its complete temporary goes to `deferred`, for
// the caller to replace_deferred once the whole dataset got through, or
// drop_deferred (runtime/prefix/deferred.hpp). When the run fails, what it
// deferred is dropped before it returns.
// `finished`, when given, receives the destination of each copy written in
// place as it is done, whether or not a later one fails (what a failed run
// left behind; never a file an older dataset still owns).
Result<kv::Tree> run_copies(io::Env& env, const FlushJob& job, const std::string& prefix, Deferred& deferred,
                            std::vector<std::string>* finished = nullptr);

}  // namespace scr::rt
