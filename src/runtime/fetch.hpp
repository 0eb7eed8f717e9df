// Fetch: load a checkpoint from the prefix into cache when the cache holds
// none. Tries the current checkpoint (or SCR_CURRENT), then older ones; a
// dataset whose files are missing or fail their CRC32C is marked FAILED in
// the index and the next older one is tried.
#pragma once

#include "runtime/context.hpp"

namespace scr::rt {

// Collective. Returns the id of the loaded dataset, or 0 when none could be
// loaded.
Result<int> fetch_checkpoint(Context& ctx);

// Collective: the highest dataset and checkpoint ids recorded in the prefix
// index, so new datasets never reuse an id.
void learn_prefix_ids(Context& ctx);

}  // namespace scr::rt
