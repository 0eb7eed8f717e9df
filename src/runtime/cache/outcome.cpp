#include "runtime/cache/outcome.hpp"

namespace scr::rt {

bool storage_failed(const Status& st) { return st.code() == Errc::no_space || st.code() == Errc::io_error; }

Outcome agree_outcome(const mpi::Comm& world, const Status& local, bool (*spares_data)(const Status&)) {
  Status why = mpi::agree(world, local);
  if (why.ok()) return {Verdict::usable, why};
  bool spared = mpi::any_true(world, !local.ok() && spares_data(local));
  return {spared ? Verdict::kept : Verdict::unusable, why};
}

}  // namespace scr::rt
