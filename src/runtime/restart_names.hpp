// SCR's routing rule inside a restart: "only a file name" is needed. A name
// the checkpoint holds is itself; a bare file name (no directory) finds the
// checkpoint's file of that name in whatever directory it was written, so an
// application that wrote "step.10/rank_0.dat" may read back "rank_0.dat".
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.hpp"

namespace scr::rt {

// The checkpoint's names by their last component, built on first use: most
// restarts route every name exactly and never need it.
class BasenameIndex {
 public:
  using AllNames = std::function<std::vector<std::string>()>;
  const std::vector<std::string>& lookup(const std::string& base, const AllNames& all);

 private:
  bool built_ = false;
  std::unordered_map<std::string, std::vector<std::string>> by_base_;
};

// The checkpoint's name for `rel` (relative to the prefix): `rel` when
// `holds(rel)`; else, for a bare file name, the one name of `index` with
// that last component. Errc::not_found when none matches, invalid_argument
// when several do (their directories tell them apart: the caller must name
// one). `what` names the checkpoint in messages.
Result<std::string> restart_name(const std::string& rel, const std::function<bool(const std::string&)>& holds,
                                 BasenameIndex& index, const BasenameIndex::AllNames& all,
                                 const std::string& what);

}  // namespace scr::rt
