// The changes one scr_halt call makes to the halt file, applied to its tree
// without I/O. Keys as in docs/formats/prefix.md (runtime/prefix/halt_file.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kvtree/tree.hpp"

namespace scr::tools::halt {

inline constexpr const char* kReason = "EXIT_REASON";
inline constexpr const char* kCheckpoints = "CHECKPOINTS";
inline constexpr const char* kBefore = "EXIT_BEFORE";
inline constexpr const char* kAfter = "EXIT_AFTER";
inline constexpr const char* kSeconds = "HALT_SECONDS";
inline constexpr const char* kFinalized = "FINALIZED";

struct Changes {
  bool remove_all = false;                 // every condition except FINALIZED
  std::set<std::string> unset;             // keys to delete (FINALIZED included)
  std::map<std::string, std::string> set;  // key -> value, applied last
  bool empty() const { return !remove_all && unset.empty() && set.empty(); }
};

struct Edit {
  kv::Tree tree;                    // the file's new content
  std::vector<std::string> done;    // what changed, one sentence each
  std::vector<std::string> no_ops;  // what was asked but already so
  bool changed = false;             // tree differs from the file's content
};

Edit apply_changes(const kv::Tree& current, const Changes& changes);

}  // namespace scr::tools::halt
