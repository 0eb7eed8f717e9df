// Internal to the offline rebuild (offline.hpp): rebuilding the lost members
// of one set. A lost member's files are written under temporary names
// (pending.hpp) and appear only when its whole set is rebuilt and verified.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "redset/offline.hpp"
#include "redset/pending.hpp"

namespace scr::redset::offline::detail {

// The DESC entries a member's header carries: its own and those of its
// width() left neighbours, by set rank.
std::map<int, kv::Tree> header_entries(const SetState& set, int member);

// Where rebuild() writes lost member `member` (a set rank) of `set` in
// `target`: its redundancy file under the set's name for it in
// target.redundancy_dir, its application files at their names below
// target.data_dir, as the DESC entry kept for it lists them
// (Errc::unrecoverable when that was lost with every copy: nothing can be
// written for it). open_lost writes there and rebuild_paths names it.
struct LostPlace {
  int world_rank = 0;
  std::string redundancy_file;
  std::string data_dir;
  std::vector<FileEntry> files;
  // Every file: the application files, then the redundancy file.
  std::vector<std::string> paths() const;
};
Result<LostPlace> lost_place(const SetState& set, int member, const Target& target);

// A lost member's new data files and redundancy file, not yet in place.
struct LostFiles {
  int member = 0;
  int world_rank = 0;
  std::string redundancy_path;
  std::optional<PendingFiles> data;
  std::optional<PendingRedundancy> redundancy;
};

// Opens both under their temporary names at their lost_place in `target`;
// `header` is the member's new redundancy header.
Result<std::unique_ptr<LostFiles>> open_lost(io::Env& env, const SetState& set, int member,
                                             const Target& target, const kv::Tree& header);

// Verifies every rebuilt data file (Options::verify), then moves all of the
// set's files into place; appends what appeared to `out`.
Status commit_lost(const std::vector<std::unique_ptr<LostFiles>>& lost, const Options& options,
                   std::vector<RebuiltRank>* out);

// An intact member's files, to read from.
struct IntactFiles {
  io::LogicalFile data;
  std::unique_ptr<io::File> redundancy;
  uint64_t data_offset = 0;
};
Result<std::unique_ptr<IntactFiles>> open_intact(io::Env& env, const Survey& survey,
                                                 const SetState& set, int member);

// The schemes' rebuilds of one set; `out` gets the rebuilt ranks.
Status rebuild_coded(io::Env& env, const Survey& survey, const SetState& set, const Target& target,
                     const Options& options, std::vector<RebuiltRank>* out);
Status rebuild_partner(io::Env& env, const Survey& survey, const SetState& set,
                       const Target& target, const Options& options, std::vector<RebuiltRank>* out);

}  // namespace scr::redset::offline::detail
