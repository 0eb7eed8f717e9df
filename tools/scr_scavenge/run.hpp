// A scavenge from start to end: read the nodes' caches, choose the datasets
// (plan.hpp), save each (dataset.hpp), and say what happened to each.
#pragma once

#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "tools/scr_scavenge/dataset.hpp"
#include "tools/scr_scavenge/options.hpp"

namespace scr::tools::scavenge {

struct Outcome {
  enum class State { saved, failed, skipped };
  int id = 0;
  std::string name;
  int flags = 0;
  State state = State::skipped;
  Status error;     // failed: why
  std::string why;  // skipped: why
  Saved saved;
  double seconds = 0;
};

struct Report {
  std::vector<std::string> notes;  // about the caches found
  std::vector<Outcome> datasets;   // ascending id
  std::string restart;             // what a restart from the prefix loads now, "" for none
  bool no_host_answered = false;   // CacheScan::no_host_answered
};

// Errors that stop everything (an unreadable index) are returned; a dataset
// that cannot be saved is an Outcome.
Result<Report> run_scavenge(io::Env& env, const Options& options);

// 0 when something was saved and nothing failed; 2 when there was nothing to
// do; 3 when a dataset could not be rebuilt or verified; 5 on I/O errors,
// and when no host answered (nothing is known to be done).
int exit_code_of(const Report& report);

}  // namespace scr::tools::scavenge
