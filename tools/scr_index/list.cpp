// scr_index (no change requested): the index as a table or JSON.
#include <cstdio>

#include "tools/common/index_view.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_index/command.hpp"

namespace scr::tools::index_cmd {

int list_datasets(const Request& req) {
  auto idx = open_index(req.env, req.prefix);
  if (!idx) return req.cli.fail(idx.status());
  if (req.json)
    std::printf("%s\n", index_json(req.prefix, *idx).dump().c_str());
  else
    std::fputs(index_text(req.prefix, *idx).c_str(), stdout);
  return exit_code::ok;
}

}  // namespace scr::tools::index_cmd
