#include "runtime/context.hpp"

#include <chrono>

#include "io/path.hpp"
#include "runtime/async_flush.hpp"
#include "runtime/rescale.hpp"

namespace scr::rt {

Context::Context(const Job& j)
    : job(j), settings(j.settings), id(j.id), world(j.world), node(j.node),
      flusher(std::make_unique<AsyncFlusher>()) {}
Context::~Context() = default;

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace scr::rt
