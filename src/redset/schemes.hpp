// Internal: one apply and one survey per scheme, called by redset.cpp after
// the shared steps (describing files, naming the redundancy file). `files` is
// this process's {FILES, FILELIST} tree from describe_files() (metadata, no
// checksums), handed over (moved) so the header is built from it without a
// copy: with many small files the trees, not the data, set the peak memory.
// Each apply records the CRC32C of every file in the headers (crcs.hpp) and
// returns this process's files in `own`, in list order, each with its CRC32C.
// `spare`, when not empty, names a file of this process's that the
// redundancy file may be written over instead of a new one
// (PendingRedundancy::create); SINGLE, whose file is a header alone, leaves
// it.
//
// `files_checked`: the survey does not look at the files the member's header
// lists: recover() has just read each and found it intact, or leaves them to
// the rebuild's own reads (a file missing, resized or damaged then fails the
// attempt, and the careful one follows).
//
// recover() runs in two halves so that no set writes anything before every
// set knows its loss can be rebuilt: survey_*() only reads (collective over
// the set) and returns a Rebuild; redset.cpp agrees over the parent
// communicator, and only then runs each Rebuild (collective over the set).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "redset/meta.hpp"
#include "redset/set.hpp"

namespace scr::redset::detail {

class Rebuild {
 public:
  virtual ~Rebuild() = default;
  // Rebuild what the set lost; returns this process's files.
  virtual Result<std::vector<FileEntry>> run() = 0;
  // After run(): the CRC32C of each of this process's own files, taken as
  // the rebuild read them (a source of a decode), in file order; nothing
  // when the rebuild did not read them (or wrote them: they were checked
  // as they were written).
  virtual std::optional<std::vector<uint32_t>> read_crcs() const { return std::nullopt; }
  // This process's files were written by the rebuild (and checked then).
  virtual bool wrote_own_files() const { return false; }
};
using Survey = Result<std::unique_ptr<Rebuild>>;

// For a set that lost nothing: hands back this process's files.
std::unique_ptr<Rebuild> nothing_to_rebuild(std::vector<FileEntry> files);

Status apply_single(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                    const std::string& redfile, const std::string& spare, std::vector<FileEntry>& own);
Survey survey_single(io::Env& env, const Set& set, const std::string& dir,
                     const std::string& redfile, bool files_checked);

Status apply_partner(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                     const std::string& redfile, const std::string& spare, std::vector<FileEntry>& own);
Survey survey_partner(io::Env& env, const Set& set, const std::string& dir,
                      const std::string& redfile, bool files_checked);

Status apply_xor(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                 const std::string& redfile, const std::string& spare, std::vector<FileEntry>& own);
Survey survey_xor(io::Env& env, const Set& set, const std::string& dir, const std::string& redfile,
                  bool files_checked);

Status apply_rs(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                const std::string& redfile, const std::string& spare, std::vector<FileEntry>& own);
Survey survey_rs(io::Env& env, const Set& set, const std::string& dir, const std::string& redfile,
                 bool files_checked);

}  // namespace scr::redset::detail
