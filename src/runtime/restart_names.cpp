#include "runtime/restart_names.hpp"

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

Result<std::string> restart_name(const std::string& rel, const std::function<bool(const std::string&)>& holds,
                                 BasenameIndex& index, const BasenameIndex::AllNames& all,
                                 const std::string& what) {
  if (holds(rel)) return rel;
  auto missing = [&] { return Error(Errc::not_found, "file " + rel + " is not part of " + what); };
  if (rel.find('/') != std::string::npos) return missing();
  const std::vector<std::string>& matches = index.lookup(rel, all);
  if (matches.empty()) return missing();
  if (matches.size() > 1)
    return Error(Errc::invalid_argument, "file name " + rel + " is ambiguous in " + what + ": " + matches[0] +
                                             " and " + matches[1] + (matches.size() > 2 ? " and more" : "") +
                                             "; route it with its directory");
  return matches[0];
}

}  // namespace scr::rt
