// SCR's routing rule inside a restart: "only a file name" is needed. A name
// the checkpoint holds is itself; a bare file name (no directory) finds the
// checkpoint's file of that name in whatever directory it was written, so an
// application that wrote "step.10/rank_0.dat" may read back "rank_0.dat".
// Read in place in the prefix, any other file there routes to itself last
// (never ahead of the checkpoint's own file: an old file of the same name
// must not stand in for it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"

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

struct RestartName {
  std::string name;           // relative to the prefix
  bool in_checkpoint = true;  // false: another file of the prefix (`elsewhere`)
};

using NameTest = std::function<bool(const std::string&)>;
// The checkpoint's names whose last component is the one given.
using BaseLookup = std::function<Result<std::vector<std::string>>(const std::string&)>;

// Accepts a name of a regular file in `prefix` (a checkpoint read in place:
// as SCR, any such file routes to itself, an input read beside it).
NameTest prefix_file(io::Env& env, std::string prefix);

// The name `rel` (relative to the prefix) routes to: `rel` when `holds(rel)`;
// else, when the application gave a bare file name (`bare`: no directory,
// though the working directory may have given `rel` one), the one name of
// `by_base` gives for that last component; else `rel` itself when `elsewhere` (may be empty) accepts it.
// Errc::not_found when nothing matches, invalid_argument when several
// checkpoint files do (their directories tell them apart: the caller must
// name one). `what` names the checkpoint in messages.
Result<RestartName> restart_name(const std::string& rel, bool bare, const NameTest& holds, const BaseLookup& by_base,
                                 const NameTest& elsewhere, const std::string& what);

}  // namespace scr::rt
