// scr_halt's output in SCR 3.1's layout, which operators' scripts parse:
//
//   Setting CheckpointsLeft                   one line per change asked for
//
//   Halt file settings for /p/run1/.scr/halt.scr:
//     CheckpointsLeft: 5
//     ExitBefore:      Wed Jan  2 03:04:05 2030
//
// SCR's key names stand for SCR++'s (ExitReason for EXIT_REASON,
// CheckpointsLeft, ExitAfter, ExitBefore, HaltSeconds), times as C's
// asctime writes them in local time. No I/O.
#pragma once

#include <string>

#include "kvtree/tree.hpp"
#include "tools/scr_halt/halt_edit.hpp"

namespace scr::tools::halt {

// What SCR's scr_halt prints for a change: "Setting X"/"Unsetting X" lines
// in SCR's order (CheckpointsLeft, ExitAfter, ExitBefore, HaltSeconds,
// ExitReason), then an empty line. --remove and FINALIZED have no line.
std::string scr_changes_text(const Changes& changes);

// "Halt file settings for FILE:" and a "  Key: value" line per condition, or
// "  None". FINALIZED alone shows as SCR's own finalize mark,
// "ExitReason: SCR_FINALIZE_CALLED".
std::string scr_settings_text(const std::string& file, const kv::Tree& halt);

}  // namespace scr::tools::halt
