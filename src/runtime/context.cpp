#include "runtime/context.hpp"

namespace scr::rt {

Context::Context(const Job& j)
    : job(j), settings(j.settings), id(j.id), world(j.world), node(j.node),
      flusher(std::make_unique<AsyncFlusher>(j, cache, events)) {}
Context::~Context() = default;

}  // namespace scr::rt
