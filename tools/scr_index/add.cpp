// scr_index --add NAME|ID: adopt a dataset whose directory is in the prefix but
// whose index entry is gone (dropped, or the index was rebuilt). SCR names
// it by its dataset id; a name works too (a name wins where both could
// match). Its summary
// (.scr/scr.dataset.<id>/summary.scr) must name it, and every file it lists
// must be in the prefix with the recorded size and CRC32C; only then is the
// entry added, marked complete and flushed. Anything less is refused with
// the reason, and the index is left as it was.
#include <cstdio>
#include <optional>
#include <vector>

#include "common/strings.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/common/summary.hpp"
#include "tools/scr_index/command.hpp"
#include "tools/scr_index/dataset_files.hpp"
#include "tools/scr_index/index_edit.hpp"

namespace scr::tools::index_cmd {
namespace {

// The dataset is in the index already. SCR's --add then enters it again and
// exits 0, so an intact entry is a request that changes nothing; one marked
// FAILED, or whose flush never finished, is refused: SCR++ clears those only
// with --drop and a verifying --add.
int already_indexed(const Request& req, const rt::PrefixIndex& idx, int id) {
  std::string entry = "'" + idx.find(id)->value_or("NAME", "") + "' is already in the index (dataset " +
                      std::to_string(id) + ")";
  if (idx.flushed(id) && !idx.failed(id)) return req.cli.unchanged(entry, req.strict);
  return req.cli.fail(exit_code::refused,
                      entry + (idx.failed(id) ? ", marked FAILED" : ", its flush unfinished") +
                          "; --drop it, then --add it to verify it again");
}

std::string bullet_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += "\n  " + i;
  return out;
}

}  // namespace

int add_dataset(const Request& req) {
  // Adding to the prefix is what a damaged index must not stop.
  auto idx = open_index_to_add(req.env, req.prefix);
  if (!idx) return req.cli.fail(idx.status());
  const std::string& name = req.value;
  if (auto id = idx->find_name(name)) return already_indexed(req, *idx, *id);

  Found found = find_summary(req, name);
  if (!found.match) {
    if (!found.damaged.empty())
      return req.cli.fail(exit_code::bad_data,
                          "no readable summary names '" + name +
                              "'; these could not be read:" + bullet_list(found.damaged));
    return req.cli.fail(exit_code::not_found, "no dataset directory in " +
                                                  rt::prefix_scr_dir(req.prefix) +
                                                  " has a summary for '" + name + "'");
  }
  auto& [id, summary] = *found.match;
  const std::string& adopted = summary.info.name;
  if (adopted != name) {
    if (auto other = idx->find_name(adopted)) {
      if (*other == id) return already_indexed(req, *idx, id);
      return req.cli.fail(exit_code::refused, "dataset " + std::to_string(id) + " ('" + adopted +
                                                  "') is already in the index (dataset " + std::to_string(*other) + ")");
    }
  }
  if (summary.info.id != id)
    return req.cli.fail(exit_code::bad_data,
                        rt::summary_path(req.prefix, id) + " describes dataset " +
                            std::to_string(summary.info.id) + ", not " + std::to_string(id));
  if (idx->has(id)) {
    if (idx->find(id)->value_or("NAME", "") == adopted) return already_indexed(req, *idx, id);
    return req.cli.fail(exit_code::refused, "dataset id " + std::to_string(id) +
                                                " is already in the index as '" +
                                                idx->find(id)->value_or("NAME", "") + "'");
  }

  FileCheck check = check_dataset_files(req.env, req.prefix, id, summary);
  if (!check.problems.empty())
    return req.cli.fail(exit_code::bad_data,
                        "cannot add '" + adopted + "': " + std::to_string(check.problems.size()) +
                            " of " + std::to_string(check.files) +
                            " files fail verification:" + bullet_list(check.problems));
  for (const auto& p : check.redundancy_problems)
    req.cli.note(p + " (the dataset loads, but lost files could not be rebuilt from it)");

  adopt_entry(*idx, summary);
  std::string verified = std::to_string(check.files) + " files, " + str::format_bytes(check.bytes) +
                         (check.crcs == check.files ? ", sizes and CRC32C verified"
                          : check.crcs == 0         ? ", sizes verified (no CRC32C recorded)"
                                                    : ", sizes verified, CRC32C where recorded");
  return save_and_say(req, *idx,
                      "Added " + adopted + " (dataset " + std::to_string(id) + ", " + verified +
                          ") to the index as complete and flushed.");
}

}  // namespace scr::tools::index_cmd
