// The offline rebuild: what recover() does for a dataset, done by one process
// without MPI, on files gathered in one place (a prefix directory, where
// scr_index --build and scr_scavenge use it). The same headers, checks,
// layouts and ISA-L kernels as the MPI path decide who is lost and produce
// the lost files, so they come out bit-exact, with their recorded mode and
// times, and lost redundancy files byte for byte as they were.
//
// Two halves, as in recover(): survey() only reads, and finds every
// redundancy set from the headers it can read (GROUP, DESC with world ranks,
// CHUNK, REPLICA), who in each set is lost and whether the scheme rebuilds
// that; rebuild() then writes, set by set, and refuses to write anything
// when any set is beyond its tolerance. Data is streamed in pieces: memory
// is a few piece buffers per set, whatever the file sizes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/files.hpp"
#include "kvtree/tree.hpp"
#include "redset/meta.hpp"
#include "redset/shape.hpp"
#include "redset/survey.hpp"

namespace scr::redset::offline {

// Where one world rank's files of the dataset are.
struct Place {
  std::string data_dir;         // its application files, at their names below it
  std::string redundancy_file;  // its redundancy file
};

// One redundancy set as the survey found it.
struct SetState {
  SetShape shape;
  SetLoss loss;                     // lost set ranks, ascending; CHUNK for XOR/RS
  std::map<int, std::string> why;   // set rank -> why it counts as lost
  std::map<int, Header> headers;    // headers of the intact members, by set rank
  std::map<int, kv::Tree> entries;  // DESC entry of each member whose metadata survived
  Status verdict;                   // Ok, or why this set's loss cannot be rebuilt
};

struct LostRank {
  int world_rank = 0;
  int set = 0;  // set id
  std::string why;
};

struct Survey {
  int world_ranks = 0;
  std::vector<SetState> sets;      // by set id; sets whose headers are all gone are absent
  std::map<int, Place> places;     // as given, by world rank (none for survey_facts)
  size_t found = 0;                // redundancy files looked at
  std::vector<int> unknown_ranks;  // world ranks in no set whose header survived

  // Ok when every set can be rebuilt; otherwise Errc::unrecoverable (or
  // corrupt for inconsistent headers) naming each failing set and member.
  Status verdict() const;
  std::vector<LostRank> lost() const;
  // A world rank's files with their metadata, from its own header or a
  // neighbour's copy.
  Result<std::vector<FileEntry>> files(int world_rank) const;
  // Bytes rebuild() writes: the lost members' data and redundancy data.
  uint64_t rebuild_bytes() const;
};

// Read only. `places` lists the ranks whose redundancy file may be present
// (a rank missing from it counts as lost); `suspects` are ranks whose
// application files failed a check of the caller (a CRC32C): they count as
// lost and none of their files is read.
Survey survey(io::Env& env, const std::map<int, Place>& places, const std::set<int>& suspects = {});

// The same judgement on facts read where each rank's storage is (a node
// agent's MemberFacts, by world rank); such a survey has no places, so it
// can tell what is lost and whether it can be rebuilt, but not rebuild.
Survey survey_facts(const std::map<int, MemberFacts>& facts, const std::set<int>& suspects = {});

// Where lost members' files are rebuilt.
struct Target {
  std::string data_dir;        // application files, at their names below it
  std::string redundancy_dir;  // redundancy files, under their standard names
};

struct Options {
  size_t piece_size = io::kDefaultPieceSize;
  // Called as the rebuild goes with the bytes written since the last call.
  std::function<void(uint64_t)> progress;
  // Called for each rebuilt application file while it is still under its
  // temporary name `written`; an error keeps that set's files from appearing.
  std::function<Status(int world_rank, const FileEntry& file, const std::string& written)> verify;
};

struct RebuiltRank {
  int world_rank = 0;
  std::vector<FileEntry> files;  // rebuilt application files, in the rank's order
  std::string redundancy_file;   // path of its rebuilt redundancy file
};

// Rebuild every lost member of every set into `target`. When the survey's
// verdict is not Ok, returns it and writes nothing. Files appear set by set,
// each only once its whole set is rebuilt (and verified); an error leaves
// the sets done before it in place and nothing of the others.
Result<std::vector<RebuiltRank>> rebuild(io::Env& env, const Survey& survey, const Target& target,
                                         const Options& options = {});

// Every path in `target` that rebuild() may write for the survey's lost
// members (their application files and redundancy files), whether or not
// it gets that far: what a caller notes before the rebuild to take back
// what it wrote should it stop part way. A member whose file list was lost
// with every copy of it is not named: rebuild() writes nothing for it.
std::vector<std::string> rebuild_paths(const Survey& survey, const Target& target);

}  // namespace scr::redset::offline
