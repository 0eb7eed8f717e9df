// summary.scrpp: what a flush leaves beside a dataset in the prefix, in
// <prefix>/.scr/scr.dataset.<id>/ (docs/formats/prefix.md), with SCR 3.1's
// summary.scr and rank2file map, which are read when it is absent:
//   DSET/<the dataset descriptor>
//   RANKS = <processes that wrote the dataset>
//   RANK/<r>/FILES = <count>, RANK/<r>/FILELIST/<the files of writer r, with
//            size, CRC32C and whether shared>, RANK/<r>/REDFILE/<name>/SIZE
// It is written once, when every copy of the flush is done, and read by the
// fetch, the restart at another size, the prefix window and the tools: all
// of them through this codec, which checks the shape before anyone walks it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/undo_files.hpp"
#include "kvtree/file_list.hpp"
#include "kvtree/tree.hpp"

namespace scr::rt {

// SCR 3.1's summary.scr (runtime/prefix/scr31/dataset_files.hpp), which SCR++ writes
// too, and SCR++'s own summary.scrpp beside it (the file lists with sizes
// and CRC32C, the redundancy files).
std::string summary_path(const std::string& prefix, int id);
std::string own_summary_path(const std::string& prefix, int id);

// One writer's entry, RANK/<r>: its application files (prefix-relative
// names) and the redundancy files it flushed (names in the dataset's .scr
// directory, with sizes).
Result<std::vector<kv::FileRecord>> summary_files(const kv::Tree& rank_entry);
void set_summary_files(kv::Tree& rank_entry, const std::vector<kv::FileRecord>& files);
struct SummaryRedFile {
  std::string name;
  uint64_t size = 0;
  // CRC32C of the whole file as flushed (absent in summaries of older
  // SCR++ versions, and for files rebuilt in the prefix).
  std::optional<uint32_t> crc;
};
Result<std::vector<SummaryRedFile>> summary_redundancy(const kv::Tree& rank_entry);
void add_summary_redundancy(kv::Tree& rank_entry, const std::string& name, uint64_t size,
                            std::optional<uint32_t> crc = std::nullopt);

// Whether dataset `id` has a summary that reads and every application file
// it lists in the prefix with the recorded size (no checksum: a quick look
// before counting on the dataset, not a verification).
bool summary_files_in_place(io::Env& env, const std::string& prefix, int id);

class Summary {
 public:
  Summary() = default;
  // A new summary of dataset `desc` written by `writers` processes.
  Summary(const kv::Tree& desc, int writers);

  // Checked: a descriptor with ID and NAME, RANKS > 0, and a well-formed
  // entry for every writer; anything else is Errc::corrupt naming `where`.
  static Result<Summary> parse(kv::Tree tree, const std::string& where);
  // The summary of dataset `id`; Errc::not_found when there is none.
  static Result<Summary> read(io::Env& env, const std::string& prefix, int id);
  // Durable when it returns.
  Status write(io::Env& env, const std::string& prefix) const;
  // SCR++'s summary.scrpp, then SCR 3.1's map and summary.scr, staged in
  // `files` for the caller to put in place (io::StagedFiles).
  Status stage(const std::string& prefix, io::StagedFiles& files) const;

  const kv::Tree& desc() const;
  int id() const;
  int writers() const { return writers_; }
  // Writer r's entry (every writer has one once parsed).
  const kv::Tree& rank(int r) const;
  void set_rank(int r, kv::Tree entry);
  // The whole tree, to send to other processes (who parse it again).
  const kv::Tree& tree() const { return tree_; }

 private:
  kv::Tree tree_;
  int writers_ = 0;
};

}  // namespace scr::rt
