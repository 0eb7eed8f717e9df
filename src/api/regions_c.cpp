// The C API of memory regions (SCRPP_Protect ... in include/scr/scr_ext.h):
// a thin layer over api/regions.hpp, catching at the boundary as scr_c.cpp
// does for the rest of the C API.
#include <cstring>
#include <new>
#include <string>

#include "api/api_state.hpp"
#include "api/regions.hpp"
#include "scr.h"
#include "scr/scr_ext.h"

namespace {

// Run fn (returning Status), print a failure on stderr, return a code.
// With SCR_ENABLE=0, `disabled` answers instead (SCR's calls are no-ops
// that succeed then; a call that needs a checkpoint fails).
template <class F, class D>
int region_call(const char* call, F&& fn, D&& disabled) {
  scr::Status st;
  try {
    if (scr::api::disabled()) {
      st = disabled();
    } else {
      auto rt = scr::api::runtime(call);
      st = rt.ok() ? fn(**rt) : rt.status();
    }
  } catch (const std::bad_alloc&) {
    st = scr::Error(scr::Errc::io_error, "out of memory");
  } catch (const std::exception& e) {
    st = scr::Error(scr::Errc::io_error, e.what());
  }
  scr::api::report(call, st);
  return st.ok() ? SCR_SUCCESS : 1;
}

scr::Status no_checkpoint() {
  return scr::Error(scr::Errc::bad_state, "SCR is disabled (SCR_ENABLE=0): there is no checkpoint");
}

scr::api::Region region(void* ptr, size_t count, size_t elem_size, const char* type) {
  return {ptr, {count, elem_size, type ? type : ""}};
}

// Protect and unprotect need no session: the table is the process's.
int protect(const char* call, int id, void* ptr, size_t count, size_t elem_size, const char* type) {
  scr::Status st = type && std::strlen(type) >= SCR_MAX_FILENAME
                       ? scr::Error(scr::Errc::invalid_argument, "type tag longer than SCR_MAX_FILENAME")
                       : scr::api::protect_region(id, region(ptr, count, elem_size, type));
  scr::api::report(call, st);
  return st.ok() ? SCR_SUCCESS : 1;
}

}  // namespace

extern "C" {

int SCRPP_Protect(int id, void* ptr, size_t count, size_t elem_size) {
  return protect("SCRPP_Protect", id, ptr, count, elem_size, nullptr);
}

int SCRPP_Protect_typed(int id, void* ptr, size_t count, size_t elem_size, const char* type) {
  return protect("SCRPP_Protect_typed", id, ptr, count, elem_size, type);
}

int SCRPP_Unprotect(int id) {
  scr::Status st = scr::api::unprotect_region(id);
  scr::api::report("SCRPP_Unprotect", st);
  return st.ok() ? SCR_SUCCESS : 1;
}

int SCRPP_Checkpoint(const char* name) {
  return region_call("SCRPP_Checkpoint", [&](scr::rt::Runtime& rt) {
    return scr::api::checkpoint_regions(rt, name ? name : "");
  }, [] { return scr::Status::Ok(); });
}

int SCRPP_Write_regions(void) {
  return region_call("SCRPP_Write_regions", [](scr::rt::Runtime& rt) { return scr::api::write_regions(rt); },
                     [] { return scr::Status::Ok(); });
}

int SCRPP_Restore(int* restored, char* name) {
  if (restored) *restored = 0;
  if (name) name[0] = '\0';
  return region_call("SCRPP_Restore", [&](scr::rt::Runtime& rt) -> scr::Status {
    if (!restored) return scr::Error(scr::Errc::invalid_argument, "NULL restored flag");
    SCR_ASSIGN_OR_RETURN(auto done, scr::api::restore_regions(rt));
    if (!done) return scr::Status::Ok();
    if (name) {
      if (done->size() >= SCR_MAX_FILENAME)
        return scr::Error(scr::Errc::invalid_argument, "name longer than SCR_MAX_FILENAME");
      std::memcpy(name, done->c_str(), done->size() + 1);
    }
    *restored = 1;
    return scr::Status::Ok();
  }, [&] {
    return restored ? scr::Status::Ok() : scr::Error(scr::Errc::invalid_argument, "NULL restored flag");
  });
}

int SCRPP_Read_regions(void) {
  return region_call("SCRPP_Read_regions", [](scr::rt::Runtime& rt) { return scr::api::read_regions(rt); },
                     no_checkpoint);
}

int SCRPP_Region_info(int writer, int id, unsigned long long* count, unsigned long long* elem_size, char* type) {
  if (count) *count = 0;
  if (elem_size) *elem_size = 0;
  if (type) type[0] = '\0';
  return region_call("SCRPP_Region_info", [&](scr::rt::Runtime& rt) -> scr::Status {
    SCR_ASSIGN_OR_RETURN(scr::api::RegionShape shape, scr::api::stored_region(rt, writer, id));
    if (type && shape.type.size() >= SCR_MAX_FILENAME)
      return scr::Error(scr::Errc::invalid_argument, "type tag longer than SCR_MAX_FILENAME");
    if (count) *count = shape.count;
    if (elem_size) *elem_size = shape.elem_size;
    if (type) std::memcpy(type, shape.type.c_str(), shape.type.size() + 1);
    return scr::Status::Ok();
  }, no_checkpoint);
}

int SCRPP_Restore_from(int writer, int id, void* ptr, size_t count, size_t elem_size) {
  return region_call("SCRPP_Restore_from", [&](scr::rt::Runtime& rt) {
    return scr::api::restore_region_from(rt, writer, id, region(ptr, count, elem_size, nullptr));
  }, no_checkpoint);
}

}  // extern "C"
