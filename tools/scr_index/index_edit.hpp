// What the index-changing subcommands share: find a dataset by name with an
// error that says where to look, and save with the message of what changed.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "tools/common/summary.hpp"
#include "tools/scr_index/command.hpp"

namespace scr::tools::index_cmd {

// Errc::not_found: "no dataset named X in the index of P".
Result<int> find_dataset(const Request& req, const rt::PrefixIndex& idx, const std::string& name);

// The newest summary in the prefix's dataset directories that names `name`
// (else, `name` being a number, that dataset's), and the summaries that
// could not be read on the way: how --add and --build find a dataset the
// index does not list.
struct Found {
  std::optional<std::pair<int, Summary>> match;
  std::vector<std::string> damaged;
};
Found find_summary(const Request& req, const std::string& name);

// Save atomically; on success print `done` and which checkpoint a restart
// would now load on stdout, and return 0.
int save_and_say(const Request& req, const rt::PrefixIndex& idx, const std::string& done);

// Enter a verified dataset of the prefix in the index, complete and flushed,
// from its summary (--add, and --build of a dataset the index lacks), with
// the marking of every flush (rt::mark_flushed). An operator adopting a
// dataset chose it: CURRENT stays as it is (--current moves it) and no
// SCR_PREFIX_SIZE window deletes other datasets for it.
void adopt_entry(rt::PrefixIndex& idx, const Summary& summary);

// Remove a dataset's entry (rt::PrefixIndex::forget: CURRENT, if it named
// it, moves to the newest loadable checkpoint older than it, as in SCR 3.1);
// returns a sentence saying where CURRENT went, or "" when it did not move.
std::string forget_entry(rt::PrefixIndex& idx, int id);

}  // namespace scr::tools::index_cmd
