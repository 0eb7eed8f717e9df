// Rebuild at SCR_Init (seed 003, scr_cache_rebuild): walk the datasets found
// in cache, oldest first; for each, agree on its descriptor and on the
// redundancy descriptor it was written with, rebuild what was lost with that
// scheme, or delete it from cache on every node when it cannot be rebuilt.
#pragma once

#include "runtime/context.hpp"

namespace scr::rt {

// Collective. Leaves the filemap holding only complete, rebuilt datasets and
// advances ctx.dataset_id / checkpoint_id past them.
Status rebuild_cache(Context& ctx);

}  // namespace scr::rt
