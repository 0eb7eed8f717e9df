// How a C entry point of libscr ends: every failure, exceptions included,
// printed on stderr naming the call, and an SCR return code. Shared by the
// files that implement the C calls.
#pragma once

#include <exception>
#include <new>

#include "api/api_state.hpp"
#include "scr.h"

namespace scr::api {

inline constexpr int kFailure = 1;

// Run fn (returning Status) and turn the outcome into an SCR return code.
template <class F>
int guarded(const char* call, F&& fn) {
  try {
    Status st = fn();
    report(call, st);
    return st.ok() ? SCR_SUCCESS : kFailure;
  } catch (const std::bad_alloc&) {
    report(call, Error(Errc::io_error, "out of memory"));
  } catch (const std::exception& e) {
    report(call, Error(Errc::io_error, e.what()));
  }
  return kFailure;
}

}  // namespace scr::api
