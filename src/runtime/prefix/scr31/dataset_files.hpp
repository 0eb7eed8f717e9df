// A flushed dataset's metadata in SCR 3.1's layout (docs/formats/scr31.md):
//   <prefix>/.scr/scr.dataset.<id>/summary.scr   VERSION = 6, COMPLETE = 1,
//                                                 DSET/<descriptor>
//   <prefix>/.scr/scr.dataset.<id>/rank2file      LEVEL = 1, RANKS = <n>,
//                                                 RANK/<first>/{FILE = .0.<first>, OFFSET = 0}
//   <prefix>/.scr/scr.dataset.<id>/rank2file.0.<first>
//                                                 LEVEL = 0, RANKS = <n>,
//                                                 RANK/<r>/FILE/<prefix-relative name>
// SCR 3.1 records no size or checksum per file: only the descriptor's FILES
// (count) and SIZE (bytes, all ranks). SCR++ writes these beside its own
// summary so that SCR 3.1 can restart from SCR++'s checkpoints, and reads
// them to restart from SCR 3.1's.
#pragma once

#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/undo_files.hpp"
#include "kvtree/tree.hpp"

namespace scr::rt::scr31 {

inline constexpr int kSummaryVersion = 6;
// Ranks per level-0 part of a rank2file map, as SCR's own serial writer.
inline constexpr int kRanksPerPart = 8192;

// Write summary.scr and the rank2file map of SCR++'s summary tree `ours`
// (runtime/prefix/summary.hpp: DSET, RANKS, RANK/<r>/FILELIST): every rank's files,
// shared ones under each rank that wrote them. stage_dataset_files only
// stages them (the parts, the map's root, then summary.scr), for the
// caller to put in place with its own files.
Status write_dataset_files(io::Env& env, const std::string& prefix, const kv::Tree& ours);
Status stage_dataset_files(const std::string& prefix, const kv::Tree& ours, io::StagedFiles& out);

// The SCR++ summary tree of dataset `id` from SCR 3.1's summary.scr (already
// read, as `theirs`) and its rank2file map. Each file's size is taken from
// the file in the prefix (SCR 3.1 recorded none); the count and the sum must
// match the descriptor's FILES and SIZE when every file is there. The
// descriptor gains BYPASS = 1: the files are read where they lie. Errc::corrupt
// for a map that is damaged, that does not cover RANKS ranks, or that names
// a file outside the prefix.
Result<kv::Tree> read_dataset_files(io::Env& env, const std::string& prefix, int id, const kv::Tree& theirs);

// A dataset an earlier SCR++ flushed has its own summary as summary.scr: it
// becomes summary.scrpp, and SCR 3.1's summary.scr and rank2file are written
// beside it, so that SCR 3.1 can restart from it too. Nothing to do for any
// other dataset.
Status adopt_earlier_summary(io::Env& env, const std::string& prefix, int id);

}  // namespace scr::rt::scr31
