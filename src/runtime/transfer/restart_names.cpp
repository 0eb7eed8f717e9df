#include "runtime/transfer/restart_names.hpp"

#include "io/path.hpp"

namespace scr::rt {

const std::vector<std::string>& BasenameIndex::lookup(const std::string& base, const AllNames& all) {
  if (!built_) {
    for (auto& name : all()) by_base_[io::path::basename(name)].push_back(std::move(name));
    built_ = true;
  }
  static const std::vector<std::string> none;
  auto it = by_base_.find(base);
  return it == by_base_.end() ? none : it->second;
}

NameTest prefix_file(io::Env& env, std::string prefix) {
  return [&env, prefix = std::move(prefix)](const std::string& rel) {
    auto info = env.stat(io::path::join(prefix, rel));
    return info.ok() && info->is_regular();
  };
}

Result<RestartName> restart_name(const std::string& rel, bool bare, const NameTest& holds, const BaseLookup& by_base,
                                 const NameTest& elsewhere, const std::string& what) {
  if (holds(rel)) return RestartName{rel, true};
  std::vector<std::string> matches;
  if (bare) {
    SCR_ASSIGN_OR_RETURN(matches, by_base(io::path::basename(rel)));
  }
  if (matches.size() > 1)
    return Error(Errc::invalid_argument, "file name " + rel + " is ambiguous in " + what + ": " + matches[0] +
                                             " and " + matches[1] + (matches.size() > 2 ? " and more" : "") +
                                             "; route it with its directory");
  if (matches.size() == 1) return RestartName{matches[0], true};
  if (elsewhere && elsewhere(rel)) return RestartName{rel, false};
  return Error(Errc::not_found, "file " + rel + " is not part of " + what);
}

}  // namespace scr::rt
