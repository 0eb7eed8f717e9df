// scr_index --current NAME: the checkpoint the next restart from the prefix
// loads. Only a dataset the runtime would accept may become CURRENT, so a
// restart never starts from data that is incomplete or known to be bad.
#include "runtime/prefix/dataset.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_index/command.hpp"
#include "tools/scr_index/index_edit.hpp"

namespace scr::tools::index_cmd {
namespace {

// Why the runtime would not load this dataset, or "".
std::string not_loadable_reason(const rt::PrefixIndex& idx, int id) {
  const kv::Tree* e = idx.find(id);
  if (!(e->int_or("FLAGS", 0) & rt::kFlagCheckpoint))
    return "it is an output dataset, not a checkpoint";
  if (idx.failed(id)) return "it is marked FAILED (a restart found it damaged)";
  if (!idx.flushed(id)) return "it is not complete (its flush did not finish)";
  return "";
}

}  // namespace

int set_current(const Request& req) {
  auto idx = open_index(req.env, req.prefix);
  if (!idx) return req.cli.fail(idx.status());
  auto id = find_dataset(req, *idx, req.value);
  if (!id) return req.cli.fail(id.status());
  if (std::string why = not_loadable_reason(*idx, *id); !why.empty())
    return req.cli.fail(exit_code::refused, "cannot make '" + req.value + "' CURRENT: " + why);
  std::string before = idx->current();
  if (before == req.value) return req.cli.unchanged(req.value + " is already CURRENT", req.strict);
  idx->set_current(req.value);
  return save_and_say(
      req, *idx,
      req.value + " is now CURRENT" + (before.empty() ? "." : " (it was " + before + ")."));
}

}  // namespace scr::tools::index_cmd
