// The prefix metadata SCR++ shares with SCR 3.1, in SCR 3.1's layout
// (docs/formats/scr31.md), and SCR++'s view of it. SCR++ keeps working on its
// own view (prefix_index.hpp, summary.hpp); these functions translate at the
// file boundary, keeping whatever SCR 3.1 wrote that SCR++ does not change.
//
// Index, <prefix>/.scr/index.scr:
//   VERSION = 2
//   CURRENT = <name>
//   NAME/<name>/DSET = <id>
//   DSET/<id>/{COMPLETE = 0|1, FLUSHED = <time>, FAILED = <time>,
//              FETCHED = <time>, DSET/<descriptor>}
// with times as "2026-11-27T04:00:00" (local time) and the descriptor as
// ID, NAME, FLAG_CKPT, FLAG_OUTPUT, CREATED, USER, JOBNAME, JOBID, CLUSTER,
// CKPT, FILES, SIZE, COMPLETE.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.hpp"
#include "kvtree/tree.hpp"

namespace scr::rt::scr31 {

inline constexpr int kIndexVersion = 2;

// "%Y-%m-%dT%H:%M:%S" in local time, as SCR stamps FLUSHED, FAILED, FETCHED.
std::string timestamp(int64_t epoch_seconds);

// A dataset descriptor both ways: SCR++'s FLAGS is SCR's FLAG_CKPT and
// FLAG_OUTPUT; every other key is the same in both and passes unchanged.
kv::Tree descriptor_to_shared(const kv::Tree& ours);
kv::Tree descriptor_from_shared(const kv::Tree& theirs);

// SCR 3.1's index as SCR++'s view (prefix_index.hpp): one entry per dataset
// with its descriptor's fields, COMPLETE and FLUSHED when SCR marked it
// complete, FAILED when it marked it failed. Errc::unsupported for an index
// of another version (SCR before 3.0 wrote version 1).
Result<kv::Tree> index_from_shared(const kv::Tree& shared);

// SCR++'s view as SCR 3.1's index. `read` is the file as it was loaded and
// `read_view` its view then: an entry whose view did not change is written
// back exactly as read, a changed one keeps SCR's keys SCR++ does not know,
// and anything SCR++ does not model (other top-level keys) stays.
// `now` stamps newly flushed or failed datasets.
kv::Tree index_to_shared(const kv::Tree& view, const kv::Tree& read, const kv::Tree& read_view, int64_t now);

// The halt file, <prefix>/.scr/halt.scr, both ways: SCR's ExitReason,
// CheckpointsLeft, ExitBefore, ExitAfter, HaltSeconds are SCR++'s
// EXIT_REASON, CHECKPOINTS, EXIT_BEFORE, EXIT_AFTER, HALT_SECONDS (halt.hpp).
// SCR marks a finished job with ExitReason = SCR_FINALIZE_CALLED, which its
// library ignores and its scripts take as "do not relaunch": that is SCR++'s
// FINALIZED (kept as a key of its own too, with the job id). Other keys pass.
inline constexpr const char* kFinalizeCalled = "SCR_FINALIZE_CALLED";
kv::Tree halt_from_shared(const kv::Tree& theirs);
kv::Tree halt_to_shared(const kv::Tree& ours);

}  // namespace scr::rt::scr31
