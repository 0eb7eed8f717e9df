// A flushed dataset's summary (<prefix>/.scr/scr.dataset.<id>/summary.scr,
// docs/formats/prefix.md) as plain structs for the tools' listings, read
// and checked by the runtime's codec (runtime/prefix/summary.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::tools {

struct SummaryFile {
  std::string name;  // prefix-relative (FILE) or a name in the dataset dir (REDFILE)
  uint64_t size = 0;
  std::optional<uint32_t> crc;  // CRC32C, absent with SCR_CRC_ON_FLUSH=0
};

struct RankFiles {
  int rank = 0;
  std::vector<SummaryFile> files;
  std::vector<SummaryFile> redundancy;
};

struct Summary {
  kv::Tree desc;  // the DSET descriptor
  rt::DatasetInfo info;
  int ranks = 0;
  std::vector<RankFiles> per_rank;  // by rank, every rank present
  uint64_t bytes() const;           // application files only
  size_t file_count() const;
};

Summary view_summary(const rt::Summary& summary);
// Errc::corrupt naming the file and what is missing or malformed.
Result<Summary> read_summary(io::Env& env, const std::string& prefix, int id);

// Whether SCR 3.1 could restart from dataset `id` as SCR++ flushed it: the
// error reading its summary.scr and rank2file map, which SCR++ writes
// beside its own summary.scrpp; Ok for a dataset without summary.scrpp
// (SCR 3.1's own: its summary.scr is the one SCR++ reads and checks).
Status scr31_files_readable(io::Env& env, const std::string& prefix, int id);

// Ids of the scr.dataset.<id> directories in <prefix>/.scr, ascending.
std::vector<int> dataset_dirs(io::Env& env, const std::string& prefix);

}  // namespace scr::tools
