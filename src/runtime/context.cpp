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

std::string Context::dataset_dir(const std::string& store, int dataset) const {
  return io::path::join(cache_dir(store), "scr.dataset." + std::to_string(dataset));
}

std::string Context::dataset_dir(int dataset) const {
  const kv::Tree* d = filemap.find(dataset);
  std::string store = d ? d->value_or("STORE", settings.cache_base) : settings.cache_base;
  return dataset_dir(store, dataset);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace scr::rt
