// The C++ API of memory regions (include/scr/regions.hpp) over api/regions.hpp.
#include "scr/regions.hpp"

#include "api/api_state.hpp"
#include "api/cpp_errors.hpp"
#include "api/regions.hpp"

namespace scr {
namespace {

rt::Runtime& runtime(const char* call) {
  auto rt = api::runtime(call);
  api::throw_if_failed(rt.status());
  return **rt;
}

}  // namespace

Regions::~Regions() {
  for (int id : ids_) (void)api::unprotect_region(id);
}

void Regions::protect_bytes(int id, void* ptr, std::size_t count, std::size_t elem_size, const std::string& type) {
  api::throw_if_failed(api::protect_region(id, {ptr, {count, elem_size, type}}));
  ids_.insert(id);
}

void Regions::unprotect(int id) {
  api::throw_if_failed(api::unprotect_region(id));
  ids_.erase(id);
}

void Regions::checkpoint(const std::string& name) {
  api::throw_if_failed(api::checkpoint_regions(runtime("SCRPP_Checkpoint"), name));
}

void Regions::write(Output&) { api::throw_if_failed(api::write_regions(runtime("SCRPP_Write_regions"))); }

std::optional<std::string> Regions::restore() {
  auto restored = api::restore_regions(runtime("SCRPP_Restore"));
  api::throw_if_failed(restored.status());
  return *restored;
}

void Regions::read(Restart&) { api::throw_if_failed(api::read_regions(runtime("SCRPP_Read_regions"))); }

StoredRegion Regions::stored(Restart&, int writer, int id) const {
  auto shape = api::stored_region(runtime("SCRPP_Region_info"), writer, id);
  api::throw_if_failed(shape.status());
  return {shape->count, shape->elem_size, shape->type};
}

void Regions::restore_bytes_from(Restart&, int writer, int id, void* ptr, std::size_t count,
                                 std::size_t elem_size) const {
  api::throw_if_failed(
      api::restore_region_from(runtime("SCRPP_Restore_from"), writer, id, {ptr, {count, elem_size, ""}}));
}

}  // namespace scr
