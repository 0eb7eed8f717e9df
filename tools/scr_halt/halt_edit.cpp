#include "tools/scr_halt/halt_edit.hpp"

namespace scr::tools::halt {

Edit apply_changes(const kv::Tree& current, const Changes& changes) {
  Edit e;
  e.tree = current;
  // As SCR's --remove deletes the halt file: FINALIZED goes too, so a job
  // that finished may be run again in the allocation.
  if (changes.remove_all) {
    std::vector<std::string> removed = current.keys();
    for (const auto& key : removed) e.tree.erase(key);
    if (removed.empty())
      e.no_ops.push_back("no halt condition was set");
    else
      e.done.push_back("removed every halt condition");
  }
  for (const auto& key : changes.unset) {
    if (!e.tree.has(key)) {
      if (!changes.remove_all) e.no_ops.push_back(key + " was not set");
      continue;
    }
    e.tree.erase(key);
    e.done.push_back("unset " + key);
  }
  for (const auto& [key, value] : changes.set) {
    if (e.tree.value(key) == value) {
      e.no_ops.push_back(key + " is already " + value);
      continue;
    }
    e.tree.set(key, value);
    e.done.push_back("set " + key + " = " + value);
  }
  e.changed = e.tree != current;
  return e;
}

}  // namespace scr::tools::halt
