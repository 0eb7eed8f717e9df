// Rank 0 reads the prefix index, applies an edit and saves it atomically;
// every process gets the same outcome. The one way the runtime changes the
// index.
#pragma once

#include "runtime/context.hpp"
#include "runtime/prefix_index.hpp"

namespace scr::rt {

// edit: Status(PrefixIndex&). Nothing is saved when it fails.
template <class F>
Status edit_index(Context& ctx, F&& edit) {
  Status st;
  if (ctx.rank() == 0) {
    auto idx = PrefixIndex::load(ctx.fs(), ctx.settings.prefix);
    st = idx.status();
    if (st.ok()) st = edit(*idx);
    if (st.ok()) st = idx->save(ctx.fs());
  }
  return mpi::agree(ctx.world, st);
}

}  // namespace scr::rt
