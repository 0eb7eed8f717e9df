// Checks a flushed dataset's files in the prefix against its summary: each
// application file must lie inside the prefix and have the recorded size
// and, when one was recorded, CRC32C. Redundancy files (in the dataset's
// .scr directory) are checked for presence and size; they are needed only to
// rebuild lost files, so their problems are reported apart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/env.hpp"
#include "tools/common/summary.hpp"

namespace scr::tools::index_cmd {

struct FileCheck {
  std::vector<std::string> problems;             // application files, one sentence each
  std::vector<std::string> redundancy_problems;  // redundancy files
  size_t files = 0;                              // application files checked
  size_t crcs = 0;                               // of which CRC32C was verified
  uint64_t bytes = 0;
};

// Long checks report progress on stderr (tools/common/progress.hpp).
FileCheck check_dataset_files(io::Env& env, const std::string& prefix, int id,
                              const Summary& summary);

}  // namespace scr::tools::index_cmd
