// Restart at a different scale: a checkpoint in the prefix written by a job
// with another number of processes. Its files belong to no process of this
// job, so none is fetched up front: any process may route any file of the
// dataset (found in the restart file table rank 0 writes from the summary,
// runtime/prefix/restart_table.hpp: no process holds the whole list), and
// the file is then copied into its node's cache once per node
// (or, with SCR_FETCH_BYPASS or a bypass dataset, read in place) and its
// CRC32C checked before the path is handed out. A file failing its check
// makes SCR_Complete_restart fail everywhere, so the next older checkpoint
// is offered. The dataset never enters the filemap: its node-local copies
// are deleted when the restart phase ends.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/job/job.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/summary.hpp"
#include "runtime/prefix/restart_table.hpp"
#include "runtime/transfer/restart_names.hpp"

namespace scr::rt {

struct Rescaled {
  int id = 0;
  kv::Tree desc;                              // the dataset descriptor
  int writers = 0;  // processes that wrote it
  RestartTable table;  // every file once, in writer order, found by name
  std::string table_path;  // in the prefix, or in this node's directory when the prefix refused it
  bool in_place = false;  // read in the prefix, never copied
  // This node's directory for the dataset: the copies (unless in place) and,
  // in .scr/, one lock and one "checked" mark per file, so the processes of
  // a node fetch and check each file once between them.
  std::string node_dir;
  bool failed = false;  // a file this process routed failed its check
};

// Local: every file of a prefix summary once, in writer order, with its
// recorded size and CRC32C. A file several processes wrote (N-to-1) is
// listed under the one whose entry carries the CRC (its owner), else the
// lowest rank. Errc::corrupt for a name outside the prefix or inside its
// .scr.
Result<std::vector<TableFile>> summary_listing(const std::string& prefix, const Summary& summary);

// Collective. Take dataset `id` of the prefix, whose summary (read by rank
// 0 alone; the others pass an empty one) says it was written by a job of
// another size: rank 0 writes its restart file table, every process checks
// a share of the files is present with its recorded size, and each node's
// directory is prepared: the restart it returns. Errc::corrupt when a file
// is missing.
Result<std::unique_ptr<Rescaled>> load_rescaled(const Job& job, int id, const Summary& summary);

// Local. Path to read the dataset file `rel` (prefix-relative) from, after
// fetching and checking it once for this node. Errc::not_found for a name
// that is not part of the dataset; Errc::corrupt (and the restart marked
// failed on this process) when the file does not match its record. `bare`:
// the application gave a file name alone (see restart_name).
Result<std::string> route_rescaled(const Job& job, Rescaled& r, const std::string& rel,
                                   bool bare = false);

// Collective. Delete the node-local copies and the table, and forget the
// dataset.
Status drop_rescaled(const Job& job, std::unique_ptr<Rescaled>& rescaled);

// Collective. Remove directories left by a rescaled restart this job id
// started before a crash (they are never reused), and restart file tables
// an earlier job left in the prefix. (A killed flush's held-back
// temporaries are swept before, by sweep_killed_flushes.)
void sweep_rescaled(const Job& job);

}  // namespace scr::rt
