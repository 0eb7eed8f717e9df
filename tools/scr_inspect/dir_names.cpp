#include "tools/scr_inspect/dir_names.hpp"

#include <climits>

#include "common/strings.hpp"

namespace scr::tools::inspect {
namespace {

int number_between(const std::string& name, const std::string& head, const std::string& tail) {
  if (name.size() <= head.size() + tail.size() || !str::starts_with(name, head) ||
      !str::ends_with(name, tail))
    return -1;
  auto n = str::parse_int(name.substr(head.size(), name.size() - head.size() - tail.size()));
  return n && *n >= 0 && *n <= INT_MAX ? static_cast<int>(*n) : -1;
}

}  // namespace

int filemap_rank(const std::string& name) { return number_between(name, "filemap_", ".scr"); }
int dataset_dir_id(const std::string& name) { return number_between(name, "scr.dataset.", ""); }

}  // namespace scr::tools::inspect
