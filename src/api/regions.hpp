// Memory regions protected without files (include/scr/scr_ext.h, SCRPP_Protect
// and the calls after it): the process-wide table of protected regions, and
// the steps that write them into a dataset and read them back at restart,
// over the runtime's ordinary output and restart phases. The regions of a
// process become one file of the dataset (api/region_file.hpp), so cache,
// redundancy, flush, fetch and rebuild treat them as any other file.
#pragma once

#include <optional>
#include <string>

#include "api/region_file.hpp"
#include "runtime/runtime.hpp"

namespace scr::api {

// Local. Protecting an id again replaces its region.
Status protect_region(int id, const Region& region);
Status unprotect_region(int id);

// Inside an output phase (local): write this process's protected regions
// into the dataset being written. Once per phase: a second call is refused
// (Errc::bad_state) and leaves the first copy and the phase as they were.
Status write_regions(rt::Runtime& rt);
// Collective: one checkpoint (SCR_FLAG_CHECKPOINT) holding every region.
Status checkpoint_regions(rt::Runtime& rt, const std::string& name);

// Inside a restart phase (collective): read every protected region back
// from the file this process's rank wrote. Every check (a region missing on
// either side, a size that differs, a damaged file) is made and agreed by
// every process before the first byte of any region is overwritten.
Status read_regions(rt::Runtime& rt);
// Collective: restart from the checkpoint offered, if any, and read every
// region back; returns its name, or nothing when there is none. A damaged
// checkpoint is completed as invalid (the next older one is then offered);
// regions that do not match it leave it in place for a corrected run.
Result<std::optional<std::string>> restore_regions(rt::Runtime& rt);

// Inside a restart phase (local): what writer `writer` stored under `id`,
// and a copy of it into `into` (whose shape must be the same).
Result<RegionShape> stored_region(rt::Runtime& rt, int writer, int id);
Status restore_region_from(rt::Runtime& rt, int writer, int id, const Region& into);

}  // namespace scr::api
