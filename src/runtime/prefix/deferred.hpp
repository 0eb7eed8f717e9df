// Replacements a flush holds back. An application may write every
// checkpoint to the same paths; a flush that replaced the older checkpoint's
// files as it copied, then failed (no space, a damaged cache file, another
// process's failure), would lose both checkpoints. So a copy whose
// destination already exists keeps its complete temporary beside it
// (io::CopyOptions::defer), and only once the whole job agrees that the
// dataset got through and the summary and index record the flush does each
// process rename its temporaries into place (replace_deferred). On failure
// they are removed (drop_deferred) and the older files stay as they were.
// A job killed between the record and the last rename leaves the rest to
// the next SCR_Init, which finishes the renames (sweep_deferred): at every
// moment either the older dataset is whole and current, or the newer one is
// recorded and its copies will take their names before anything reads them.
// Distinct names per checkpoint defer nothing and cost nothing.
//
// Each held-back temporary is first noted in a list in <prefix>/.scr
// (scrpp.deferred.<id>.<rank>), removed once the temporaries are renamed or
// removed; a list found at SCR_Init or by scr_scavenge was left by a killed
// job, and its temporaries are swept with it (sweep_deferred_lists).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"

namespace scr::rt {

inline constexpr const char* kDeferredListPrefix = "scrpp.deferred.";

// One process's held-back replacements for one dataset (of one or, merged
// with absorb, several owner ranks' files).
struct Deferred {
  struct Pair {
    std::string temp, dst;
  };
  std::string prefix;
  std::vector<std::string> lists;  // where the temporaries are noted
  std::vector<Pair> files;
  bool empty() const { return files.empty() && lists.empty(); }
  void absorb(Deferred&& other);
  // Forget them here, leaving temporaries and lists on disk for the next
  // SCR_Init's sweep (sweep_deferred) to settle.
  void keep_listed() {
    files.clear();
    lists.clear();
  }
};

// <prefix>/.scr/scrpp.deferred.<id>.<rank>
std::string deferred_list_path(const std::string& prefix, int id, int rank);

// Notes `temp` in the list at `list_path` before the temporary is made, so
// that a job killed from here on leaves it findable.
Status note_deferred(io::Env& env, Deferred& d, const std::string& list_path, const std::string& temp);

// The whole dataset got through: each temporary renamed over its
// destination, their directories synced, then the list removed. On an error
// the temporaries not yet renamed stay listed in `d` (drop_deferred them).
Status replace_deferred(io::Env& env, Deferred& d);
// The flush failed: the temporaries and the list removed; the files they
// would have replaced are untouched.
// Returns whether every temporary went (the lists go only then).
bool drop_deferred(io::Env& env, Deferred& d);

// A record that reported a failure may still have reached the index (its
// last step failed, the index already in place): what the index now says of
// dataset `id` decides, as it will for the next SCR_Init's sweep. Recorded:
// the held-back copies take their names (replace_deferred); not recorded:
// they go (drop_deferred); unknown (the index cannot be read): they stay
// listed for that sweep (Deferred::keep_listed). Used by the job's flush and
// by scr_scavenge.
enum class RecordVerdict { not_recorded = 0, recorded = 1, unknown = 2 };
RecordVerdict verdict_of_record(io::Env& env, const std::string& prefix, int id);

// At SCR_Init (one job uses a prefix at a time): `name` in <prefix>/.scr is
// a list a killed job left. When the index records its dataset as flushed
// (`recorded(id)`: the job died after recording it, while or before it put
// its copies in place), the copies are put in place now (rolled forward);
// otherwise they are removed and the older files stay. Then the list goes.
// Returns whether `name` was such a list.
bool sweep_deferred(io::Env& env, const std::string& prefix, const std::string& name,
                    const std::function<bool(int id)>& recorded);

// Every list in <prefix>/.scr swept as above, against the index as it is.
// Before anything copies into the prefix again (SCR_Init's salvage,
// scr_scavenge): a copy of the same dataset and rank notes its temporaries
// in the same list, and the killed flush's partial temporaries, rolled
// forward once that copy is recorded, would replace its whole files.
void sweep_deferred_lists(io::Env& env, const std::string& prefix);

}  // namespace scr::rt
