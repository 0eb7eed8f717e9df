// scr_index --drop NAME: forget a dataset in the index; its files and
// metadata stay in the prefix (scr_index --add NAME adopts it again).
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_index/command.hpp"
#include "tools/scr_index/index_edit.hpp"

namespace scr::tools::index_cmd {

int drop_dataset(const Request& req) {
  auto idx = open_index(req.env, req.prefix);
  if (!idx) return req.cli.fail(idx.status());
  auto id = find_dataset(req, *idx, req.value);
  if (!id) return req.cli.fail(id.status());
  std::string note = forget_entry(*idx, *id);
  return save_and_say(req, *idx,
                      "Dropped " + req.value + " (dataset " + std::to_string(*id) +
                          ") from the index; its files stay in the prefix." + note);
}

}  // namespace scr::tools::index_cmd
