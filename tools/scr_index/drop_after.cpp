// scr_index --drop-after NAME: forget every dataset newer than NAME (higher
// id), e.g. to go back to NAME after a run produced bad results. Their files
// stay in the prefix.
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_index/command.hpp"
#include "tools/scr_index/index_edit.hpp"

namespace scr::tools::index_cmd {

int drop_after(const Request& req) {
  auto idx = open_index(req.env, req.prefix);
  if (!idx) return req.cli.fail(idx.status());
  auto id = find_dataset(req, *idx, req.value);
  if (!id) return req.cli.fail(id.status());
  std::string dropped, note;
  for (int other : idx->ids()) {
    if (other <= *id) continue;
    std::string name = idx->find(other)->value_or("NAME", "");
    dropped += (dropped.empty() ? "" : ", ") + name;
    note += forget_entry(*idx, other);
  }
  if (dropped.empty()) return req.cli.unchanged("no dataset is newer than " + req.value, req.strict);
  return save_and_say(
      req, *idx, "Dropped " + dropped + " from the index; their files stay in the prefix." + note);
}

}  // namespace scr::tools::index_cmd
