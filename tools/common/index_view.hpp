// The prefix index as operators read it: one row per dataset, as a table
// (scr_index, scr_inspect) or as JSON (--json).
//
//   ID  NAME     TYPE        COMPLETE  FLUSHED  FAILED  CURRENT  SIZE      CREATED
//    4  step.40  checkpoint  yes       yes      no      *        32.1 KiB  2026-11-21 18:58:57
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/json.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::tools {

struct DatasetRow {
  int id = 0;
  std::string name;
  int flags = 0;
  int ckpt = 0;
  bool complete = false, flushed = false, failed = false, current = false, loadable = false;
  uint64_t size = 0;
  int64_t files = 0;
  int64_t created_usecs = 0;  // 0 when unknown
  int64_t flushed_secs = 0;   // when its flush finished, 0 when unknown (not from the index)
};

std::vector<DatasetRow> index_rows(const rt::PrefixIndex& idx);

// "checkpoint", "output", "checkpoint+output" (or "none").
std::string flags_word(int flags);

// The checkpoint a restart from the prefix would load (CURRENT when it is
// loadable, else the newest loadable one), "" when none is.
std::string restart_choice(const rt::PrefixIndex& idx);

// The table plus a closing line saying what a restart would load.
std::string index_text(const std::string& prefix, const rt::PrefixIndex& idx);

// SCR 3.1's `scr_index --list`, byte for byte, for the scripts that parse it:
// checkpoints only, newest first, under "DSET VALID FLUSHED             CUR NAME";
// FLUSHED is the flush time (flushed_secs) as "YYYY-MM-DDTHH:MM:SS", blank
// when not flushed; a '*' under CUR marks CURRENT. Nothing follows the rows.
std::string scr_listing_text(const std::vector<DatasetRow>& rows);
Json index_json(const std::string& prefix, const rt::PrefixIndex& idx);

}  // namespace scr::tools
